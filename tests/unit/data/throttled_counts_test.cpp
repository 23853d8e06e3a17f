// SPDX-License-Identifier: MIT
// Throttled runs counted for every variant in one pass, by `gfxstat show`'s
// overview (data/results_overview.h) and for compare's sides
// (data::count_throttled_by_variant), agree with data::count_throttled
// asked variant by variant, a pass over every run each time, as both did
// before.
#include "data/results_overview.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data/throttled_runs.h"

namespace gfxstat::data {
namespace {

RunRecord run(const std::string& variant, uint64_t index, ExitClass exit, bool warmup, std::optional<double> share) {
    RunRecord r;
    r.variant = variant;
    r.run = index;
    r.exit_class = exit;
    r.warmup = warmup;
    if (share) {
        ThrottleRecord t;
        t.samples = 10;
        t.throttled_share = share;
        r.throttle = t;
    }
    return r;
}

// Throttled runs that are measured, warm-ups, failed; unthrottled ones;
// runs the sampler never saw; variants interleaved in run order.
ResultsFile mixed_file() {
    ResultsFile f;
    const std::vector<RunRecord> runs = {
        run("a", 0, ExitClass::ok, false, 0.5),   run("b", 0, ExitClass::ok, false, 0.0),
        run("a", 1, ExitClass::ok, true, 1.0),    run("a", 2, ExitClass::fail, false, 1.0),
        run("b", 1, ExitClass::ok, false, 0.25),  run("c", 0, ExitClass::ok, false, std::nullopt),
        run("a", 3, ExitClass::ok, false, 0.1),   run("b", 2, ExitClass::timeout, false, 0.3),
        run("c", 1, ExitClass::ok, true, 0.9),    run("a", 4, ExitClass::ok, false, std::nullopt),
    };
    for (const RunRecord& r : runs) EXPECT_EQ(f.add_run(r), "");
    return f;
}

TEST(ThrottledCounts, TheOverviewsAreCountThrottledsAnswer) {
    const ResultsFile f = mixed_file();
    const ResultsOverview o = overview(f);
    ASSERT_EQ(o.variants.size(), 3u);
    size_t throttled = 0;
    for (const VariantOverview& v : o.variants) {
        const ThrottledCount c = count_throttled(f, v.variant);
        EXPECT_EQ(v.throttled, c.throttled) << v.variant;
        EXPECT_EQ(v.by_class[static_cast<size_t>(ExitClass::ok)], c.measured) << v.variant;
        throttled += v.throttled;
    }
    EXPECT_EQ(o.variants[0].throttled, 2u);  // a: runs 0 and 3
    EXPECT_EQ(o.variants[1].throttled, 1u);  // b: run 1
    EXPECT_EQ(o.variants[2].throttled, 0u);  // c: its throttled run is a warm-up
    EXPECT_EQ(throttled, count_throttled(f).throttled);
}

TEST(ThrottledCounts, ByVariantIsCountThrottledsAnswer) {
    const ResultsFile f = mixed_file();
    const auto by_variant = count_throttled_by_variant(f);
    ASSERT_EQ(by_variant.size(), 3u);
    for (const std::string& v : f.variants()) {
        const ThrottledCount c = count_throttled(f, v);
        ASSERT_EQ(by_variant.count(v), 1u) << v;
        EXPECT_EQ(by_variant.at(v).throttled, c.throttled) << v;
        EXPECT_EQ(by_variant.at(v).measured, c.measured) << v;
    }
    EXPECT_EQ(by_variant.at("a").measured, 3u);
    EXPECT_EQ(by_variant.at("b").throttled, 1u);
}

}  // namespace
}  // namespace gfxstat::data
