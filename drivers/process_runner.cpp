// SPDX-License-Identifier: MIT
#include "drivers/process_runner.h"

#include "drivers/group_guard.h"
#include "drivers/shell_script_fallback.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string_view>

extern char** environ;

namespace gfxstat::drivers {
namespace {

// --- the running children, for stop_current_process --------------------------
//
// Each run records its child's pid (= its process group id) in a free slot.
// A slot is cleared after the child has exited but before it is reaped, and
// the runner then waits until no stop_current_process call is in progress:
// a handler that read the pid before it was cleared has sent its signal
// before the pid can be reaped and reused.
constexpr int kSlots = 64;
std::atomic<pid_t> g_running[kSlots];
std::atomic<int> g_stoppers{0};
std::atomic<bool> g_use_pidfd{true};
static_assert(std::atomic<pid_t>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);

int register_child(pid_t pid) noexcept {
    for (int i = 0; i < kSlots; ++i) {
        pid_t expected = 0;
        if (g_running[i].compare_exchange_strong(expected, pid)) return i;
    }
    return -1;  // more than kSlots concurrent runs: this one cannot be stopped
}

void unregister_child(int slot) noexcept {
    if (slot >= 0) g_running[slot].store(0);
    while (g_stoppers.load() != 0) sched_yield();
}

// --- small helpers --------------------------------------------------------------

std::string errno_text(int e) {
    char buf[256];
    // GNU strerror_r: returns a pointer to the message (maybe not buf).
    return ::strerror_r(e, buf, sizeof buf);
}

class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    Fd& operator=(Fd&& o) noexcept {
        if (this != &o) {
            reset();
            fd_ = o.fd_;
            o.fd_ = -1;
        }
        return *this;
    }
    ~Fd() { reset(); }
    int get() const { return fd_; }
    void reset() noexcept {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_ = -1;
};

// Opens with O_CLOEXEC and moves the descriptor above 2, so that the dup2s to
// 0, 1 and 2 in the child never overwrite one another's source (gfxstat may
// run with a standard descriptor closed). Returns -1 with errno set.
int open_high(const char* path, int flags, mode_t mode = 0) {
    int fd;
    do fd = ::open(path, flags | O_CLOEXEC, mode);
    while (fd < 0 && errno == EINTR);
    if (fd < 0 || fd > 2) return fd;
    int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int saved = errno;
    ::close(fd);
    errno = saved;
    return high;
}

Fd open_output(const std::string& path) {
    const char* p = path.empty() ? "/dev/null" : path.c_str();
    // A link planted at a log's name is not followed (campaigns run as
    // root); /dev/null and the run loop's memory files (/proc/self/fd/N,
    // links by nature) are gfxstat's own.
    const bool own_link = path.empty() || path.rfind("/proc/self/fd/", 0) == 0;
    int fd = open_high(p, O_WRONLY | O_CREAT | O_TRUNC | (own_link ? 0 : O_NOFOLLOW), 0644);
    if (fd < 0) {
        throw std::runtime_error("cannot create output file '" + std::string(p) +
                                 "': " + errno_text(errno));
    }
    return Fd(fd);
}

int64_t now_ns() noexcept {
    timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

int64_t seconds_to_ns(double s) noexcept {
    // Clamped: a "timeout" of a century is no timeout, and the sum with now_ns
    // must not overflow.
    constexpr double kMax = 100.0 * 365 * 24 * 3600;
    if (!(s > 0)) return 0;
    return int64_t(std::ceil(std::min(s, kMax) * 1e9));
}

double tv_seconds(const timeval& tv) noexcept { return double(tv.tv_sec) + tv.tv_usec * 1e-6; }

std::string_view env_name(std::string_view entry) {
    return entry.substr(0, std::min(entry.find('='), entry.size()));
}

// environ with the overrides applied. The pointers refer to environ and to
// spec.env, which outlive the spawn.
std::vector<char*> build_environment(const std::vector<std::string>& overrides) {
    std::vector<char*> envp;
    for (char** e = environ; e && *e; ++e) {
        std::string_view name = env_name(*e);
        bool replaced = std::any_of(overrides.begin(), overrides.end(),
                                    [&](const std::string& o) { return env_name(o) == name; });
        if (!replaced) envp.push_back(*e);
    }
    for (size_t i = 0; i < overrides.size(); ++i) {
        const std::string& o = overrides[i];
        if (o.find('=') == std::string::npos) continue;  // "NAME": removal only
        std::string_view name = env_name(o);
        bool later = std::any_of(overrides.begin() + i + 1, overrides.end(),
                                 [&](const std::string& l) { return env_name(l) == name; });
        if (!later) envp.push_back(const_cast<char*>(o.c_str()));
    }
    envp.push_back(nullptr);
    return envp;
}

// Waits, without reaping it, until the child has exited (true) or the
// deadline (CLOCK_MONOTONIC ns; < 0: none) has passed (false). A pidfd < 0
// selects the waitid fallback. An ECHILD (the child was reaped behind our
// back) counts as exited; wait4 then reports it.
bool wait_for_exit(pid_t pid, int pidfd, int64_t deadline_ns) noexcept {
    if (pidfd >= 0) {
        pollfd pfd{pidfd, POLLIN, 0};
        for (;;) {
            timespec ts{}, *tsp = nullptr;
            if (deadline_ns >= 0) {
                int64_t left = deadline_ns - now_ns();
                if (left <= 0) return false;
                ts.tv_sec = left / 1'000'000'000;
                ts.tv_nsec = left % 1'000'000'000;
                tsp = &ts;
            }
            int r = ::ppoll(&pfd, 1, tsp, nullptr);
            if (r > 0) return true;
            if (r < 0 && errno != EINTR) break;  // unexpected: use the fallback
        }
    }
    int64_t sleep_ns = 100'000;  // 0.1 ms, doubling up to 10 ms
    for (;;) {
        siginfo_t si;
        si.si_pid = 0;
        int flags = WEXITED | WNOWAIT | (deadline_ns >= 0 ? WNOHANG : 0);
        int r = ::waitid(P_PID, id_t(pid), &si, flags);
        if (r == 0 && si.si_pid == pid) return true;
        if (r < 0 && errno == ECHILD) return true;
        if (r < 0 && errno != EINTR) return true;  // cannot wait: let wait4 report it
        if (deadline_ns < 0) continue;              // EINTR on a blocking wait
        int64_t left = deadline_ns - now_ns();
        if (left <= 0) return false;
        int64_t nap = std::min(sleep_ns, left);
        timespec ts{time_t(nap / 1'000'000'000), long(nap % 1'000'000'000)};
        ::nanosleep(&ts, nullptr);
        sleep_ns = std::min<int64_t>(sleep_ns * 2, 10'000'000);
    }
}


// --- the child, between vfork and exec ------------------------------------------
//
// vfork, not fork: fork copies the page tables of gfxstat, which holds the
// whole results file in memory (a 200 MB process: 10 ms a run instead of
// 2). The vfork child shares gfxstat's memory and runs on its stack while
// the calling thread waits for the exec, as posix_spawn's child does; so
// it only makes system calls (no allocation, no locks, nothing written but
// its own locals and, when it cannot exec, the failure record) and never
// returns. Everything it needs is prepared before the vfork.
struct ChildFailure;
struct ChildSetup {
    int in = -1, out = -1, err = -1;  // become 0, 1, 2
    int dir = -1;                     // fchdir first when >= 0
    // Where the child says why it could not exec. The calling thread is
    // suspended until the child has exec'd or exited, and shares its
    // memory: it reads the record when vfork returns, as glibc's
    // posix_spawn does (no pipe to make, read and close at every run).
    volatile ChildFailure* failure = nullptr;
    pid_t parent = 0;                 // getpid() before vfork
    const char* const* candidates = nullptr;  // paths to execve, in order (PATH already searched)
    size_t n_candidates = 0;
    char* const* argv = nullptr;
    char* const* envp = nullptr;
};

// What the child reports when it cannot exec.
struct ChildFailure {
    int stage = -1;  // -1: it runs; 0: exec, 1: working directory, 2: setup
    int error = 0;   // errno
    int candidate = 0;  // exec: the candidate path whose error this is
};

[[noreturn]] void child_fail(const ChildSetup& c, int stage, int error, int candidate = 0) noexcept {
    c.failure->error = error;
    c.failure->candidate = candidate;
    c.failure->stage = stage;
    ::_exit(127);
}

[[noreturn]] __attribute__((noinline)) void child_exec(const ChildSetup& c) noexcept {
    // All signals are blocked (the parent blocked them before vfork). The
    // handlers inherited from gfxstat must not run in the child in the
    // moment between unblocking and exec, and the signals gfxstat ignores
    // are the program's own to decide: everything back to the default.
    for (int sig = 1; sig < NSIG; ++sig) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) != 0) continue;
        const bool handled = (old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN);
        // SIGHUP is left as inherited (ignored under nohup); other ignored
        // signals too, but not those a workload must be stoppable with.
        const bool stoppers = sig == SIGINT || sig == SIGQUIT || sig == SIGTERM || sig == SIGPIPE || sig == SIGXFSZ;
        if (!handled && !(stoppers && old.sa_handler == SIG_IGN)) continue;
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        ::sigaction(sig, &dfl, nullptr);
    }
    // Its own process group, so that the whole group can be stopped; the
    // parent sets it too, so that neither order of the two calls matters.
    ::setpgid(0, 0);
    // Dies with gfxstat, even when gfxstat is SIGKILLed: the workload must
    // not go on measuring (or hogging the GPU) for nobody. If gfxstat died
    // before the prctl, the kernel will not send the signal: check.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) child_fail(c, 2, errno);
    if (::getppid() != c.parent) ::_exit(127);

