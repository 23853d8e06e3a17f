// SPDX-License-Identifier: MIT
// The exit status of a run loop's outcome, shared by run and ab (see the
// header).
#include "cli/run_outcome_status.h"
#include "cli/command_line.h"
#include "cli/exit_statuses.h"
#include "text/text_escape.h"
#include <cstdio>

namespace gfxstat::cli {

int run_outcome_status(const char* prog, drivers::RunOutcome outcome, const std::string& message,
                       int stop_signal) {
    int status = 1;
    switch (outcome) {
        case drivers::RunOutcome::completed: return 0;
        case drivers::RunOutcome::skipped: status = 77; break;
        case drivers::RunOutcome::invalid: status = 2; break;
        case drivers::RunOutcome::aborted:
        case drivers::RunOutcome::failing: status = kExitRunsFailed; break;
        case drivers::RunOutcome::interrupted: status = stopped_status(stop_signal); break;
        case drivers::RunOutcome::error: status = 1; break;
    }
    std::fprintf(stderr, "%s: %s\n", prog, text::escape_message(message).c_str());
    return status;
}

}  // namespace gfxstat::cli
