// SPDX-License-Identifier: MIT
// Which metrics each parser declares primary (what the workload is run
// for) and which secondary (by-products): docs/run.md's parser table.
// Every metric of every parser says one or the other, up front or, for
// names that come from the output, on the parsed metric.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "drivers/run_parsers.h"

namespace gfxstat::drivers {
namespace {

using Names = std::set<std::string>;

// The declared metrics of `parser` that are primary, and that are not.
std::pair<Names, Names> declared(const std::string& parser) {
    Names yes, no;
    for (const data::MetricInfo& m : make_parser(parser)->metrics()) {
        EXPECT_TRUE(m.primary.has_value()) << parser << ": " << m.name;
        (m.primary.value_or(false) ? yes : no).insert(m.name);
    }
    return {yes, no};
}

// The same for what one run's output gives.
std::pair<Names, Names> parsed(const std::string& parser, const std::string& out) {
    RunOutput o;
    o.out = out;
    const ParseResult r = make_parser(parser)->parse(o);
    EXPECT_EQ(r.error, "") << parser;
    Names yes, no;
    for (const ParsedMetric& m : r.metrics) {
        EXPECT_TRUE(m.primary.has_value()) << parser << ": " << m.name;
        (m.primary.value_or(false) ? yes : no).insert(m.name);
    }
    return {yes, no};
}

TEST(ParserPrimary, FixedNames) {
    EXPECT_EQ(declared("time"), std::make_pair(Names{"wall"}, Names{"user", "sys", "max_rss"}));
    EXPECT_EQ(declared("igt-syslatency"), std::make_pair(Names{"latency_mean"}, Names{"cycles", "latency_max"}));
    EXPECT_EQ(declared("igt-latency"),
              std::make_pair(Names{"dispatch", "latency"}, Names{"producer_latency", "cpu_time"}));
    EXPECT_EQ(declared("igt-wsim").first, (Names{"elapsed", "workloads_per_s"}));
    EXPECT_EQ(declared("wakeup-latency"),
              std::make_pair(Names{"latency_mean"}, Names{"latency_median", "latency_p99", "latency_max", "wakeups"}));
    EXPECT_EQ(declared("drm-ioctl").first, Names{"ioctl_median"});
    EXPECT_EQ(declared("drm-gem").first, (Names{"allocs_per_s", "upload", "rounding"}));
    // The one number a line gives is what the user asked for.
    EXPECT_EQ(declared("lines"), std::make_pair(Names{"value"}, Names{}));
    EXPECT_EQ(make_parser("lines", "fps")->metrics().at(0).primary, std::optional<bool>(true));
}

TEST(ParserPrimary, RegexMetricsAreTheUsersChoice) {
    const auto p = make_regex_parser({"fps=FPS: (\\S+)", "frames=(\\d+) frames"});
    for (const data::MetricInfo& m : p->metrics()) EXPECT_EQ(m.primary, std::optional<bool>(true)) << m.name;
    RunOutput o;
    o.out = "FPS: 60.5\n100 frames\n";
    const ParseResult r = p->parse(o);
    ASSERT_EQ(r.metrics.size(), 2u) << r.error;
    for (const ParsedMetric& m : r.metrics) EXPECT_EQ(m.primary, std::optional<bool>(true)) << m.name;
}

TEST(ParserPrimary, NamesFromTheOutput) {
    // gem_exec_nop: each engine's time and each subtest's headline; the
    // "expected" figures and the overlap are derived from them.
    EXPECT_EQ(parsed("igt-exec-nop",
                     "rcs0: 594,944 cycles: 3.366us\n"
                     "Signal rcs0: 1,000 cycles (1,000 signals): 2.500us\n"
                     "All (2 engines): 100 cycles, average 1.5us per cycle [expected 2.0us]\n"
                     "All 4 engines (parallel/64): 5,324,800 cycles, average 1.878us/batch, overlap 90.1%\n"
                     "Sequential (2 engines, 2 processes): average 4.0us per cycle [expected 3.0us]\n"),
              std::make_pair(Names{"rcs0", "signal_rcs0", "all", "all_parallel_64", "sequential"},
                             Names{"all_expected", "all_parallel_64_overlap", "sequential_expected"}));
    EXPECT_EQ(parsed("igt-fence-upload", "Upload rate for 1 linear surfaces:\t100.000MiB/s\n"),
              std::make_pair(Names{"linear_1"}, Names{}));
    EXPECT_EQ(parsed("ezbench", "SubTest: float(60.5) FPS\n: str(completed)\n"), std::make_pair(Names{"SubTest"}, Names{}));
    EXPECT_EQ(parsed("i915-exec-nop",
                     "engine_rcs0_us=2.5\nengine_rcs0_batches=100\nengine_rcs0_submit_us_median=1.0\n"
                     "all_expected_us=2.5\nslowest_us=2.5\nburst=8\nrounds=10\nall_parallel_us=2.0\n"
                     "all_parallel_overlap_pct=50\nloop_overhead_ns=20\n"),
              std::make_pair(Names{"rcs0", "all_round_8"},
                             Names{"rcs0_batches", "rcs0_submit", "all_serial", "slowest", "rounds",
                                   "all_round_8_overlap", "loop_overhead"}));
}

}  // namespace
}  // namespace gfxstat::drivers
