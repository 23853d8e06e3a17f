// SPDX-License-Identifier: MIT
#include "drivers/group_guard.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <mutex>

namespace gfxstat::drivers {
namespace {

std::once_flag g_started;
std::atomic<int> g_socket{-1};  // gfxstat's end; -1: no guard
std::atomic<pid_t> g_guard{0};

// More groups than this at once is more than gfxstat ever runs (one
// workload, or one hook, per run); a group past it is not guarded.
constexpr int kMaxGroups = 1024;

// Closes every descriptor from `first` up: close_range where the kernel
// has it (5.9), else one close() per possible descriptor.
void close_from(int first) noexcept {
#ifdef SYS_close_range
    if (::syscall(SYS_close_range, unsigned(first), ~0U, 0U) == 0) return;
#endif
    rlimit nofile{};
    int limit = 65536;
    if (::getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY)
        limit = nofile.rlim_cur < (1u << 20) ? int(nofile.rlim_cur) : (1 << 20);
    for (int fd = first; fd < limit; ++fd) ::close(fd);
}

// The guard, in the forked child. gfxstat may have had other threads when
// it forked, so only async-signal-safe calls from here on: no allocation,
// no locks, no C++ library.
[[noreturn]] void guard_main(int sock) noexcept {
    // Its own group: `kill -9 -PGID` of gfxstat's group, or a Ctrl-C on
    // the terminal, must not take the guard with it.
    ::setpgid(0, 0);
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2})
        ::sigaction(s, &ignore, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::prctl(PR_SET_NAME, "gfxstat-guard", 0, 0, 0);
    // Nothing of gfxstat's stays open here: not its output (a pipe a
    // caller waits on), not its results lock, not a workload's files.
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0)
        for (int fd = 0; fd < 3; ++fd) ::dup2(null, fd);
    if (sock != 3 && ::dup2(sock, 3) < 0) ::_exit(1);
    close_from(4);

    pid_t groups[kMaxGroups];
    int n = 0;
    for (;;) {
        int32_t msg = 0;
        const ssize_t got = ::recv(3, &msg, sizeof msg, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;  // gfxstat is gone (or the socket failed: act as if)
        if (got != sizeof msg || msg == 0) continue;
        if (msg > 0) {
            if (n < kMaxGroups) groups[n++] = pid_t(msg);
        } else {
            for (int i = 0; i < n; ++i)
                if (groups[i] == pid_t(-msg)) {
                    groups[i] = groups[--n];
                    break;
                }
        }
    }
    for (int i = 0; i < n; ++i) ::kill(-groups[i], SIGKILL);
    ::_exit(0);
}

void start() noexcept {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) return;
    // Above the standard descriptors, so that the child's dup2s onto 0, 1
    // and 2 cannot overwrite its end.
    for (int& fd : fds) {
        if (fd > 2) continue;
        const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
        ::close(fd);
        fd = high;
    }
    if (fds[0] < 0 || fds[1] < 0) {
        if (fds[0] >= 0) ::close(fds[0]);
        if (fds[1] >= 0) ::close(fds[1]);
        return;
    }
    // fork, not vfork: the guard outlives the call. It happens once, before
    // the first workload, while gfxstat holds little memory.
    // Signals blocked across the fork: none of gfxstat's handlers may run
    // in the guard before it has set its own dispositions.
    sigset_t all, old_mask;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &old_mask);
    const pid_t pid = ::fork();
    if (pid == 0) guard_main(fds[1]);
    ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        return;
    }
    g_guard.store(pid);
    g_socket.store(fds[0]);
}

void tell(int32_t msg) noexcept {
    const int sock = g_socket.load();
    if (sock < 0) return;
    // Never blocks a run nor raises SIGPIPE: a guard that is gone or
    // stopped leaves the groups unguarded, which is what happens without
    // one.
    while (::send(sock, &msg, sizeof msg, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno == EINTR) {
    }
}

}  // namespace

void start_group_guard() noexcept {
    try {
        std::call_once(g_started, start);
    } catch (...) {
        // call_once can only throw for a system error of its own; go on unguarded.
    }
}

void guard_group(pid_t pgid) noexcept {
    if (pgid > 0) {
        const int saved = errno;
        tell(int32_t(pgid));
        errno = saved;
    }
}

void release_group(pid_t pgid) noexcept {
    if (pgid > 0) {
        const int saved = errno;
        tell(-int32_t(pgid));
        errno = saved;
    }
}

pid_t group_guard_pid() noexcept { return g_guard.load(); }

}  // namespace gfxstat::drivers
