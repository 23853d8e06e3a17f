// SPDX-License-Identifier: MIT
// The parsers `gfxstat run` reads a run's output with: every format of
// formats/registry.h that parses output (IGT, EzBench, glmark2, trace
// replays, `lines`, `time`, ...), gfxstat's own workloads'
// (drivers/builtin_parsers.h), and the user's regexes (`--metric`).
// docs/run.md lists each parser's metrics, units, directions and primary
// metrics.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "formats/output_parser.h"

namespace gfxstat::drivers {

using formats::OutputParser;
using formats::ParsedMetric;
using formats::ParseResult;
using formats::RunOutput;
using formats::RunUsage;
using formats::igt_skip_reason;
using formats::valid_metric_name;

// A parser by name; `metric_name` renames the single metric of `lines`
// (default "value"). Throws std::invalid_argument naming the known parsers
// for an unknown name, for an invalid metric name, and for a metric_name
// given to another parser.
std::unique_ptr<OutputParser> make_parser(const std::string& name, const std::string& metric_name = "");

// The names make_parser knows, for help and error messages.
std::vector<std::string> parser_names();

// `--metric NAME=REGEX`, repeatable: each regex must have exactly one
// capture group, matched against every line of stdout; every match (left
// to right, not overlapping) is a value. A spec without `NAME=` is a regex
// with the groups `name` and `value` ((?<name>...) or (?P<name>...)):
// each match is a value of the metric its `name` group captured, which
// must be a valid metric name (else the run fails naming the line). Units and direction unknown unless
// given with `--unit`/`--lower-is-better` etc. by the caller. Throws
// std::invalid_argument for a bad spec or regex, saying why. A run where
// no regex matches is an error; one where only some match gives those.
// The syntax is RE2's (drivers/regex_parser.cpp), matched bytewise in time
// linear in the line, lines of any length; backreferences and lookaround,
// which no linear matcher has, are refused by name.
std::unique_ptr<OutputParser> make_regex_parser(const std::vector<std::string>& specs);

}  // namespace gfxstat::drivers
