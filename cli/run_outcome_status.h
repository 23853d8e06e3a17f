// SPDX-License-Identifier: MIT
// How a run loop that did not complete ends a command: run and ab print
// its message and map its outcome to the same exit statuses, once here.
#pragma once

#include "drivers/run_loop.h"
#include <string>

namespace gfxstat::cli {

// 0 for a completed loop (nothing printed); otherwise prints "PROG:
// MESSAGE" on stderr and returns the outcome's exit status: 77 skipped,
// 2 invalid, kExitRunsFailed aborted or failing (the runs failed: not a
// regression's 1), 1 error (runs were made and are kept), and for
// interrupted the status of `stop_signal` (stopped_status).
int run_outcome_status(const char* prog, drivers::RunOutcome outcome, const std::string& message,
                       int stop_signal);

}  // namespace gfxstat::cli
