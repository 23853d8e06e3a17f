// SPDX-License-Identifier: MIT
// git_revisions.h: git run with posix_spawnp, its output read through
// pipes (both at once with poll, so that a chatty stderr cannot block it).
#include "drivers/git_revisions.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

extern char** environ;

namespace gfxstat::drivers {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(line);
    return out;
}

std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

}  // namespace

std::string short_commit_id(const std::string& id) {
    return id.empty() ? "(work tree)" : id.substr(0, std::min<size_t>(12, id.size()));
}

std::optional<std::string> git_output(const std::string& dir, const std::vector<std::string>& args, std::string* error) {
    std::vector<std::string> argv = {"git", "-C", dir};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        if (error) *error = std::string("pipe: ") + std::strerror(errno);
        return std::nullopt;
    }
    if (pipe2(err, O_CLOEXEC) != 0) {
        if (error) *error = std::string("pipe: ") + std::strerror(errno);
        close(out[0]);
        close(out[1]);
        return std::nullopt;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, "git", &fa, nullptr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    close(err[1]);
    if (rc != 0) {
        close(out[0]);
        close(err[0]);
        if (error) *error = std::string("git: ") + std::strerror(rc);
        return std::nullopt;
    }
    std::string so, se;
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    int open_fds = 2;
    char buf[65536];
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                (i == 0 ? so : se).append(buf, static_cast<size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
            }
        }
    }
    for (auto& f : fds)
        if (f.fd >= 0) close(f.fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (error) {
            const auto lines = split_lines(se);
            *error = lines.empty() ? "git " + (args.empty() ? std::string() : args[0]) + " failed" : lines[0];
        }
        return std::nullopt;
    }
    while (!so.empty() && so.back() == '\n') so.pop_back();
    return so;
}

std::optional<GitCommit> git_head(const std::string& dir, std::string* why) {
    // One call: id, parents, subject (%s is the first line, joined).
    const auto text = git_output(dir, {"log", "-1", "--format=%H%n%P%n%s", "HEAD"}, why);
    if (!text) return std::nullopt;
    GitCommit c;
    std::istringstream in(*text);
    std::string parents;
    std::getline(in, c.id);
    std::getline(in, parents);
    std::getline(in, c.subject);
    c.parents = split_words(parents);
    if (c.id.empty()) {
        if (why) *why = "git log printed no commit";
        return std::nullopt;
    }
    return c;
}

GitBisectState git_bisect_state(const std::string& dir) {
    GitBisectState s;
    // The terms: BISECT_TERMS holds the bad (new) term, then the good (old).
    if (const auto path = git_output(dir, {"rev-parse", "--git-path", "BISECT_TERMS"})) {
        const std::string full = (!path->empty() && (*path)[0] == '/') ? *path : dir + "/" + *path;
        FILE* f = std::fopen(full.c_str(), "re");
        if (f) {
            char line[256];
            std::vector<std::string> t;
            while (t.size() < 2 && std::fgets(line, sizeof line, f)) {
                std::string w(line);
                while (!w.empty() && (w.back() == '\n' || w.back() == '\r')) w.pop_back();
                t.push_back(w);
            }
            std::fclose(f);
            if (t.size() == 2 && !t[0].empty() && !t[1].empty()) {
                s.bad_term = t[0];
                s.good_term = t[1];
            }
        }
    }
    const auto bad = git_output(dir, {"rev-parse", "--verify", "-q", "refs/bisect/" + s.bad_term});
    if (!bad || bad->empty()) return s;
    s.bad = *bad;
    if (const auto goods = git_output(dir, {"for-each-ref", "--format=%(objectname)", "refs/bisect/" + s.good_term + "-*"}))
        s.good = split_lines(*goods);
    if (s.good.empty()) return s;  // git bisect waits for a good commit
    s.active = true;
    if (const auto parents = git_output(dir, {"log", "-1", "--format=%P", s.bad})) s.bad_parents = split_words(*parents);
    std::vector<std::string> args = {"rev-list", "--count", s.bad, "--not"};
    args.insert(args.end(), s.good.begin(), s.good.end());
    if (const auto count = git_output(dir, args)) {
        char* end = nullptr;
        const unsigned long long n = std::strtoull(count->c_str(), &end, 10);
        if (end && *end == '\0') s.candidates = static_cast<size_t>(n);
    }
    return s;
}

}  // namespace gfxstat::drivers