    if (::dup2(c.in, 0) < 0 || ::dup2(c.out, 1) < 0 || ::dup2(c.err, 2) < 0) child_fail(c, 2, errno);
    if (c.dir >= 0 && ::fchdir(c.dir) != 0) child_fail(c, 1, errno);
    // Everything from 3 up goes, also descriptors opened without O_CLOEXEC
    // by libraries or inherited by gfxstat.
    if (::syscall(SYS_close_range, 3u, ~0u, 0u) != 0) {
        // A kernel without close_range (before 5.9): one close() per
        // possible descriptor, up to the limit.
        rlimit nofile{};
        const unsigned limit = ::getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY
                                   ? unsigned(std::min<rlim_t>(nofile.rlim_cur, 1u << 20))
                                   : 65536u;
        for (unsigned fd = 3; fd < limit; ++fd) ::close(int(fd));
    }

    sigset_t empty;
    sigemptyset(&empty);
    ::sigprocmask(SIG_SETMASK, &empty, nullptr);

    // execvp's search: the first path that runs wins; EACCES anywhere is
    // reported over a later ENOENT, as execvp does. Its shell fallback for
    // ENOEXEC (a script without "#!") needs an argv built for the path
    // found, which the child may not allocate: the parent does it
    // (run_process) once the child has reported which candidate it was.
    int error = ENOENT;
    bool denied = false;
    size_t i = 0;
    for (; i < c.n_candidates; ++i) {
        ::execve(c.candidates[i], c.argv, c.envp);
        error = errno;
        if (error == EACCES) {
            denied = true;
            continue;
        }
        if (error == ENOENT || error == ENOTDIR || error == ESTALE || error == ENODEV || error == ETIMEDOUT)
            continue;
        break;
    }
    if (denied && (error == ENOENT || error == ENOTDIR || error == ESTALE || error == ENODEV || error == ETIMEDOUT))
        error = EACCES;
    child_fail(c, 0, error, static_cast<int>(i));
}

