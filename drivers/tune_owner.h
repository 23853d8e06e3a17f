// SPDX-License-Identifier: MIT
// Who tuned the machine, from its tune state: `gfxstat tune apply` (the
// user's, kept until `tune reset`), a `gfxstat run --tune` still running
// (it restores the machine when it ends, so another run must not measure
// on it), or a `run --tune` that ended without restoring (killed): a
// left-over state for `tune reset`. A pid alone could have been reused by
// another process since; the process's start time (field 22 of
// /proc/PID/stat, in clock ticks since boot) tells them apart. The pids
// are real processes, so the real /proc is read, whatever system_root().
#pragma once

#include <optional>
#include <string>

#include "drivers/tune_state.h"

namespace gfxstat::drivers {

enum class TuneOwner { apply, live_run, dead_run };

// The start time of process `pid` (field 22 of /proc/PID/stat), nothing
// when there is no such process. `proc` is the /proc to read (tests).
std::optional<unsigned long long> process_start_time(long pid, const std::string& proc = "/proc");

// Who owns `state` (of this boot): a "run --tune" whose pid is not
// running, or runs with another start time, is dead_run.
TuneOwner tune_owner(const TuneState& state, const std::string& proc = "/proc");

// "gfxstat tune apply", "gfxstat run --tune (pid 4242)": for messages.
std::string tune_owner_text(const TuneState& state);

}  // namespace gfxstat::drivers
