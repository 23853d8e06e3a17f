// SPDX-License-Identifier: MIT
// A program run as a filter: bytes in on its standard input, its standard
// output read back whole (rsvg-convert turning compare's SVG into a PNG).
// drivers/process_runner runs benchmarks with their output in files and
// /dev/null as input; a filter needs both ends in memory, so it is its own
// small spawn-and-wait. Run by argv, never through a shell.
#pragma once

#include <string>
#include <vector>

namespace gfxstat::drivers {

// Whether `program` is an executable file in a directory of $PATH.
bool program_in_path(const std::string& program);

struct FilterRun {
    // What failed before the program ran, with its errno in `error`: none
    // (it ran), holding the input (memfd), the pipe, or the spawn itself
    // (ENOENT: not in PATH).
    enum class Failed { none, input, pipe, spawn };
    Failed failed = Failed::none;
    int error = 0;
    int status = 0;      // waitpid's status, once it ran
    std::string output;  // what it wrote to its standard output
};

// Runs argv[0] (searched in PATH) with `input` on its standard input (an
// unnamed memory file: no temporary file, no pipe to fill while the output
// pipe fills the other way) and its standard output read through a pipe
// until it ends; waits for it. Throws data::InputError only when `input`
// cannot be written (`shown` names it in the message).
FilterRun run_filter(const std::vector<std::string>& argv, const std::string& input, const std::string& shown);

}  // namespace gfxstat::drivers