// vfork in a frame of its own that holds nothing but the pid: the child
// runs child_exec in frames below it and never returns here, so no value of
// the caller's can be overwritten on the shared stack.
__attribute__((noinline)) pid_t vfork_child(const ChildSetup& setup) noexcept {
    const pid_t pid = ::vfork();
    if (pid == 0) child_exec(setup);
    return pid;
}

// The paths execvp would try for `program`: itself when it has a '/', else
// each PATH entry (this process's PATH, as posix_spawnp uses).
std::vector<std::string> exec_candidates(const std::string& program) {
    if (program.find('/') != std::string::npos) return {program};
    const char* env_path = ::getenv("PATH");
    const std::string dirs = env_path ? env_path : "/bin:/usr/bin";
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        const std::string dir = dirs.substr(start, end - start);
        out.push_back(dir.empty() ? program : dir + "/" + program);
        start = end + 1;
    }
    return out;
}

// --- what a command leaves behind -----------------------------------------------

// Live (not zombie) processes whose process group is `pgid`, from /proc.
// Only called when kill(-pgid, 0) says the group still has members.
size_t live_group_members(pid_t pgid) {
    size_t n = 0;
    DIR* d = ::opendir("/proc");
    if (!d) return 0;
    char path[300], buf[512];  // d_name is at most 255 bytes
    while (const dirent* e = ::readdir(d)) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;  // gone meanwhile
        const ssize_t got = ::read(fd, buf, sizeof buf - 1);
        ::close(fd);
        if (got <= 0) continue;
        buf[got] = '\0';
        // "pid (comm) state ppid pgrp ...": comm may hold spaces and ')'.
        const char* close = std::strrchr(buf, ')');
        if (!close) continue;
        char state = 0;
        int ppid = 0, pgrp = 0;
        if (std::sscanf(close + 1, " %c %d %d", &state, &ppid, &pgrp) != 3) continue;
        if (pgrp == pgid && state != 'Z' && state != 'X') ++n;
    }
    ::closedir(d);
    return n;
}

