// SPDX-License-Identifier: MIT
// compare's image checks (findings/compare_images.h): the checking runs of
// the variants compared, applied to the timings' verdicts and to the gate.
#include "findings/compare_images.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <vector>

#include "data/image_check.h"
#include "findings/compare.h"
#include "findings/compare_gate.h"

namespace gfxstat::findings {
namespace {

data::Sample sample(std::vector<double> values) {
    data::Sample s;
    s.values = std::move(values);
    return s;
}

// main.txt against patched.txt, higher is better: patched is clearly faster.
cli::CompareReport faster_candidate() {
    CompareInputs in;
    in.inputs = {{"main.txt", "main.txt"}, {"patched.txt", "patched.txt"}};
    in.columns.push_back(sample({100, 101, 99, 100.5, 99.5, 100, 100.2, 99.8}));
    in.columns.push_back(sample({110, 111, 109, 110.5, 109.5, 110, 110.2, 109.8}));
    CompareOptions o;
    o.resamples = 0;
    o.higher = true;
    return compare(std::move(in), o, [](const char*, const std::string&) {}).report;
}

// A checking run of `variant` holding frames first..last, each one's
// checksum "aa..." unless listed in `other` (then "bb...").
data::ImageCheck check(const std::string& variant, uint64_t index, uint64_t first, uint64_t last,
                       std::vector<uint64_t> other = {}) {
    data::ImageCheck c;
    c.variant = variant;
    c.check = index;
    c.tool = "glretrace";
    c.method = "md5";
    for (uint64_t f = first; f <= last; ++f) {
        const bool b = std::find(other.begin(), other.end(), f) != other.end();
        c.frames[f] = std::string(32, b ? 'b' : 'a');
    }
    return c;
}

TEST(CompareImages, NoCheckingRunLeavesTheReportAsItWas) {
    cli::CompareReport r = faster_candidate();
    ASSERT_EQ(r.metrics[0].verdicts[0].outcome, analysis::Outcome::improvement);
    apply_image_checks(r, {{}, {}});
    EXPECT_FALSE(r.images.has_value());
    EXPECT_TRUE(r.metrics[0].image_overruled.empty());
    EXPECT_EQ(r.metrics[0].verdicts[0].outcome, analysis::Outcome::improvement);
    EXPECT_EQ(gate_status(r, true, true), 0);
}

TEST(CompareImages, EqualImagesLeaveTheVerdictToTheTiming) {
    cli::CompareReport r = faster_candidate();
    apply_image_checks(r, {{check("main", 0, 1, 10), check("main", 1, 1, 10)},
                           {check("patched", 0, 1, 10), check("patched", 1, 1, 10)}});
    ASSERT_TRUE(r.images.has_value());
    ASSERT_EQ(r.images->comparisons.size(), 1u);
    // File i holds the i-th variant compared, whatever its variant field says.
    EXPECT_EQ(r.images->comparisons[0].candidate, "patched.txt");
    EXPECT_EQ(r.images->comparisons[0].outcome, ImageOutcome::equal);
    EXPECT_EQ(r.images->comparisons[0].compared, 10u);
    EXPECT_EQ(r.metrics[0].verdicts[0].outcome, analysis::Outcome::improvement);
    EXPECT_FALSE(r.metrics[0].overruled(0));
    EXPECT_EQ(gate_status(r, true, false), 0);
}

TEST(CompareImages, AFasterCandidateThatRendersDifferentlyIsNoImprovement) {
    cli::CompareReport r = faster_candidate();
    const std::string timing_reason = r.metrics[0].verdicts[0].reason;
    apply_image_checks(r, {{check("main", 0, 1, 120), check("main", 1, 1, 120)},
                           {check("patched", 0, 1, 120, {42, 43, 50}), check("patched", 1, 1, 120, {42, 43, 50})}});
    ASSERT_TRUE(r.images.has_value());
    const ImageComparison* c = r.image_comparison("patched.txt");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->outcome, ImageOutcome::differ);
    EXPECT_EQ(c->differing, (FrameNumbers{42, 43, 50}));
    const analysis::Verdict& v = r.metrics[0].verdicts[0];
    EXPECT_EQ(v.outcome, analysis::Outcome::changed);
    EXPECT_TRUE(r.metrics[0].overruled(0));
    EXPECT_EQ(v.reason, "its frames differ from the baseline's: 3 of 120 (first: 42); by its timing alone an "
                        "improvement: " + timing_reason);
    // The change stays what the timing measured.
    EXPECT_GT(r.metrics[0].comparisons[0].relative_change, 0.09);
    // The gate fails it whatever its timing, unless the change is allowed.
    EXPECT_EQ(gate_status(r, false, false), 0);
    EXPECT_EQ(gate_status(r, true, false), 1);
    r.allow_image_change = true;
    EXPECT_EQ(gate_status(r, true, false), 0);
}

TEST(CompareImages, ARegressionThatRendersDifferentlyStaysARegression) {
    cli::CompareReport r = faster_candidate();
    r.metrics[0].verdicts[0].outcome = analysis::Outcome::regression;
    r.metrics[0].verdicts[0].beyond_threshold = true;
    apply_image_checks(r, {{check("main", 0, 1, 4), check("main", 1, 1, 4)},
                           {check("patched", 0, 1, 4, {2}), check("patched", 1, 1, 4, {2})}});
    EXPECT_EQ(r.metrics[0].verdicts[0].outcome, analysis::Outcome::regression);
    EXPECT_FALSE(r.metrics[0].overruled(0));
    r.allow_image_change = true;
    EXPECT_EQ(gate_status(r, true, false), 1);  // the timing's regression still fails
}

TEST(CompareImages, UnstableFramesNeverFail) {
    cli::CompareReport r = faster_candidate();
    // Frame 1 differs between the candidate's own runs: unstable, not compared.
    apply_image_checks(r, {{check("main", 0, 1, 5), check("main", 1, 1, 5)},
                           {check("patched", 0, 1, 5, {1}), check("patched", 1, 1, 5)}});
    const ImageComparison* c = r.image_comparison("patched.txt");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->outcome, ImageOutcome::equal);
    EXPECT_EQ(c->compared, 4u);
    EXPECT_EQ(r.images->candidates[0].unstable, (FrameNumbers{1}));
    EXPECT_EQ(r.metrics[0].verdicts[0].outcome, analysis::Outcome::improvement);
    EXPECT_EQ(gate_status(r, true, false), 0);
}

