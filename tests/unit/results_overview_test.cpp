// SPDX-License-Identifier: MIT
// data/results_overview.h: what `gfxstat show` counts per variant in its
// one pass over the runs. The throttled runs it counts are those
// data::count_throttled finds for the variant (show asked count_throttled
// once per variant, a pass over every run each time, before).
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

TEST(ResultsOverview, ThrottledRunsPerVariantAreCountThrottledsAnswer) {
    ResultsFile f;
    // Throttled runs that are measured, warm-ups, failed; unthrottled ones;
    // runs the sampler never saw; variants interleaved in run order.
    const std::vector<RunRecord> runs = {
        run("a", 0, ExitClass::ok, false, 0.5),   run("b", 0, ExitClass::ok, false, 0.0),
        run("a", 1, ExitClass::ok, true, 1.0),    run("a", 2, ExitClass::fail, false, 1.0),
        run("b", 1, ExitClass::ok, false, 0.25),  run("c", 0, ExitClass::ok, false, std::nullopt),
        run("a", 3, ExitClass::ok, false, 0.1),   run("b", 2, ExitClass::timeout, false, 0.3),
        run("c", 1, ExitClass::ok, true, 0.9),    run("a", 4, ExitClass::ok, false, std::nullopt),
    };
    for (const RunRecord& r : runs) ASSERT_EQ(f.add_run(r), "");
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

}  // namespace
}  // namespace gfxstat::data
