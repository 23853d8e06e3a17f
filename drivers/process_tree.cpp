// SPDX-License-Identifier: MIT
#include "drivers/process_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

namespace gfxstat::drivers {

namespace {

// The whole file (procfs files have no size), "" when it cannot be read.
std::string read_small_file(const std::string& path, bool* missing = nullptr) {
    std::string out;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (missing) *missing = errno == ENOENT;
        return out;
    }
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        out.append(buf, static_cast<size_t>(n));
        if (out.size() > (1u << 20)) break;  // no children file is a MiB long
    }
    ::close(fd);
    return out;
}

bool is_pid_name(const char* s) {
    if (*s < '1' || *s > '9') return false;
    for (; *s; ++s)
        if (*s < '0' || *s > '9') return false;
    return true;
}

}  // namespace

ProcessTree::ProcessTree(int root_pid, std::string proc) : root_(root_pid), proc_(std::move(proc)) {}

bool ProcessTree::read_stat(int pid, Stat& st) const {
    const std::string text = read_small_file(proc_ + "/" + std::to_string(pid) + "/stat");
    // "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
    // majflt cmajflt utime stime cutime cstime priority nice threads
    // itrealvalue starttime ...": comm may hold spaces and ')'.
    const size_t close = text.rfind(')');
    if (close == std::string::npos) return false;
    const char* p = text.c_str() + close + 1;
    if (std::sscanf(p, " %c %d", &st.state, &st.ppid) != 2) return false;
    // starttime is the 20th field after the comm.
    int field = 0;
    const char* q = p;
    while (*q && field < 20) {
        while (*q == ' ') ++q;
        if (!*q) break;
        ++field;
        if (field == 20) break;
        while (*q && *q != ' ') ++q;
    }
    if (field != 20) return false;
    char* end = nullptr;
    st.start = std::strtoull(q, &end, 10);
    return end != q;
}

bool ProcessTree::read_children(int pid, std::vector<int>& out) const {
    const std::string task_dir = proc_ + "/" + std::to_string(pid) + "/task";
    DIR* d = ::opendir(task_dir.c_str());
    if (!d) return true;  // gone meanwhile: no children, not a kernel without them
    bool supported = true;
    while (const dirent* e = ::readdir(d)) {
        if (!is_pid_name(e->d_name)) continue;
        bool missing = false;
        const std::string text = read_small_file(task_dir + "/" + e->d_name + "/children", &missing);
        if (missing && std::string(e->d_name) == std::to_string(pid)) {
            // The main thread's file is missing while its task directory
            // is there: this kernel has no children files.
            std::string probe = task_dir + "/" + e->d_name;
            if (::access(probe.c_str(), F_OK) == 0) supported = false;
        }
        const char* p = text.c_str();
        while (*p) {
            char* end = nullptr;
            const long child = std::strtol(p, &end, 10);
            if (end == p) break;
            if (child > 0) out.push_back(static_cast<int>(child));
            p = end;
        }
    }
    ::closedir(d);
    return supported;
}

// Without children files: one pass over every process's stat, members'
// children added until none is new (a child listed before its parent).
void ProcessTree::scan_all(std::vector<int>& live) {
    scanned_all_ = true;
    std::map<int, std::pair<int, uint64_t>> all;  // pid -> (ppid, start), live ones
    DIR* d = ::opendir(proc_.c_str());
    if (!d) return;
    while (const dirent* e = ::readdir(d)) {
        if (!is_pid_name(e->d_name)) continue;
        const int pid = std::atoi(e->d_name);
        Stat st;
        if (read_stat(pid, st) && st.state != 'Z' && st.state != 'X') all[pid] = {st.ppid, st.start};
    }
    ::closedir(d);
    std::set<int> in(live.begin(), live.end());
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& [pid, ps] : all) {
            if (in.count(pid) || !in.count(ps.first)) continue;
            in.insert(pid);
            live.push_back(pid);
            members_[pid] = ps.second;
            grew = true;
        }
    }
}

std::vector<int> ProcessTree::refresh() {
    scanned_all_ = false;
    std::vector<int> live;
    std::set<int> done;
    // Members first (the root, then every process seen before, reparented
    // or not), then what their children files name.
    std::vector<int> queue{root_};
    for (const auto& [pid, start] : members_)
        if (pid != root_) queue.push_back(pid);
    const size_t remembered = queue.size();
    bool children_supported = true;
    for (size_t i = 0; i < queue.size(); ++i) {
        const int pid = queue[i];
        if (!done.insert(pid).second) continue;
        Stat st;
        const auto known = members_.find(pid);
        // A remembered pid must still be the process seen before; one a
        // member's children file names is a member whatever it was.
        const bool readable = read_stat(pid, st);
        if (!readable || (i < remembered && known != members_.end() && known->second != st.start)) {
            members_.erase(pid);  // ended, or its pid now names another process
            continue;
        }
        members_[pid] = st.start;
        if (st.state == 'Z' || st.state == 'X') continue;
        live.push_back(pid);
        children_supported &= read_children(pid, queue);
    }
    if (!children_supported) scan_all(live);
    return live;
}

}  // namespace gfxstat::drivers