void sleep_ns(int64_t ns) noexcept {
    timespec ts{time_t(ns / 1'000'000'000), long(ns % 1'000'000'000)};
    ::nanosleep(&ts, nullptr);
}

// Waits up to `ns` for the group to have no live member; true when it has none.
bool group_empties_within(pid_t pgid, int64_t ns) {
    const int64_t until = now_ns() + ns;
    int64_t nap = 1'000'000;  // 1 ms, doubling up to 20 ms
    for (;;) {
        if (::kill(-pgid, 0) != 0 && errno == ESRCH) return true;
        if (live_group_members(pgid) == 0) return true;
        const int64_t left = until - now_ns();
        if (left <= 0) return false;
        sleep_ns(std::min(nap, left));
        nap = std::min<int64_t>(nap * 2, 20'000'000);
    }
}

// Stops what is left of the group of a command that has ended (and been
// reaped): SIGTERM (with SIGCONT, for stopped members), then SIGKILL after
// the grace. Returns how many live members there were.
//
// The leader is reaped first, so that the usual case costs one kill(): no
// member left, ESRCH. While any member is left, the group id stays taken
// (the kernel does not hand out a pid that is still some group's id), so
// the signals reach that group and no other.
size_t end_group(pid_t pgid, int64_t grace_ns) {
    if (::kill(-pgid, 0) != 0 && errno == ESRCH) return 0;
    // Members may be zombies that their (dead) parent left to an init that
    // does not reap: those are not running anything.
    const size_t live = live_group_members(pgid);
    if (live == 0) return 0;
    ::kill(-pgid, SIGTERM);
    ::kill(-pgid, SIGCONT);
    if (!group_empties_within(pgid, grace_ns)) {
        ::kill(-pgid, SIGKILL);
        // SIGKILL is not instantaneous (memory to free, a GPU context to
        // tear down): the next run should not share the machine with it.
        group_empties_within(pgid, 1'000'000'000);
    }
    return live;
}

// The caller's hook, told that the program runs. A hook that throws must
// not leave the child running nor unreaped: the group is killed and the
// child reaped before the exception goes on.
void call_on_started(const std::function<void(int)>& hook, pid_t pid, int slot) {
    try {
        hook(int(pid));
    } catch (...) {
        unregister_child(slot);
        ::kill(-pid, SIGKILL);
        release_group(pid);  // a group the guard never knew: it ignores it
        int status;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        throw;
    }
}

}  // namespace

void stop_current_process(int signal) noexcept {
    int saved_errno = errno;
    g_stoppers.fetch_add(1);
    for (auto& slot : g_running) {
        pid_t pid = slot.load();
        if (pid > 0) ::kill(-pid, signal);
    }
    g_stoppers.fetch_sub(1);
    errno = saved_errno;
}

