// SPDX-License-Identifier: MIT
// Kills the workloads' process groups when gfxstat dies, SIGKILL included.
//
// PR_SET_PDEATHSIG (set in each workload by drivers/process_runner) kills
// only the process gfxstat started: a shell script's own children
// (`sh -c 'sleep 100; ...'`) are not told, and would run on into the next
// measurement after a `kill -9` of gfxstat. No process can act after its
// own SIGKILL, so a small guard process does: forked once, in a process
// group of its own (a signal to gfxstat's group does not reach it), it
// ignores the signals a user or a terminal sends and holds one end of a
// socket whose other end only gfxstat holds (close-on-exec, and every
// workload's descriptors from 3 up are closed anyway). gfxstat tells it
// each process group it starts and each one it is done with; when gfxstat
// dies, however it dies, the kernel closes gfxstat's end, the guard reads
// end-of-file, sends SIGKILL to every group still registered, and exits.
// When gfxstat ends normally no group is registered and the guard exits at
// once.
//
// What it cannot reach: a process that left the group (setsid, a daemon
// that double-forks), as with the end-of-run stop (docs/run.md).
#pragma once

#include <sys/types.h>

namespace gfxstat::drivers {

// Starts the guard process the first time it is called (later calls cost
// nothing). Must be called outside any vfork and before the first
// guard_group. When the guard cannot be started (fork refused), nothing
// guards and gfxstat goes on: a run must not fail for it.
void start_group_guard() noexcept;

// Registers the process group `pgid` with the guard: killed if gfxstat dies
// before release_group(pgid). Async-signal-safe (one send(), never
// blocking); without a guard it does nothing.
void guard_group(pid_t pgid) noexcept;

// The group has ended, or is left to run on purpose: the guard forgets it.
// Called while the group id cannot be reused yet (its leader unreaped, or a
// member alive), so that the guard never signals another group that
// happens to get the same id.
void release_group(pid_t pgid) noexcept;

// The guard's pid, 0 when none runs (for tests).
pid_t group_guard_pid() noexcept;

}  // namespace gfxstat::drivers
