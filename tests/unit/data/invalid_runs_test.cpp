// SPDX-License-Identifier: MIT
// The exit class `invalid` in the results format: read, written back
// digit for digit, never a sample, counted and named where runs left out
// are counted.
#include <gtest/gtest.h>

#include <string>

#include "data/input_error.h"
#include "data/results_reader.h"
#include "data/results_select.h"
#include "data/results_writer.h"

using namespace gfxstat::data;

namespace {

const char* kFile =
    "{\"format\":\"gfxstat-results\",\"version\":1,\"id\":\"0123456789abcdef0123456789abcdef\"}\n"
    "{\"type\":\"metric\",\"name\":\"fps\",\"unit\":\"fps\",\"direction\":\"higher\"}\n"
    "{\"type\":\"run\",\"variant\":\"a\",\"run\":0,\"exit\":{\"class\":\"ok\",\"code\":0},\"metrics\":{\"fps\":100}}\n"
    "{\"type\":\"run\",\"variant\":\"a\",\"run\":1,\"exit\":{\"class\":\"invalid\",\"code\":0,\"reason\":\"kernel: "
    "i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in glmark2 [911]\"},\"metrics\":{\"fps\":3}}\n"
    "{\"type\":\"run\",\"variant\":\"a\",\"run\":2,\"exit\":{\"class\":\"ok\",\"code\":0},\"metrics\":{\"fps\":102}}\n"
    "{\"type\":\"run\",\"variant\":\"a\",\"run\":3,\"warmup\":true,\"exit\":{\"class\":\"invalid\",\"code\":0,"
    "\"reason\":\"kernel: BUG: soft lockup\"},\"metrics\":{\"fps\":1}}\n";

TEST(InvalidRuns, ReadAndWrittenBack) {
    const ResultsFile f = parse_results(kFile, "t.json");
    ASSERT_EQ(f.runs().size(), 4u);
    EXPECT_EQ(f.runs()[1].exit_class, ExitClass::invalid);
    EXPECT_EQ(f.runs()[1].exit_code, 0);
    EXPECT_STREQ(exit_class_name(ExitClass::invalid), "invalid");
    EXPECT_EQ(parse_exit_class("invalid"), ExitClass::invalid);
    const std::string back = serialize_results(f);
    EXPECT_NE(back.find("\"exit\":{\"class\":\"invalid\",\"code\":0,\"reason\":\"kernel: i915"), std::string::npos)
        << back;
    EXPECT_EQ(serialize_results(parse_results(back, "back.json")), back);
}

TEST(InvalidRuns, NeverASampleAndNamedWhenLeftOut) {
    const ResultsFile f = parse_results(kFile, "t.json");
    const MetricSelection sel = select_metric(f, "t.json", "fps", {});
    ASSERT_EQ(sel.variants.size(), 1u);
    const VariantSample& a = sel.variants[0];
    EXPECT_EQ(a.counts.runs_used, 2u);  // the invalid run's 3 fps is not among them
    EXPECT_EQ(a.counts.values, 2u);
    EXPECT_EQ(a.counts.excluded_by_class[static_cast<size_t>(ExitClass::invalid)], 1u);
    // Warm-ups are counted as warm-ups, whatever their class.
    ASSERT_EQ(a.counts.invalid_runs.size(), 1u);
    EXPECT_EQ(a.counts.invalid_runs[0].first, 1u);
    EXPECT_EQ(a.counts.invalid_runs[0].second,
              "kernel: i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in glmark2 [911]");
    EXPECT_EQ(describe_exclusions(a.counts), "1 invalid, 1 warm-up");
}

TEST(InvalidRuns, AnUnknownClassNamesTheKnownOnes) {
    const std::string bad = std::string(kFile).substr(0, std::string(kFile).find("{\"type\":\"run\"")) +
                            "{\"type\":\"run\",\"variant\":\"a\",\"run\":0,\"exit\":{\"class\":\"hung\"},\"metrics\":{}}\n";
    try {
        parse_results(bad, "t.json");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("ok, fail, skip, timeout, crash or invalid, not \"hung\""),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
