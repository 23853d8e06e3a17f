// SPDX-License-Identifier: MIT
#include "drivers/program_filter.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "data/safe_files.h"

extern char** environ;

namespace gfxstat::drivers {

bool program_in_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    std::string dirs = path;
    size_t start = 0;
    while (start <= dirs.size()) {
        const size_t end = std::min(dirs.find(':', start), dirs.size());
        const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
        const std::string candidate = dir + "/" + program;
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return true;
        start = end + 1;
    }
    return false;
}

FilterRun run_filter(const std::vector<std::string>& args, const std::string& input, const std::string& shown) {
    FilterRun run;
    const int in = ::memfd_create(args.empty() ? "gfxstat-filter" : args[0].c_str(), MFD_CLOEXEC);
    if (in < 0) {
        run.failed = FilterRun::Failed::input;
        run.error = errno;
        return run;
    }
    data::UniqueFd in_fd(in);
    data::write_fully(in, input, shown);
    ::lseek(in, 0, SEEK_SET);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        run.failed = FilterRun::Failed::pipe;
        run.error = errno;
        return run;
    }
    data::UniqueFd read_end(fds[0]), write_end(fds[1]);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    std::vector<std::string> copies = args;
    std::vector<char*> argv;
    for (std::string& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        run.failed = FilterRun::Failed::spawn;
        run.error = rc;
        return run;
    }
    write_end = data::UniqueFd();  // our copy: the child's end closes at its exit
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(read_end.get(), buf, sizeof buf);
        if (n > 0) run.output.append(buf, static_cast<size_t>(n));
        else if (n == 0 || errno != EINTR) break;
    }
    while (::waitpid(pid, &run.status, 0) < 0 && errno == EINTR) {
    }
    return run;
}

}  // namespace gfxstat::drivers
