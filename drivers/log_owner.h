// SPDX-License-Identifier: MIT
// Which results file a log directory's log names belong to.
//
// A run's logs are named after the first 16 hex digits of its results
// file's id (drivers/run_output). A copy of a results file (`cp a.json
// b.json`) has the same id, so the two, writing to one log directory
// (a shared --log-dir), would take each other's names: b.json's next run
// gets the index a.json's next run gets, and the run loop replaces a log
// of its own that no recorded run names (the leftover of a run killed
// before its append) -- there, a.json's log. So the directory records, per
// id, which results file writes its logs there (the file ID16.results,
// holding the results file's absolute path), and a second file with that
// id is refused before it runs anything.
#pragma once

#include <string>

namespace gfxstat::drivers {

// Claims the log names of the results file `results_path` (locked by the
// caller, holding the id `id`) in the log directory `log_dir` (open as
// `log_dir_fd`, already checked private). Ours already, or no claim
// yet: recorded (a directory from before gfxstat recorded claims is
// claimed by the first file that writes to it). Claimed by a results file
// that is gone, or no longer has this id (moved, rewritten): taken over.
// Claimed by another results file that still has this id: throws
// InputError naming both files and how to go on.
void claim_log_names(int log_dir_fd, const std::string& log_dir, const std::string& results_path,
                     const std::string& id);

}  // namespace gfxstat::drivers
