// SPDX-License-Identifier: MIT
// The options gfxstat run, ab and bisect step share, declared once: how a
// command's output is read (--parser, --metric, --metric-name, --unit and
// the direction), the runs' --timeout and --cooldown, and for run and ab
// what happens on the machine before the first run (--tune, --no-check). Each command registers the groups
// where its --help lists them.
#pragma once

#include <string>
#include <vector>

#include "drivers/workload_setup.h"
#include "data/results_model.h"

namespace CLI {
class App;
}

namespace gfxstat::cli {

struct RunOptions {
    std::string parser_name, metric_name, unit;
    std::vector<std::string> regexes;  // --metric NAME=REGEX
    bool lower = false, higher = false;
    bool tune = false, no_check = false;

    // --lower-is-better / --higher-is-better, else unknown.
    data::Direction direction() const;
    // Whether any of the parser options was given.
    bool parser_given() const;
    // The parser options into what make_workload reads.
    void apply_parser(WorkloadOptions& wo) const;
};

// --parser, --metric, --metric-name, --unit, --lower-is-better and
// --higher-is-better. `from_references`: bisect step, whose defaults are
// the parser the good runs recorded, says so in --help.
void add_parser_options(CLI::App& app, RunOptions& o, bool from_references = false);

// --timeout (seconds per run) and --cooldown (seconds between runs), apart:
// run lists its --prepare and --cleanup between them.
void add_timeout_option(CLI::App& app, double& seconds);
void add_cooldown_option(CLI::App& app, double& seconds);

// --tune and --no-check (drivers/run_startup.h).
void add_startup_options(CLI::App& app, RunOptions& o);

}  // namespace gfxstat::cli
