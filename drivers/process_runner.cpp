#include "drivers/process_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdint>
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
    int fd = open_high(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
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

struct SpawnFileActions {
    posix_spawn_file_actions_t fa;
    SpawnFileActions() {
        if (int e = posix_spawn_file_actions_init(&fa))
            throw std::runtime_error("posix_spawn_file_actions_init: " + errno_text(e));
    }
    ~SpawnFileActions() { posix_spawn_file_actions_destroy(&fa); }
    SpawnFileActions(const SpawnFileActions&) = delete;
    SpawnFileActions& operator=(const SpawnFileActions&) = delete;
    void check(int e, const char* what) {
        if (e) throw std::runtime_error(std::string(what) + ": " + errno_text(e));
    }
};

struct SpawnAttr {
    posix_spawnattr_t attr;
    SpawnAttr() {
        if (int e = posix_spawnattr_init(&attr))
            throw std::runtime_error("posix_spawnattr_init: " + errno_text(e));
    }
    ~SpawnAttr() { posix_spawnattr_destroy(&attr); }
    SpawnAttr(const SpawnAttr&) = delete;
    SpawnAttr& operator=(const SpawnAttr&) = delete;
};

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
    Fd in(open_high("/dev/null", O_RDONLY));
    if (in.get() < 0) throw std::runtime_error("cannot open /dev/null: " + errno_text(errno));
    Fd out = open_output(spec.stdout_path);
    Fd err;
    bool shared = !spec.stdout_path.empty() && spec.stderr_path == spec.stdout_path;
    if (!shared) err = open_output(spec.stderr_path);
    int err_fd = shared ? out.get() : err.get();

    SpawnFileActions fa;
    fa.check(posix_spawn_file_actions_adddup2(&fa.fa, in.get(), 0), "posix_spawn_file_actions_adddup2");
    fa.check(posix_spawn_file_actions_adddup2(&fa.fa, out.get(), 1), "posix_spawn_file_actions_adddup2");
    fa.check(posix_spawn_file_actions_adddup2(&fa.fa, err_fd, 2), "posix_spawn_file_actions_adddup2");
    if (dir.get() >= 0)
        fa.check(posix_spawn_file_actions_addfchdir_np(&fa.fa, dir.get()), "posix_spawn_file_actions_addfchdir_np");
    // Last (the actions run in order): everything above 2 goes, also
    // descriptors opened without O_CLOEXEC by libraries or inherited by
    // gfxstat (close_range in glibc >= 2.34).
    fa.check(posix_spawn_file_actions_addclosefrom_np(&fa.fa, 3), "posix_spawn_file_actions_addclosefrom_np");

    SpawnAttr attr;
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    for (int s : {SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXFSZ}) sigaddset(&defaults, s);
    posix_spawnattr_setflags(&attr.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                             POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attr.attr, 0);
    posix_spawnattr_setsigmask(&attr.attr, &empty);
    posix_spawnattr_setsigdefault(&attr.attr, &defaults);

    std::vector<char*> argv;
    argv.reserve(spec.argv.size() + 1);
    for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp_storage;
    char** envp = environ;
    if (!spec.env.empty()) {
        envp_storage = build_environment(spec.env);
        envp = envp_storage.data();
    }

    // No allocation and nothing that throws from here until the child is
    // reaped: an exception must not leave it running.
    const int64_t timeout_ns = seconds_to_ns(spec.timeout_s);
    const int64_t grace_ns = seconds_to_ns(spec.kill_grace_s);

    // Signals stay blocked in this thread from the spawn until the child is
    // recorded, so that a handler on this thread that calls
    // stop_current_process sees it. The child gets an empty mask (attr).
    sigset_t all, old_mask;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old_mask);
    pid_t pid = -1;
    const int64_t t0 = now_ns();
    int spawn_error = posix_spawnp(&pid, argv[0], &fa.fa, &attr.attr, argv.data(), envp);
    int slot = spawn_error == 0 ? register_child(pid) : -1;
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);

    if (spawn_error != 0) {
        // glibc reports exec failures through the return value and has
        // already reaped the failed child.
        if (spawn_error == EAGAIN || spawn_error == ENOMEM)
            throw std::runtime_error("cannot start " + spec.argv[0] + ": " + errno_text(spawn_error));
        res.error = spec.argv[0] + ": " + errno_text(spawn_error);
        return res;
    }

    Fd pidfd;
    if (g_use_pidfd.load()) pidfd = Fd(int(::syscall(SYS_pidfd_open, pid, 0)));  // always O_CLOEXEC

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

    int status = 0;
    rusage ru{};
    pid_t reaped;
    do reaped = ::wait4(pid, &status, 0, &ru);
    while (reaped < 0 && errno == EINTR);
    const int64_t t1 = now_ns();
    if (reaped != pid) {
        throw std::runtime_error("cannot collect the exit status of " + spec.argv[0] + ": " +
                                 errno_text(errno) + " (is SIGCHLD ignored?)");
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
