// SPDX-License-Identifier: MIT
// What every parser of a run's output shares: the metrics one run yields,
// the output it reads, and the parser interface. One file per format in
// formats/ implements it (formats/format.h, formats/registry.h); drivers/
// adds gfxstat's own workloads (drivers/builtin_parsers.h) and the user's
// regexes (`--metric NAME=REGEX`).
//
// Parsers read stdout only, line by line ('\n'; a trailing '\r' and ANSI
// colour sequences are removed first: formats/line_reader.h). They never
// throw for bad output and never crash on any bytes (NUL, invalid UTF-8,
// lines of megabytes); the built-in ones scan by hand in linear time (no
// std::regex). A parser ignores lines it does not know (IGT and glmark2
// print much else), but a line that starts like its format and then does
// not fit it is an error naming the line: a measurement that cannot be
// read is not silently dropped. A metric printed several times in one run
// (five `gem_syslatency:` lines, an engine measured twice) gets all the
// values, in order. Numbers are kept as exact decimal tokens, as
// everywhere in gfxstat.
//
// Each format's file documents its line grammar; docs/run.md lists every
// parser's metric names, units, directions and primary metrics.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/number_token.h"
#include "data/packed_tokens.h"
#include "data/results_model.h"

namespace gfxstat::formats {

struct ParsedMetric {
    std::string name;
    std::vector<data::NumberToken> values;  // one or more per run
    // Instead of `values`, when the caller asked for it (RunOutput::
    // packed_values) and the parser packs (`lines`: millions of values).
    data::PackedTokens packed;
    // The metric's declaration, also for names that come from the output
    // (an engine, a surface count, an EzBench subtest) and so cannot be in
    // OutputParser::metrics(): declare it the first time a name is seen.
    std::string unit;
    data::Direction direction = data::Direction::unknown;
    // What the workload is run for (an engine's time, a subtest's result)
    // or a by-product (an "expected" figure, an overlap); see
    // data::MetricInfo::primary. Every parser of gfxstat sets it.
    std::optional<bool> primary;
    // "frame" when the values are one run's per-frame times, within-run
    // data that analyses never take for independent samples; "" when every
    // value is a sample (data::MetricInfo::per). The frame-time formats
    // set it (formats/frame_time_metrics.h).
    std::string per;
};

// What the run cost, as wait4 reported it: what `time` records.
struct RunUsage {
    bool started = true;   // false: the command never ran (`error` says why)
    std::string error;
    double wall_s = 0, user_s = 0, sys_s = 0;
    long max_rss_kib = 0;
};

struct RunOutput {
    std::string_view out, err;          // the run's stdout and stderr
    const RunUsage* usage = nullptr;    // for `time`; nullptr for saved outputs
    // What is left of the run's --timeout: a parser whose cost depends on
    // the user's input (regexes) stops there with `timed_out` set.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    // The caller takes values as ParsedMetric::packed where a parser
    // offers them so (`run`, which writes them and takes their median).
    bool packed_values = false;
};

struct ParseResult {
    std::vector<ParsedMetric> metrics;  // empty with `error` set: a failed run
    std::string error;                  // why nothing could be parsed (one line)
    bool timed_out = false;             // stopped at `deadline`; `error` says where
    // Facts the output states about the run rather than measures: the GL
    // renderer and version glmark2 prints, a program's own version. Kept
    // in the run's environment record, so that a reader can check which
    // build really ran. Keys are lower-case names ("gl_renderer").
    std::map<std::string, std::string> environment;
};

class OutputParser {
public:
    virtual ~OutputParser() = default;
    // The metrics this parser can produce under fixed names, declared in the
    // results file before the first run (name, unit, direction). A run may
    // leave some out (gem_wsim prints time_avg only for periodic
    // workloads). Empty for igt-exec-nop, igt-fence-upload and ezbench,
    // whose metric names come from the output: see ParsedMetric.
    virtual std::vector<data::MetricInfo> metrics() const = 0;
    // Never throws for bad output: `error` says what was expected instead.
    virtual ParseResult parse(const RunOutput& output) const = 0;
    // Why a run that exited non-zero failed, when its output says so in a
    // form this parser knows (apitrace's "error: cannot profile, ...",
    // gfxrecon-replay's FATAL line): one line, or "" to leave the reason to
    // the caller (the output's last line).
    virtual std::string failure_reason(const RunOutput&) const { return ""; }
};

// A metric name as gfxstat accepts it from the user: one or more ASCII
// letters, digits, '_', '.', '-'.
bool valid_metric_name(std::string_view name);

// The reason an IGT program gave for skipping, from its stdout skip block
// ("Test requirement not met ...", "Test requirement: ...", the message,
// "Last errno: ...", "SKIP (...)"): the message line ("No known gpu found
// for chipset flags 0x1 (intel)"), else the "Test requirement:" line; empty
// when `out` holds no skip block. The IGT parsers add it to their error.
std::string igt_skip_reason(std::string_view out);

}  // namespace gfxstat::formats
