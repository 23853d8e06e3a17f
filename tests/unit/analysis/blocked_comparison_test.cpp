// SPDX-License-Identifier: MIT
// Blocked designs in compare (analysis::analyse_blocks and the verdict):
// the paired t on block log ratios or differences, against the textbook
// formulas with tabled t quantiles, and the confidence sequence's calls
// turned into verdicts.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "analysis/comparison.h"
#include "analysis/confidence_sequence.h"
#include "analysis/verdict.h"
#include "tests/unit/test_support.h"

namespace gfxstat::analysis {
namespace {

// t quantiles at 0.975 (any table: R qt(0.975, df)).
constexpr double kT975_7 = 2.364624251592785;
constexpr double kT975_5 = 2.570581835636314;

TwoSampleComparison run_comparison(const std::vector<double>& a, const std::vector<double>& b) {
    data::Sample sa = test::sample_from_doubles(a), sb = test::sample_from_doubles(b);
    ComparisonOptions o;
    o.bootstrap_resamples = 0;
    o.diagnostics = false;
    return compare_samples(sa.mutable_view(), sb.mutable_view(), o);
}

struct MeanSd {
    double mean, sd;
};
MeanSd mean_sd(const std::vector<double>& d) {
    const double n = static_cast<double>(d.size());
    const double mean = std::accumulate(d.begin(), d.end(), 0.0) / n;
    double ss = 0;
    for (double x : d) ss += (x - mean) * (x - mean);
    return {mean, std::sqrt(ss / (n - 1))};
}

const std::vector<double> kBase = {60.1, 59.8, 60.5, 60.0, 59.7, 60.3, 60.2, 59.9};
const std::vector<double> kCand = {61.0, 60.4, 61.2, 60.9, 60.1, 61.1, 60.8, 60.7};

TEST(BlockedComparison, PairedTOnLogRatios) {
    TwoSampleComparison c = run_comparison(kBase, kCand);
    BlockDesign d;
    analyse_blocks(c, kBase, kCand, d);
    ASSERT_TRUE(c.blocks);
    EXPECT_EQ(c.primary.test, PrimaryTest::paired_blocks);
    EXPECT_TRUE(c.blocks->log_ratio);
    EXPECT_EQ(c.blocks->blocks, 8u);
    std::vector<double> lr;
    double log_base = 0;
    for (size_t i = 0; i < kBase.size(); ++i) lr.push_back(std::log(kCand[i] / kBase[i])), log_base += std::log(kBase[i]);
    const MeanSd ms = mean_sd(lr);
    const double se = ms.sd / std::sqrt(8.0);
    EXPECT_NEAR(c.blocks->paired.t, ms.mean / se, 1e-9 * std::fabs(ms.mean / se));
    EXPECT_DOUBLE_EQ(c.blocks->paired.df, 7);
    EXPECT_NEAR(c.relative_change, std::expm1(ms.mean), 1e-12);
    EXPECT_NEAR(c.relative_change_ci[0], std::expm1(ms.mean - kT975_7 * se), 1e-9);
    EXPECT_NEAR(c.relative_change_ci[1], std::expm1(ms.mean + kT975_7 * se), 1e-9);
    const double geo = std::exp(log_base / 8);
    EXPECT_NEAR(c.blocks->baseline_center, geo, 1e-9);
    EXPECT_NEAR(c.change, std::expm1(ms.mean) * geo, 1e-9);
    EXPECT_TRUE(c.change_ci_defined);
    EXPECT_DOUBLE_EQ(c.primary_p, c.blocks->paired.p);
    EXPECT_LT(c.primary_p, 1e-5);
    EXPECT_DOUBLE_EQ(c.n_per_side, 8);

    // The verdict: an improvement for a higher-is-better metric, counted in blocks.
    VerdictInputs vi = verdict_inputs(c, Better::higher, 0.95, 0.01, c.primary_p, "p");
    EXPECT_TRUE(vi.by_blocks);
    EXPECT_FALSE(vi.sequential_call);
    const Verdict v = decide(vi);
    EXPECT_EQ(v.outcome, Outcome::improvement);
    EXPECT_EQ(v.primary, PrimaryTest::paired_blocks);
    EXPECT_TRUE(v.beyond_threshold);
    EXPECT_EQ(decide(verdict_inputs(c, Better::lower, 0.95, 0.01, c.primary_p, "p")).outcome, Outcome::regression);
}

TEST(BlockedComparison, DifferencesWhenAValueIsNotPositive) {
    const std::vector<double> b = {-1.0, 0.5, 2.0, 1.0, 0.0, 1.5};
    const std::vector<double> c2 = {-0.5, 1.5, 2.4, 1.9, 0.2, 2.6};
    TwoSampleComparison c = run_comparison(b, c2);
    analyse_blocks(c, b, c2, BlockDesign{});
    EXPECT_FALSE(c.blocks->log_ratio);
    std::vector<double> d;
    for (size_t i = 0; i < b.size(); ++i) d.push_back(c2[i] - b[i]);
    const MeanSd ms = mean_sd(d);
    const double se = ms.sd / std::sqrt(6.0);
    EXPECT_NEAR(c.change, ms.mean, 1e-12);
    EXPECT_NEAR(c.change_ci[0], ms.mean - kT975_5 * se, 1e-9);
    EXPECT_NEAR(c.change_ci[1], ms.mean + kT975_5 * se, 1e-9);
    const double base_mean = std::accumulate(b.begin(), b.end(), 0.0) / 6;
    EXPECT_NEAR(c.relative_change, ms.mean / base_mean, 1e-12);
    // TOST within +-threshold of the baseline mean, on the same differences.
    EXPECT_NEAR(c.blocks->equivalence.margin, 0.01 * base_mean, 1e-12);
}

TEST(BlockedComparison, EquivalenceShownOnLogRatios) {
    // Tiny block differences around 0: equivalent within 1%.
    std::vector<double> b, c2;
    for (int i = 0; i < 20; ++i) {
        b.push_back(100 + (i % 5));
        c2.push_back(b.back() * (1 + ((i % 3) - 1) * 0.0005));
    }
    TwoSampleComparison c = run_comparison(b, c2);
    analyse_blocks(c, b, c2, BlockDesign{});
    EXPECT_NEAR(c.blocks->equivalence.margin, std::log1p(0.01), 1e-15);
    EXPECT_TRUE(c.primary_equivalence.equivalent);
    const Verdict v = decide(verdict_inputs(c, Better::higher, 0.95, 0.01, c.primary_p, "p"));
    EXPECT_EQ(v.outcome, Outcome::no_change);
}

// A group-sequential design (ab --stop group): compare applies the design's
// looks, so the verdict at a planned look is the group rule's, and between
// looks there is no interval.
TEST(BlockedComparison, GroupDesignDecidesAtItsLooksOnly) {
    std::vector<double> base, cand;
    for (int i = 0; i < 9; ++i) {
        base.push_back(100 + (i % 3));
        cand.push_back(base.back() * (1.2 + 0.01 * (i % 2)));
    }
    BlockDesign d;
    d.sequential = true;
    d.confidence = 0.95;
    d.looks = {4, 9, 14};
    TwoSampleComparison at = run_comparison(base, cand);
    analyse_blocks(at, base, cand, d);
    EXPECT_EQ(at.primary.test, PrimaryTest::group_sequential_blocks);
    ASSERT_TRUE(at.blocks->look);
    EXPECT_EQ(at.blocks->look->call, SequentialCall::changed);
    EXPECT_LE(at.primary_p, 0.05);
    const Verdict v = decide(verdict_inputs(at, Better::higher, 0.95, 0.01, at.primary_p, "p"));
    EXPECT_EQ(v.outcome, Outcome::improvement) << v.reason;
    EXPECT_NE(v.reason.find("repeated confidence interval"), std::string::npos) << v.reason;
    const std::vector<double> b8(base.begin(), base.begin() + 8), c8(cand.begin(), cand.begin() + 8);
    TwoSampleComparison between = run_comparison(b8, c8);
    analyse_blocks(between, b8, c8, d);
    EXPECT_EQ(between.blocks->look->call, SequentialCall::go_on);
    EXPECT_FALSE(between.change_ci_defined);
    EXPECT_EQ(between.blocks->look->next_look, 9u);
}

TEST(BlockedComparison, SequentialVerdictIsTheLooksCall) {
    TwoSampleComparison c = run_comparison(kBase, kCand);
    BlockDesign d;
    d.sequential = true;
    d.confidence = 0.95;
    analyse_blocks(c, kBase, kCand, d);
    SequentialOptions so;
    const SequentialLook look = sequential_look(kBase, kCand, so);
    EXPECT_EQ(c.primary.test, PrimaryTest::sequential_blocks);
    ASSERT_TRUE(c.blocks->look);
    EXPECT_EQ(c.blocks->look->call, look.call);
    EXPECT_DOUBLE_EQ(c.primary_p, look.p);
    EXPECT_DOUBLE_EQ(c.relative_change, look.relative_change);
    const Verdict v = decide(verdict_inputs(c, Better::higher, 0.95, 0.01, c.primary_p, "anytime-valid p"));
    const Outcome expected = look.call == SequentialCall::changed      ? Outcome::improvement
                             : look.call == SequentialCall::equivalent ? Outcome::no_change
                                                                       : Outcome::inconclusive;
    EXPECT_EQ(v.outcome, expected) << v.reason;
    EXPECT_EQ(v.primary, PrimaryTest::sequential_blocks);
    EXPECT_NE(v.reason.find("confidence sequence"), std::string::npos) << v.reason;
    if (look.call == SequentialCall::changed) {
        EXPECT_NE(v.reason.find("anytime-valid p"), std::string::npos);
    }
}

TEST(BlockedComparison, SequentialGoOnSaysHowManyMoreBlocks) {
    // Noisy and small: the interval holds 0 and reaches past +-1%.
    const std::vector<double> b = {100, 103, 98, 101, 99, 104, 97, 102};
    const std::vector<double> c2 = {101, 101, 100, 103, 97, 105, 99, 101};
    TwoSampleComparison c = run_comparison(b, c2);
    BlockDesign d;
    d.sequential = true;
    analyse_blocks(c, b, c2, d);
    ASSERT_EQ(c.blocks->look->call, SequentialCall::go_on);
    const Verdict v = decide(verdict_inputs(c, Better::higher, 0.95, 0.01, c.primary_p, "anytime-valid p"));
    EXPECT_EQ(v.outcome, Outcome::inconclusive);
    EXPECT_TRUE(v.by_blocks);
    if (c.blocks->look->blocks_to_settle) {
        EXPECT_NE(v.reason.find("more block"), std::string::npos) << v.reason;
        ASSERT_TRUE(v.runs_needed);
        EXPECT_DOUBLE_EQ(*v.runs_needed, static_cast<double>(8 + *c.blocks->look->blocks_to_settle));
    }
    // Fewer than 2 blocks: no interval, inconclusive.
    TwoSampleComparison one = run_comparison(b, c2);
    analyse_blocks(one, std::vector<double>{100}, std::vector<double>{101}, d);
    EXPECT_FALSE(one.change_ci_defined);
    EXPECT_EQ(decide(verdict_inputs(one, Better::higher, 0.95, 0.01, one.primary_p, "p")).outcome,
              Outcome::inconclusive);
}

TEST(BlockedComparison, SequentialEquivalence) {
    std::vector<double> b, c2;
    for (int i = 0; i < 40; ++i) {
        b.push_back(100 + (i % 7));
        c2.push_back(b.back() * (1 + ((i % 3) - 1) * 0.0002));
    }
    TwoSampleComparison c = run_comparison(b, c2);
    BlockDesign d;
    d.sequential = true;
    analyse_blocks(c, b, c2, d);
    ASSERT_EQ(c.blocks->look->call, SequentialCall::equivalent);
    EXPECT_EQ(decide(verdict_inputs(c, Better::higher, 0.95, 0.01, c.primary_p, "p")).outcome, Outcome::no_change);
}

TEST(BlockedComparison, RefusesMismatchedOrNonFiniteBlocks) {
    TwoSampleComparison c = run_comparison(kBase, kCand);
    EXPECT_THROW(analyse_blocks(c, std::vector<double>{1, 2}, std::vector<double>{1}, BlockDesign{}),
                 std::invalid_argument);
    EXPECT_THROW(analyse_blocks(c, std::vector<double>{1, NAN}, std::vector<double>{1, 2}, BlockDesign{}),
                 std::invalid_argument);
}

TEST(BlockedComparison, TestNamesAndWords) {
    EXPECT_STREQ(primary_test_name(PrimaryTest::paired_blocks), "paired_blocks");
    EXPECT_STREQ(primary_test_name(PrimaryTest::sequential_blocks), "sequential_blocks");
    EXPECT_STREQ(primary_test_words(PrimaryTest::paired_blocks), "paired t on block log ratios");
    EXPECT_STREQ(primary_test_words(PrimaryTest::sequential_blocks), "t-mixture confidence sequence on blocks");
    EXPECT_STREQ(change_estimate_words(PrimaryTest::sequential_blocks), "mean change over the blocks");
}

}  // namespace
}  // namespace gfxstat::analysis
