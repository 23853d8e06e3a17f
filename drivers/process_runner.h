// SPDX-License-Identifier: MIT
// Runs one command the way a benchmark harness must: without a shell
// (vfork and exec, PATH searched as execvp does, and as execvp does, a
// text file without "#!" run by /bin/sh: drivers/shell_script_fallback.h),
// in its own process group, with stdout and stderr going to files, an
// optional timeout that stops the whole group (SIGTERM, then SIGKILL after
// a grace period), and the child's resource usage from wait4 (wall, user
// and system time, peak RSS), as hyperfine measures.
//
// What the child gets:
//   - stdin from /dev/null; stdout and stderr the given files (opened by
//     gfxstat, relative paths against gfxstat's own working directory, so
//     they do not depend on working_directory); the same path for both
//     shares one open file, like `>f 2>&1`.
//   - no other file descriptor: everything from 3 upwards is closed in the
//     child, whether or not it was opened with O_CLOEXEC.
//   - its own process group (pgid = its pid), an empty signal mask and the
//     default action for SIGINT, SIGQUIT, SIGTERM, SIGPIPE and SIGXFSZ even
//     if gfxstat ignores them (SIGHUP is left as inherited, for nohup).
//   - gfxstat's environment plus ProcessSpec::env.
//   - PR_SET_PDEATHSIG SIGKILL: it dies with the thread that started it,
//     also when gfxstat itself is SIGKILLed (not for a set-user-ID program:
//     the kernel clears the setting for those). Its own children do not
//     get it; ProcessSpec::end_group stops them when it ends, and the
//     guard process (drivers/group_guard) kills the group if gfxstat dies
//     while it runs.
//
// The child's process group is separate from gfxstat's, so a Ctrl-C on the
// terminal does NOT reach it. gfxstat's own SIGINT/SIGTERM handler must
// forward the signal with stop_current_process().
//
// Waiting costs no CPU: without a timeout, a blocking waitid; with one, a
// pidfd (pidfd_open, Linux >= 5.3) polled with the remaining timeout, or
// without pidfds, waitid(WNOHANG) with sleeps of 0.1 to 10 ms.
//
// gfxstat must not set SIGCHLD to SIG_IGN (the kernel would then reap the
// child and its status would be lost; run_process throws in that case).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gfxstat::drivers {

struct ProcessSpec {
    std::vector<std::string> argv;  // argv[0] is looked up in PATH (unless it has a '/')
    // "NAME=VALUE" entries set on top of this process's environment; an entry
    // replaces an inherited variable of the same name, and of several entries
    // with the same name the last wins. "NAME" without '=' removes NAME.
    std::vector<std::string> env;
    // Files that receive the output (created or truncated, mode 0644 before
    // the umask); empty: /dev/null.
    std::string stdout_path, stderr_path;
    // An open /dev/null (above 2) for the child's stdin, kept by a caller
    // that runs many commands (the run loop opens it once); -1: opened
    // for this call.
    int stdin_null_fd = -1;
    // Empty: this process's. A relative argv[0] that contains a '/' is
    // resolved against it.
    std::string working_directory;
    double timeout_s = 0;           // 0 (or negative): none
    double kill_grace_s = 2;        // after SIGTERM, before SIGKILL
    // When the command ends by itself, stop what it left running in its
    // process group (`sleep 77 &`): SIGTERM (and SIGCONT), then SIGKILL
    // after kill_grace_s; ProcessResult::leftovers says how many there
    // were. Costs one kill() when nothing is left. Such a group is also
    // killed by the guard process (drivers/group_guard) if gfxstat dies
    // while it runs. False: they are left alone (a hook that starts a load
    // generator on purpose, a reboot command that hands its work on), and
    // only the child itself dies with gfxstat.
    bool end_group = false;
    // Called in the calling thread with the child's pid once the program
    // runs (its exec succeeded), before run_process waits for it: what
    // watches the workload while it runs (the GPU time sampler) starts
    // here. Not called when the command does not start. The pid is also
    // the child's process group id; it stays the child's (not reaped, so
    // not reused) until run_process returns. The timeout counts from
    // before the spawn, so time spent here is the run's. Should not throw:
    // if it does, the child's group is killed (SIGKILL) and reaped, and the
    // exception is passed on.
    std::function<void(int pid)> on_started;
};

struct ProcessResult {
    enum class Ended { exited, signaled, timed_out, not_started };
    Ended ended = Ended::not_started;
    int exit_code = 0;   // when exited (or timed_out and it then exited by itself)
    // signaled: the signal that killed the child. timed_out: the signal that
    // killed it (SIGTERM or SIGKILL), or, when it exited by itself after the
    // SIGTERM, SIGTERM (and exit_code is its code).
    int signal = 0;
    double wall_s = 0;   // CLOCK_MONOTONIC from right before the spawn to right after reaping
    double user_s = 0, sys_s = 0;  // rusage of the child (and the children it waited for)
    long max_rss_kib = 0;          // ru_maxrss: the largest of the child and its waited-for children
    // not_started: why ("gem_exec_nop: No such file or directory",
    // "working directory /x: No such file or directory", "empty command").
    std::string error;
    // end_group: live processes still in the group when the command ended
    // (they were stopped).
    size_t leftovers = 0;
};

// Never throws for a command that cannot run (not found, not executable, a
// directory, a bad format, a missing working directory): returns
// not_started with the reason. Throws std::runtime_error only for failures
// of gfxstat's own environment (cannot create the output files, vfork
// failure: EAGAIN/ENOMEM, the child's status lost because SIGCHLD is
// ignored). Never leaves a zombie or a file descriptor behind. On a timeout,
// after the child has ended, the group is sent SIGKILL once more, so
// grandchildren that ignored SIGTERM do not linger. Background processes of
// a command that ends by itself (no timeout) are stopped with end_group,
// else left alone.
// Thread-safe: several threads may run processes at the same time.
ProcessResult run_process(const ProcessSpec& spec);

// Async-signal-safe: sends `signal` to the process group of every command
// that run_process is running at this moment (in any thread), and does
// nothing when none runs. Meant for gfxstat's SIGINT/SIGTERM handlers:
//     void on_sigint(int) { stop_requested = 1; stop_current_process(SIGINT); }
// The run then ends as `signaled` (or keeps running if the command ignores
// the signal; send SIGKILL then). Signals are blocked in the calling thread
// of run_process between the vfork and the recording of the child, so a
// handler running on that thread cannot miss a child that was spawned; a
// handler on another thread can, in that window of microseconds, so a caller
// that stops on a flag should also check the flag after each run. It never
// signals a process that run_process has already reaped (the record is
// cleared, and calls in progress are waited for, before reaping).
void stop_current_process(int signal) noexcept;

// For tests only: false makes run_process wait as if pidfd_open were
// unavailable (ENOSYS), to exercise the fallback. Default true.
void set_process_runner_pidfd_enabled(bool enabled) noexcept;

}  // namespace gfxstat::drivers
