// Turns a run's output into metrics. Each parser knows the names, units
// and directions of what it reads (docs/run.md lists them): `lines`,
// `igt-syslatency`, `igt-latency`, `igt-wsim`, `igt-exec-nop`,
// `igt-fence-upload`, `ezbench`, `wakeup-latency` (gfxstat's own CPU
// workload, drivers/wakeup_latency.h), `drm-ioctl`, `drm-gem`,
// `i915-exec-nop` (the native DRM workloads, drivers/drm_workloads.h), `time` (the run's own wall, user and
// system time and peak RSS), and user regexes (`--metric NAME=REGEX`).
// Numbers are kept as exact decimal tokens, as everywhere in gfxstat.
//
// Parsers read stdout only, line by line ('\n'; a trailing '\r' and ANSI
// colour sequences are removed first). They never throw for bad output and
// never crash on any bytes (NUL, invalid UTF-8, lines of megabytes); the
// built-in ones scan by hand in linear time (no std::regex). The IGT
// parsers ignore lines they do not know (IGT prints much else), but a line
// that starts like one of their formats and then does not fit it is an
// error naming the line: a measurement that cannot be read is not silently
// dropped. A metric printed several times in one run (five
// `gem_syslatency:` lines, an engine measured twice) gets all the values,
// in order.
//
// Metric names, units ("" when unknown) and directions (lower / higher /
// unknown); which of them are primary (what the workload is run for) is in
// docs/run.md's parser table, set on every MetricInfo and ParsedMetric.
//
//   lines            value (or --metric-name)       ""     unknown
//                    one number per line; blank lines and IGT's harness
//                    lines (IGT-Version:, Starting subtest:, Subtest ...:)
//                    are skipped, any other line is an error. For
//                    benchmarks/gem_exec_nop, gem_create, and
//                    gem_syslatency -f 0/1/2, gem_latency -f 1..4.
//   igt-syslatency   cycles                         ""     higher
//                    latency_mean, latency_max      us     lower
//   igt-latency      dispatch, latency,             us     lower
//                    producer_latency, cpu_time
//   igt-wsim         elapsed                        s      lower   (total line)
//                    workloads_per_s          workloads/s  higher  (total line)
//                    client_elapsed                 s      lower   (one value per
//                    client_workloads_per_s   workloads/s  higher   client line
//                    time_avg, time_min, time_max   us     lower    printed, in
//                    missed                         ""     lower    print order)
//   igt-exec-nop     <engine> (rcs0, render, ...)   us     lower
//                    signal_<engine>                us     lower
//                    all, all_expected              us     lower
//                    all_parallel_<B>               us     lower
//                    all_parallel_<B>_overlap       %      higher
//                    sequential, sequential_expected us    lower
//   igt-fence-upload linear_<N>, tiled_<N>          MiB/s  higher
//                    ..._threads_<T>, download_..., combined_...,
//                    contended_linear|tiled_threads_<T>,
//                    ..._bytes_<B>_size_<S> (seed thread's "B/S: " prefix)
//   ezbench          <subtest> ("value" for the     unit of the line; s, ms,
//                    empty name)                    us, ns lower; FPS, */s higher
//   wakeup-latency   latency_mean, latency_median,  us     lower
//                    latency_p99, latency_max
//                    wakeups                        ""     unknown
//   drm-ioctl        ioctl_median, ioctl_mean,      ns     lower
//                    ioctl_p99, ioctl_min (DRM_IOCTL_VERSION),
//                    get_cap_median, ..._mean, ..._p99, ..._min,
//                    loop_overhead
//                    iterations                     ""     unknown
//   drm-gem          allocs_per_s                   allocs/s higher
//                    upload                         MiB/s  higher
//                    create_median, create_p99,     us     lower
//                    map_median, write_median
//                    requested                      bytes  unknown
//                    allocated                      bytes  lower
//                    rounding                       %      lower
//                    loop_overhead                  ns     lower
//                    iterations                     ""     unknown
//   i915-exec-nop    <engine> (rcs0, bcs0, ...),    us     lower
//                    <engine>_submit, all_expected,
//                    slowest, all_parallel_<B>
//                    all_parallel_<B>_overlap       %      higher
//                    <engine>_batches, rounds       ""     unknown
//                    loop_overhead                  ns     lower
//   time             wall, user, sys                s      lower
//                    max_rss                        KiB    lower
//   --metric N=RE    N                              ""     unknown
//
// See output_parsers.cpp (and builtin_parsers.cpp for gfxstat's own
// workloads and `time`) for the exact line formats.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/number_token.h"
#include "data/results_model.h"
#include "drivers/process_runner.h"

namespace gfxstat::drivers {

struct ParsedMetric {
    std::string name;
    std::vector<data::NumberToken> values;  // one or more per run
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
    // value is a sample (data::MetricInfo::per).
    std::string per;
};

struct RunOutput {
    std::string_view out, err;   // the run's stdout and stderr
    const ProcessResult* process = nullptr;  // for `time`
    // What is left of the run's --timeout: a parser whose cost depends on
    // the user's input (regexes) stops there with `timed_out` set.
    std::optional<std::chrono::steady_clock::time_point> deadline;
};

struct ParseResult {
    std::vector<ParsedMetric> metrics;  // empty with `error` set: a failed run
    std::string error;                  // why nothing could be parsed (one line)
    bool timed_out = false;             // stopped at `deadline`; `error` says where
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
};

// A built-in parser by name; `metric_name` renames the single metric of
// `lines` (default "value"). Throws std::invalid_argument naming the known
// parsers for an unknown name, for an invalid metric name, and for a
// metric_name given to another parser.
std::unique_ptr<OutputParser> make_parser(const std::string& name, const std::string& metric_name = "");

// `--metric NAME=REGEX`, repeatable: each regex must have exactly one
// capture group, matched against every line of stdout; every match (left
// to right, not overlapping) is a value. Units and direction unknown unless
// given with `--unit`/`--lower-is-better` etc. by the caller. Throws
// std::invalid_argument for a bad spec or regex, saying why. A run where
// no regex matches is an error; one where only some match gives those.
// The syntax is RE2's (drivers/regex_parser.cpp), matched bytewise in time
// linear in the line, lines of any length; backreferences and lookaround,
// which no linear matcher has, are refused by name.
std::unique_ptr<OutputParser> make_regex_parser(const std::vector<std::string>& specs);

// The names make_parser knows, for help and error messages.
std::vector<std::string> parser_names();

// A metric name as gfxstat accepts it from the user: one or more ASCII
// letters, digits, '_', '.', '-'.
bool valid_metric_name(std::string_view name);

// The reason an IGT program gave for skipping, from its stdout skip block
// ("Test requirement not met ...", "Test requirement: ...", the message,
// "Last errno: ...", "SKIP (...)"): the message line ("No known gpu found
// for chipset flags 0x1 (intel)"), else the "Test requirement:" line; empty
// when `out` holds no skip block. The IGT parsers add it to their error.
std::string igt_skip_reason(std::string_view out);

}  // namespace gfxstat::drivers