void set_process_runner_pidfd_enabled(bool enabled) noexcept { g_use_pidfd.store(enabled); }

ProcessResult run_process(const ProcessSpec& spec) {
    ProcessResult res;
    if (spec.argv.empty() || spec.argv[0].empty()) {
        res.error = "empty command";
        return res;
    }

    Fd dir;
    if (!spec.working_directory.empty()) {
        int fd = open_high(spec.working_directory.c_str(), O_PATH | O_DIRECTORY);
        if (fd < 0) {
            res.error = "working directory " + spec.working_directory + ": " + errno_text(errno);
            return res;
        }
        dir = Fd(fd);
    }
    Fd in;
    if (spec.stdin_null_fd <= 2) {
        in = Fd(open_high("/dev/null", O_RDONLY));
        if (in.get() < 0) throw std::runtime_error("cannot open /dev/null: " + errno_text(errno));
    }
    const int in_fd = spec.stdin_null_fd > 2 ? spec.stdin_null_fd : in.get();
    Fd out = open_output(spec.stdout_path);
    Fd err;
    bool shared = !spec.stdout_path.empty() && spec.stderr_path == spec.stdout_path;
    if (!shared) err = open_output(spec.stderr_path);
    int err_fd = shared ? out.get() : err.get();

    std::vector<char*> envp_storage;
    char** envp = environ;
    if (!spec.env.empty()) {
        envp_storage = build_environment(spec.env);
        envp = envp_storage.data();
    }
    const int64_t timeout_ns = seconds_to_ns(spec.timeout_s);
    const int64_t grace_ns = seconds_to_ns(spec.kill_grace_s);

    // The command line, and the paths to exec it from. A file the kernel
    // will not execute (ENOEXEC: a script without "#!") is run again as
    // `/bin/sh FILE ARGS...`, as execvp and every shell run it
    // (drivers/shell_script_fallback.h): at most once, so the loop ends.
    std::vector<std::string> command = spec.argv;
    std::vector<std::string> candidates = exec_candidates(spec.argv[0]);

    // Before the vfork: the guard that kills the workload's group if
    // gfxstat dies (only for a command whose leftovers gfxstat stops).
    const bool guarded = spec.end_group;
    if (guarded) start_group_guard();
    bool tried_shell = false;
    pid_t pid = -1;
    int slot = -1;
    int64_t t0 = 0;
    for (;;) {
        std::vector<char*> argv;
        argv.reserve(command.size() + 1);
        for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        std::vector<const char*> candidate_ptrs;
        for (const auto& c : candidates) candidate_ptrs.push_back(c.c_str());

        ChildFailure failure;
        ChildSetup setup;
        setup.in = in_fd;
        setup.out = out.get();
        setup.err = err_fd;
        setup.dir = dir.get();
        setup.failure = &failure;
        setup.parent = ::getpid();
        setup.candidates = candidate_ptrs.data();
        setup.n_candidates = candidate_ptrs.size();
        setup.argv = argv.data();
        setup.envp = envp;

        // No allocation and nothing that throws from here until the child is
        // reaped: an exception must not leave it running.

        // Signals stay blocked in this thread from the vfork until the child is
        // recorded, so that a handler on this thread that calls
        // stop_current_process sees it; the child starts with them blocked
        // (no handler of gfxstat's may run on the shared memory) and unblocks
        // them right before exec, once its handlers are the defaults.
        sigset_t all, old_mask;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &old_mask);
        t0 = now_ns();
        pid = vfork_child(setup);
        const int fork_error = errno;
        if (pid > 0) {
            // Also set here: stop_current_process signals the group, which must
            // exist before the child is recorded.
            ::setpgid(pid, pid);
            slot = register_child(pid);
            // If gfxstat dies from here on, the guard kills the whole group of
            // a command whose leftovers gfxstat stops (the workload): the
            // child's PR_SET_PDEATHSIG reaches only the child.
            if (guarded) guard_group(pid);
        }
        pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
        if (pid < 0) throw std::runtime_error("cannot start " + spec.argv[0] + ": " + errno_text(fork_error));
        // What the child wrote before it exec'd or exited is read only now.
        std::atomic_signal_fence(std::memory_order_seq_cst);
        if (failure.stage < 0) break;  // it runs

        // Not started: the child has exited (127) or is about to.
        unregister_child(slot);
        slot = -1;
        if (guarded) release_group(pid);
        int status;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (failure.stage == 0 && failure.error == ENOEXEC && !tried_shell && failure.candidate >= 0 &&
            size_t(failure.candidate) < candidates.size() && runs_as_shell_script(dir.get() >= 0 ? dir.get() : AT_FDCWD, candidates[failure.candidate])) {
            command = shell_script_argv(candidates[failure.candidate], spec.argv);
            candidates = {kScriptShell};
            tried_shell = true;
            continue;
        }
        if (failure.stage == 1)
            res.error = "working directory " + spec.working_directory + ": " + errno_text(failure.error);
        else if (failure.stage == 2)
            throw std::runtime_error("cannot start " + spec.argv[0] + ": " + errno_text(failure.error));
        else
            res.error = spec.argv[0] + ": " + errno_text(failure.error);
        return res;
    }

    if (spec.on_started) call_on_started(spec.on_started, pid, slot);

    // Without a timeout a blocking waitid waits alone (one system call);
    // a pidfd is for polling with a deadline.
    Fd pidfd;
    if (timeout_ns > 0 && g_use_pidfd.load()) pidfd = Fd(int(::syscall(SYS_pidfd_open, pid, 0)));  // always O_CLOEXEC

    bool timed_out = false;
    int sent = 0;
    const int64_t deadline = timeout_ns > 0 ? t0 + timeout_ns : -1;
    if (!wait_for_exit(pid, pidfd.get(), deadline)) {
        timed_out = true;
        ::kill(-pid, SIGTERM);
        sent = SIGTERM;
        if (!wait_for_exit(pid, pidfd.get(), now_ns() + grace_ns)) {
            ::kill(-pid, SIGKILL);
            sent = SIGKILL;
            wait_for_exit(pid, pidfd.get(), -1);
        }
    }
    // The child has exited but is not reaped: its pid, and so the group id,
    // cannot be reused yet. Forget it for stop_current_process, and on a
    // timeout kill what is left of the group (grandchildren that ignored
    // SIGTERM) while the id still names that group.
    unregister_child(slot);
    if (timed_out) ::kill(-pid, SIGKILL);
    // Nothing is left to stop on gfxstat's behalf (a timeout killed the
    // group, a hook's background processes are left on purpose): the guard
    // forgets the group while the unreaped leader still holds its id.
    const bool stop_leftovers = spec.end_group && !timed_out;
    if (guarded && !stop_leftovers) release_group(pid);

    int status = 0;
    rusage ru{};
    pid_t reaped;
    do reaped = ::wait4(pid, &status, 0, &ru);
    while (reaped < 0 && errno == EINTR);
    const int64_t t1 = now_ns();
    if (reaped != pid) {
        if (guarded) release_group(pid);
        throw std::runtime_error("cannot collect the exit status of " + spec.argv[0] + ": " +
                                 errno_text(errno) + " (is SIGCHLD ignored?)");
    }

    // Background processes the command left (`sleep 77 &`) would run into
    // the next run; they go now, outside the measured time.
    // Guarded until they are stopped: gfxstat killed meanwhile leaves the
    // guard to do it.
    if (stop_leftovers) {
        res.leftovers = end_group(pid, grace_ns);
        release_group(pid);
    }

    res.wall_s = double(t1 - t0) * 1e-9;
    res.user_s = tv_seconds(ru.ru_utime);
    res.sys_s = tv_seconds(ru.ru_stime);
    res.max_rss_kib = ru.ru_maxrss;
    if (timed_out) {
        res.ended = ProcessResult::Ended::timed_out;
        if (WIFSIGNALED(status)) {
            res.signal = WTERMSIG(status);
        } else {
            res.signal = sent;
            res.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
        }
    } else if (WIFEXITED(status)) {
        res.ended = ProcessResult::Ended::exited;
        res.exit_code = WEXITSTATUS(status);
    } else {
        res.ended = ProcessResult::Ended::signaled;
        res.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    }
    return res;
}

}  // namespace gfxstat::drivers
