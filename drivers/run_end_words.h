// SPDX-License-Identifier: MIT
// How a run ended, in words: for the exit reasons of run records and the
// messages of run, ab and campaign.
#pragma once

#include <string>
#include <string_view>

#include "drivers/process_runner.h"

namespace gfxstat::drivers {

// "SIGSEGV", or "signal 42" for one without a name here.
std::string describe_signal(int sig);

// The last non-empty line of `text`, trimmed; "" when there is none.
std::string last_line(std::string_view text);

// One line for a record: control characters become spaces, at most 300 bytes.
std::string one_line(std::string s);

// How a process ended, for messages: "exit 3", "killed by SIGSEGV",
// "timed out", or why it did not start.
std::string describe_end(const ProcessResult& pr);

// The reason a skipped or failed run gives, from its output: IGT's
// "Test requirement" block ("No known gpu found for chipset flags 0x1
// (intel)"), else the last non-empty line of stderr, else of stdout.
std::string skip_reason(std::string_view out, std::string_view err);

}  // namespace gfxstat::drivers
