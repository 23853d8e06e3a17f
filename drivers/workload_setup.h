// SPDX-License-Identifier: MIT
// What `gfxstat run` and `gfxstat campaign` run, from what the user said:
// a command with a parser, or one of gfxstat's built-in workloads (run as
// the child `gfxstat workload NAME ...`). Both commands build their runs
// here, so a campaign's workload means exactly what it means to `run`.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "data/results_model.h"
#include "drivers/run_parsers.h"

namespace gfxstat::cli {

// The built-in workloads, with one line each for --help (cli/help_lists.h).
struct BuiltinWorkload {
    const char* name;
    const char* summary;
};
const std::vector<BuiltinWorkload>& builtin_workloads();
// Their names: wakeup-latency, drm-ioctl, drm-gem, i915-exec-nop.
extern const std::vector<std::string> kWorkloads;

struct WorkloadOptions {
    std::vector<std::string> command;  // a command (argv) ...
    std::string builtin;               // ... or a built-in workload
    // Built-in workloads' own settings; 0 / "" : the workload's default.
    std::string device, load;          // load: "cpu:N"
    double duration = 1;
    uint64_t iterations = 0, size = 0;
    unsigned burst = 0;
    // A command's parser: by name, or NAME=REGEX metrics; the unit and
    // direction apply to the lines parser's and the regex metrics.
    std::string parser_name, metric_name, unit;
    std::vector<std::string> regexes;
    data::Direction direction = data::Direction::unknown;
};

struct Workload {
    std::vector<std::string> command;
    std::unique_ptr<drivers::OutputParser> parser;
    std::string default_label;                 // the command's name, or the workload's
    std::map<std::string, std::string> tags;   // workload, load, size, device...
    // What the user asked to run, for each run's environment: the command
    // as given (not this gfxstat's path for a built-in), the parser and
    // its settings. RunPlan::workload.
    data::WorkloadRecord record;
};

// Throws std::invalid_argument (the message names the option) for a
// setting that cannot work: a bad load, a --device that is not a DRM node,
// a unit for a parser that knows its own.
Workload make_workload(const WorkloadOptions& o);

// A --tag key=value into `tags` (the last of a key wins); false when it is
// not key=value with a non-empty key.
bool parse_tag(const std::string& s, std::map<std::string, std::string>& tags);

// This gfxstat binary's path, to run `gfxstat workload` as a child.
std::string self_executable();

}  // namespace gfxstat::cli
