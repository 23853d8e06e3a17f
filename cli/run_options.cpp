// SPDX-License-Identifier: MIT
#include "cli/run_options.h"

#include <CLI/CLI.hpp>

#include "cli/command_line.h"

namespace gfxstat::cli {

data::Direction RunOptions::direction() const {
    return lower ? data::Direction::lower_is_better
                 : higher ? data::Direction::higher_is_better : data::Direction::unknown;
}

bool RunOptions::parser_given() const {
    return !parser_name.empty() || !regexes.empty() || !metric_name.empty() || !unit.empty() || lower || higher;
}

void RunOptions::apply_parser(WorkloadOptions& wo) const {
    wo.parser_name = parser_name;
    wo.metric_name = metric_name;
    wo.regexes = regexes;
    wo.unit = unit;
    wo.direction = direction();
}

void add_parser_options(CLI::App& app, RunOptions& o, bool from_references) {
    app.add_option("--parser", o.parser_name,
                   from_references ? "how to read the output (default: as the good runs were read)"
                                   : "how to read the output (default: lines; see docs/run.md)");
    app.add_option("--metric", o.regexes, "NAME=REGEX with one capture group, matched per line (repeatable)")
        ->allow_extra_args(false);
    app.add_option("--metric-name", o.metric_name,
                   from_references ? "the lines parser's metric name" : "the lines parser's metric name (default: value)");
    app.add_option("--unit", o.unit, "unit of the --metric or lines metrics");
    auto* lo = app.add_flag("--lower-is-better", o.lower, "direction of the --metric or lines metrics");
    app.add_flag("--higher-is-better", o.higher, "direction of the --metric or lines metrics")->excludes(lo);
}

void add_timeout_option(CLI::App& app, double& seconds) {
    app.add_option("--timeout", seconds, "seconds per run; then SIGTERM, SIGKILL to its process group")
        ->check(number_in(0.001, 1e7));
}

void add_cooldown_option(CLI::App& app, double& seconds) {
    app.add_option("--cooldown", seconds, "seconds to wait between runs")->check(number_in(0.0, 1e7));
}

void add_startup_options(CLI::App& app, RunOptions& o) {
    app.add_flag("--tune", o.tune, "gfxstat tune apply's settings for the runs, restored at the end (docs/tune.md)");
    app.add_flag("--no-check", o.no_check, "no warning about what could add noise (gfxstat tune show)");
}

}  // namespace gfxstat::cli
