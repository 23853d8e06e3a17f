// SPDX-License-Identifier: MIT
// Facts of the moment (data/volatile_facts.h): which fields they are, the
// ranges the runs met (findings/volatile_context.h), the rule that makes
// a systematic difference between variants a finding, and their words
// (report/volatile_words.h).
#include "findings/volatile_context.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "data/number_token.h"
#include "data/results_overview.h"
#include "data/volatile_facts.h"
#include "findings/show_overview.h"
#include "report/volatile_words.h"

namespace gfxstat::findings {
namespace {

// One run: its variant and what its environment read.
struct RunAt {
    std::string variant;
    std::map<std::string, std::string> fields;
};

data::ResultsFile results(const std::vector<RunAt>& runs) {
    data::ResultsFile f;
    f.header.id = "00112233445566778899aabbccddeeff";
    EXPECT_EQ(f.declare_metric(data::MetricInfo("fps", "fps", data::Direction::higher_is_better)), "");
    std::map<std::string, uint64_t> next;
    for (const RunAt& x : runs) {
        data::Environment env;
        env.fields = x.fields;
        EXPECT_EQ(f.add_environment(env), "");
        data::RunRecord r;
        r.variant = x.variant;
        r.run = next[x.variant]++;
        r.environment = env.id;
        r.metrics.push_back(data::MetricValues{"fps", {data::parse_number_token("60")}, false});
        EXPECT_EQ(f.add_run(r), "");
    }
    return f;
}

std::string load(double one_minute) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f 1.00 1.00", one_minute);
    return buf;
}

VolatileContext context_of(const data::ResultsFile& f) { return volatile_context(volatile_readings(f)); }

TEST(VolatileFacts, TheFieldsOfTheMomentAndNotTheConfiguration) {
    for (const char* f : {"load_average", "temp_coretemp", "temp_amdgpu", "gpu_act_freq_mhz", "gpu_cur_freq_mhz",
                          "gpu1_act_freq_mhz", "gpu_sclk_mhz", "gpu2_sclk_mhz", "gpu_throttle", "gpu1_throttle"})
        EXPECT_TRUE(data::is_volatile_field(f)) << f;
    for (const char* f : {"kernel_release", "kernel_cmdline", "cpu_governor", "cpu_turbo", "cpu_count",
                          "gpu_min_freq_mhz", "gpu_max_freq_mhz", "gpu_boost_freq_mhz", "gpu_performance_level",
                          "gpu_driver", "gpu_pci_id", "temp_", "gpux_act_freq_mhz", "hostname", "load"})
        EXPECT_FALSE(data::is_volatile_field(f)) << f;
    EXPECT_EQ(data::volatile_reading("load_average", "1.50 0.75 0.25"), 1.5);
    EXPECT_EQ(data::volatile_reading("temp_coretemp", "47.7"), 47.7);
    EXPECT_EQ(data::volatile_reading("gpu_throttle", "none"), 0.0);
    EXPECT_EQ(data::volatile_reading("gpu_throttle", "pl1,thermal"), 1.0);
    EXPECT_EQ(data::volatile_reading("gpu_act_freq_mhz", "n/a"), std::nullopt);
    EXPECT_EQ(data::volatile_reading("kernel_release", "6.9"), std::nullopt);
}

TEST(VolatileContext, SeparationChanceIsTwoOverTheBinomial) {
    EXPECT_EQ(separation_chance(1, 1), 1.0);
    EXPECT_EQ(separation_chance(0, 5), 1.0);
    EXPECT_NEAR(separation_chance(3, 3), 2.0 / 20, 1e-15);
    EXPECT_NEAR(separation_chance(5, 5), 2.0 / 252, 1e-15);
    EXPECT_NEAR(separation_chance(4, 7), 2.0 / 330, 1e-15);
    EXPECT_NEAR(separation_chance(7, 4), 2.0 / 330, 1e-15);
    EXPECT_NEAR(separation_chance(3, 12), 2.0 / 455, 1e-15);
    // The least runs the rule needs, as the header says.
    EXPECT_GT(separation_chance(4, 4), kVolatileShiftLevel);  // 2/70
    EXPECT_GT(separation_chance(4, 5), kVolatileShiftLevel);  // 2/126
    EXPECT_LT(separation_chance(4, 6), kVolatileShiftLevel);  // 2/210
    EXPECT_GT(separation_chance(3, 8), kVolatileShiftLevel);  // 2/165
    EXPECT_LT(separation_chance(3, 9), kVolatileShiftLevel);  // 2/220
    EXPECT_GT(separation_chance(2, 18), kVolatileShiftLevel);  // 2/190
    EXPECT_LT(separation_chance(2, 19), kVolatileShiftLevel);  // 2/210
    EXPECT_GT(separation_chance(1, 198), kVolatileShiftLevel);  // 2/199
    EXPECT_GE(separation_chance(1000, 1000), 0.0);
}

// Both variants interleaved while the machine's load climbs and falls:
// each met the same conditions, so the load is context, not a finding.
TEST(VolatileContext, InterleavedVariantsUnderTheSameVaryingLoadGiveNoFinding) {
    std::vector<RunAt> runs;
    for (int i = 0; i < 24; ++i) {
        const double l = 0.77 + 0.89 * (0.5 + 0.5 * std::sin(i * 0.6));
        runs.push_back({i % 2 ? "candidate" : "baseline",
                        {{"load_average", load(l)}, {"temp_coretemp", std::to_string(50 + i % 7)}}});
    }
    const data::ResultsFile f = results(runs);
    const VolatileContext c = context_of(f);
    EXPECT_TRUE(c.shifts.empty());
    ASSERT_EQ(c.facts.size(), 2u);
    EXPECT_EQ(c.facts[0].field, "load_average");
    EXPECT_EQ(c.facts[0].all.runs, 24u);
    ASSERT_EQ(c.facts[0].variants.size(), 2u);
    EXPECT_EQ(c.facts[0].variants[0].first, "baseline");
    EXPECT_EQ(c.facts[0].variants[0].second.runs, 12u);
    EXPECT_EQ(report::volatile_context_line(c.facts[1]), "coretemp temperature (°C) 50.0 to 56.0 over 24 runs");
    // show: neither a difference nor a change within a variant.
    const ShowOverview s = show_overview(f, "f.json", false);
    EXPECT_TRUE(s.overview.environment.empty());
    EXPECT_TRUE(s.context.shifts.empty());
    EXPECT_EQ(s.context.facts.size(), 2u);
}

// The candidate ran entirely while something else loaded the machine.
TEST(VolatileContext, ACandidateRunUnderHigherLoadIsAFinding) {
    std::vector<RunAt> runs;
    for (int i = 0; i < 10; ++i) runs.push_back({"baseline", {{"load_average", load(0.2 + 0.02 * i)}}});
    for (int i = 0; i < 10; ++i) runs.push_back({"candidate", {{"load_average", load(1.5 + 0.02 * i)}}});
    const VolatileContext c = context_of(results(runs));
    ASSERT_EQ(c.shifts.size(), 1u);
    const VolatileShift& s = c.shifts[0];
    EXPECT_EQ(s.field, "load_average");
    EXPECT_EQ(s.variant, "candidate");
    EXPECT_EQ(s.reference, "baseline");
    EXPECT_TRUE(s.higher);
    EXPECT_NEAR(s.chance, 2.0 / 184756, 1e-12);
    EXPECT_EQ(report::volatile_shift_line(s),
              "candidate ran under higher load: load average (1 min) 1.50 to 1.68 against 0.20 to 0.38 for baseline");
    EXPECT_EQ(report::volatile_context_line(c.facts[0]), "load average (1 min) 0.20 to 1.68 over 20 runs");
}

TEST(VolatileContext, ASystematicDifferenceNeedsRunsAndASizeThatMatters) {
    // Apart, but 4 runs a side: 2/70 of exchangeable readings fall so.
    std::vector<RunAt> few;
    for (int i = 0; i < 4; ++i) few.push_back({"a", {{"load_average", load(0.2)}}});
    for (int i = 0; i < 4; ++i) few.push_back({"b", {{"load_average", load(1.8)}}});
    EXPECT_TRUE(context_of(results(few)).shifts.empty());
    few.push_back({"a", {{"load_average", load(0.3)}}});
    few.push_back({"b", {{"load_average", load(1.9)}}});
    EXPECT_EQ(context_of(results(few)).shifts.size(), 1u);  // 5 a side: 2/252
    // Apart, 10 a side, but 0.1 of load between the medians: no matter.
    std::vector<RunAt> small;
    for (int i = 0; i < 10; ++i) small.push_back({"a", {{"load_average", load(0.10 + 0.001 * i)}}});
    for (int i = 0; i < 10; ++i) small.push_back({"b", {{"load_average", load(0.20 + 0.001 * i)}}});
    EXPECT_TRUE(context_of(results(small)).shifts.empty());
    // One tie between the ranges: not apart.
    std::vector<RunAt> tie;
    for (int i = 0; i < 10; ++i) tie.push_back({"a", {{"load_average", load(0.2 + 0.1 * i)}}});
    for (int i = 0; i < 10; ++i) tie.push_back({"b", {{"load_average", load(1.1 + 0.1 * i)}}});
    EXPECT_TRUE(context_of(results(tie)).shifts.empty());
}

TEST(VolatileContext, HotterSlowerAndThrottledCandidates) {
    std::vector<RunAt> runs;
    for (int i = 0; i < 6; ++i)
        runs.push_back({"a", {{"temp_coretemp", std::to_string(50 + i)}, {"gpu_act_freq_mhz", "1100"},
                              {"gpu_throttle", "none"}}});
    for (int i = 0; i < 6; ++i)
        runs.push_back({"b", {{"temp_coretemp", std::to_string(70 + i)}, {"gpu_act_freq_mhz", std::to_string(700 + i)},
                              {"gpu_throttle", "thermal"}}});
    const VolatileContext c = context_of(results(runs));
    ASSERT_EQ(c.shifts.size(), 3u);
    std::vector<std::string> lines;
    for (const auto& s : c.shifts) lines.push_back(report::volatile_shift_line(s));
    EXPECT_EQ(lines, (std::vector<std::string>{
                         "b ran at lower GPU clocks: GPU actual clock (MHz) 700 to 705 against 1100 for a",
                         "b ran throttled more often: GPU throttling in 6 of 6 runs against 0 of 6 runs for a",
                         "b ran hotter: coretemp temperature (°C) 70.0 to 75.0 against 50.0 to 55.0 for a"}));
    EXPECT_EQ(report::volatile_context_line(c.facts[1]), "GPU throttling in 6 of 12 runs");
}

// What a results file's overview lists as differences: the configuration
// only, however much the facts of the moment moved.
TEST(VolatileContext, TheOverviewListsConfigurationNotFactsOfTheMoment) {
    std::vector<RunAt> runs;
    for (int i = 0; i < 3; ++i)
        runs.push_back({"a", {{"kernel_release", "6.9"}, {"load_average", load(0.1 * i)}, {"gpu_max_freq_mhz", "1100"}}});
    for (int i = 0; i < 3; ++i)
        runs.push_back({"b", {{"kernel_release", "6.10"}, {"load_average", load(1 + i)}, {"gpu_max_freq_mhz", "1100"}}});
    const data::ResultsOverview o = data::overview(results(runs));
    ASSERT_EQ(o.environment.size(), 1u);
    EXPECT_EQ(o.environment[0].field, "kernel_release");
    EXPECT_TRUE(o.environment[0].differs_between_variants);
}

TEST(VolatileWords, LabelsAndOneReading) {
    EXPECT_EQ(report::volatile_label("gpu1_sclk_mhz"), "GPU 1 shader clock (MHz)");
    EXPECT_EQ(report::volatile_label("gpu_cur_freq_mhz"), "GPU requested clock (MHz)");
    VolatileFact one;
    one.field = "load_average";
    one.all = {1, 1, 0.5, 0.5, 0.5};
    EXPECT_EQ(report::volatile_context_line(one), "load average (1 min) 0.50 in its 1 run");
    one.all.runs = 3;
    EXPECT_EQ(report::volatile_context_line(one), "load average (1 min) 0.50 in all 3 runs");
}

}  // namespace
}  // namespace gfxstat::findings