TEST(CompareImages, NondeterministicOrTooFewChecksAreNotJudgedAndNeverFail) {
    {
        cli::CompareReport r = faster_candidate();
        // Every frame of the candidate differs between its runs.
        apply_image_checks(r, {{check("main", 0, 1, 3), check("main", 1, 1, 3)},
                               {check("patched", 0, 1, 3, {1, 2, 3}), check("patched", 1, 1, 3)}});
        const ImageComparison* c = r.image_comparison("patched.txt");
        ASSERT_NE(c, nullptr);
        EXPECT_EQ(c->outcome, ImageOutcome::not_judged);
        EXPECT_EQ(c->why, NotJudged::nondeterministic);
        EXPECT_EQ(r.metrics[0].verdicts[0].outcome, analysis::Outcome::improvement);
        EXPECT_EQ(gate_status(r, true, true), 0);
    }
    {
        cli::CompareReport r = faster_candidate();
        apply_image_checks(r, {{check("main", 0, 1, 3)}, {check("patched", 0, 1, 3, {2}), check("patched", 1, 1, 3, {2})}});
        const ImageComparison* c = r.image_comparison("patched.txt");
        ASSERT_NE(c, nullptr);
        EXPECT_EQ(c->why, NotJudged::too_few_runs);
        EXPECT_EQ(c->who, "main.txt");
        EXPECT_EQ(r.metrics[0].verdicts[0].outcome, analysis::Outcome::improvement);
        EXPECT_EQ(gate_status(r, true, true), 0);
    }
}

// One results file compared within itself: the checks are grouped by the
// variant they name, and a variant that is not compared is left out.
TEST(CompareImages, OneFileGroupsTheChecksByVariant) {
    cli::CompareReport r = faster_candidate();
    r.metrics[0].baseline.label = "main";
    r.metrics[0].candidates[0].label = "patched";
    apply_image_checks(r, {{check("main", 0, 1, 3), check("other", 0, 1, 3, {1, 2, 3}), check("patched", 0, 1, 3, {3}),
                            check("main", 1, 1, 3), check("patched", 1, 1, 3, {3}), check("other", 1, 1, 3)}});
    const ImageComparison* c = r.image_comparison("patched");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(r.images->baseline.runs, 2u);
    EXPECT_EQ(c->outcome, ImageOutcome::differ);
    EXPECT_EQ(c->differing, (FrameNumbers{3}));
    EXPECT_EQ(r.image_comparison("other"), nullptr);
    EXPECT_EQ(r.metrics[0].verdicts[0].outcome, analysis::Outcome::changed);
}

}  // namespace
}  // namespace gfxstat::findings
