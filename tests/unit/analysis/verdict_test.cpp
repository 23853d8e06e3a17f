// SPDX-License-Identifier: MIT
// The verdict: primary-test choice, the outcome rules, and by simulation
// that it keeps its promises: on A/A data (one distribution) a change is
// declared at the nominal rate, and a known 2% regression is found.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "analysis/comparison.h"
#include "analysis/verdict.h"

namespace gfxstat::analysis {
namespace {

ScaledValues view(const std::vector<double>& v) {
    ScaledValues s;
    s.values = std::span<const double>(v);
    return s;
}

MutableScaledValues mutable_view(std::vector<double>& v) {
    MutableScaledValues s;
    s.values = std::span<double>(v);
    return s;
}

Outcome verdict_of(std::vector<double> a, std::vector<double> b, Better better, double threshold = 0.01) {
    ComparisonOptions o;
    o.bootstrap_resamples = 0;
    o.threshold = threshold;
    const TwoSampleComparison c = compare_samples(mutable_view(a), mutable_view(b), o);
    return decide(verdict_inputs(c, better, 0.95, threshold, c.primary_p, "p")).outcome;
}

Verdict full_verdict(std::vector<double> a, std::vector<double> b, Better better, bool exact = false) {
    ComparisonOptions o;
    o.bootstrap_resamples = 0;
    o.exact = exact;
    const TwoSampleComparison c = compare_samples(mutable_view(a), mutable_view(b), o);
    return decide(verdict_inputs(c, better, 0.95, 0.01, c.primary_p, "p"));
}

TEST(Verdict, AADataDeclaresChangesAtTheNominalRate) {
    // 2000 A/A comparisons of normal samples (n = 20, CV 2%) at alpha 0.05:
    // a change (either way) should be declared about 5% of the time, a
    // regression about 2.5%. Bounds: 4 binomial standard deviations.
    std::mt19937_64 rng(20261130);
    std::normal_distribution<double> dist(100.0, 2.0);
    const int reps = 2000;
    int changed = 0, regressions = 0;
    for (int r = 0; r < reps; ++r) {
        std::vector<double> a(20), b(20);
        for (auto& x : a) x = dist(rng);
        for (auto& x : b) x = dist(rng);
        const Outcome o = verdict_of(a, b, Better::lower);
        changed += (o == Outcome::regression || o == Outcome::improvement);
        regressions += o == Outcome::regression;
    }
    const auto within = [&](int count, double p) {
        const double sd = std::sqrt(p * (1 - p) / reps);
        return std::fabs(count / double(reps) - p) <= 4 * sd;
    };
    EXPECT_TRUE(within(changed, 0.05)) << changed << " changes in " << reps;
    EXPECT_TRUE(within(regressions, 0.025)) << regressions << " regressions in " << reps;
}

TEST(Verdict, FindsAKnownTwoPercentRegression) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> base(100.0, 1.0), slow(102.0, 1.0);
    int found = 0;
    for (int r = 0; r < 200; ++r) {
        std::vector<double> a(30), b(30);
        for (auto& x : a) x = base(rng);
        for (auto& x : b) x = slow(rng);
        found += verdict_of(a, b, Better::lower) == Outcome::regression;
        // The same data where higher is better is an improvement.
        if (r == 0) {
            EXPECT_EQ(verdict_of(a, b, Better::higher), Outcome::improvement);
        }
    }
    EXPECT_GE(found, 198);  // power is essentially 1 at 2 sd with 30 runs a side
}

TEST(Verdict, EquivalenceNeedsEnoughData) {
    std::mt19937_64 rng(11);
    std::normal_distribution<double> d(100.0, 0.3);
    std::vector<double> a(100), b(100);
    for (auto& x : a) x = d(rng);
    for (auto& x : b) x = d(rng);
    EXPECT_EQ(verdict_of(a, b, Better::lower), Outcome::no_change);
    // Three noisy runs a side show nothing either way.
    EXPECT_EQ(verdict_of({100, 104, 97}, {101, 96, 105}, Better::lower), Outcome::inconclusive);
}

TEST(Verdict, ADriftingSideIsNotAChange) {
    // The candidate's score falls run after run (another program started):
    // its Welch t is significant against a steady baseline, but the runs
    // are not one sample of one thing, so the verdict is inconclusive.
    std::vector<double> a = {318, 321, 316, 319, 317, 320, 318, 315, 319, 320};
    std::vector<double> b;
    for (int k = 0; k < 10; ++k) b.push_back(320 - 6 * k + (k % 2 ? 1.5 : -1.5));
    const Verdict v = full_verdict(a, b, Better::higher);
    EXPECT_EQ(v.outcome, Outcome::inconclusive);
    EXPECT_NE(v.reason.find("candidate drifts: run the variants interleaved, `gfxstat ab`"), std::string::npos)
        << v.reason;
    // A change far beyond what the drift could make still stands.
    std::vector<double> half;
    for (int k = 0; k < 10; ++k) half.push_back(160 - 0.4 * k + (k % 2 ? 0.1 : -0.1));
    EXPECT_EQ(full_verdict(a, half, Better::higher).outcome, Outcome::regression);
}

TEST(Verdict, UnknownDirectionSaysChanged) {
    std::vector<double> a = {10, 10.1, 9.9, 10.05, 9.95, 10.02, 9.98, 10.01};
    std::vector<double> b = {11, 11.1, 10.9, 11.05, 10.95, 11.02, 10.98, 11.01};
    EXPECT_EQ(verdict_of(a, b, Better::unknown), Outcome::changed);
}

TEST(Verdict, ConstantSamplesGiveNoPAndNoVerdict) {
    // gem_exec_nop pasted with n = 2 a side: Welch t is undefined, and its
    // conventional p = 0 must not become a regression.
    const Verdict v = full_verdict({3.366, 3.366}, {3.418, 3.418}, Better::lower);
    EXPECT_EQ(v.outcome, Outcome::inconclusive);
    EXPECT_TRUE(std::isnan(v.p_adjusted));
    EXPECT_NE(v.reason.find("no variability"), std::string::npos);
    EXPECT_FALSE(v.constant);
    EXPECT_EQ(outcome_words(v), "inconclusive");
}

TEST(Verdict, OneValueThroughoutIsNoChange) {
    // A counter that stayed 0 in every run of both sides did not change:
    // no test is needed, none has a p, and --strict must not fail on it.
    for (const Verdict& v : {full_verdict({0, 0, 0}, {0, 0}, Better::lower),
                             full_verdict({1, 1}, {1, 1}, Better::higher)}) {
        EXPECT_EQ(v.outcome, Outcome::no_change);
        EXPECT_TRUE(v.constant);
        EXPECT_TRUE(std::isnan(v.p_adjusted));
        EXPECT_FALSE(v.beyond_threshold);
        EXPECT_EQ(outcome_words(v), "no_change (constant)");
    }
    // Equivalence shown by TOST is a plain no change.
    const Verdict tost = full_verdict({100, 100.1, 99.9, 100, 100.05, 99.95}, {100, 100.1, 99.9, 100, 100.05, 99.95},
                                      Better::lower);
    EXPECT_FALSE(tost.constant);
}

TEST(Verdict, ExactMetricsCompareExactly) {
    EXPECT_EQ(full_verdict({3.366, 3.366}, {3.418, 3.418}, Better::lower, true).outcome, Outcome::regression);
    EXPECT_EQ(full_verdict({4096}, {4096}, Better::lower, true).outcome, Outcome::no_change);
    EXPECT_EQ(full_verdict({4096}, {4000}, Better::lower, true).outcome, Outcome::improvement);
    const Verdict v = full_verdict({4096}, {4100}, Better::lower, true);
    EXPECT_EQ(v.primary, PrimaryTest::exact);
    EXPECT_FALSE(v.beyond_threshold);  // +0.1% is within the 1% threshold
}

TEST(Verdict, SaysWhatThisNCanSee) {
    // n = 3 a side at a CV of about 3%: a 1% change is far below what
    // three runs can see.
    const Verdict v = full_verdict({100, 106, 97}, {101, 99, 104}, Better::lower);
    ASSERT_EQ(v.outcome, Outcome::inconclusive);
    ASSERT_TRUE(v.detectable_change.has_value());
    EXPECT_GT(*v.detectable_change, 0.05);
    EXPECT_NE(v.reason.find("cannot be told from noise"), std::string::npos);
}

TEST(Verdict, DetectableChangeInvertsRunsPerGroup) {
    // runs_per_group is checked against R's power.t.test; its inverse at
    // the detectable change gives back n.
    for (double n : {2.0, 3.0, 5.0, 10.0, 50.0})
        for (double cv : {0.01, 0.05, 0.2}) {
            const double d = detectable_relative_change(cv, n, 0.05, 0.8);
            EXPECT_NEAR(power_t_test_n(cv, d, 0.05, 0.8), n, 1e-6 * n) << n << " " << cv;
        }
    EXPECT_EQ(detectable_relative_change(0, 3, 0.05, 0.8), 0);
    EXPECT_THROW(detectable_relative_change(0.1, 1, 0.05, 0.8), std::invalid_argument);
}

TEST(Verdict, PrimaryTestFollowsTheShape) {
    Shape normal{30, 0.1, -0.2}, skewed{30, 2.5, 8.0}, tiny{5, 3.0, 9.0};
    EXPECT_EQ(choose_primary(normal, normal).test, PrimaryTest::welch);
    EXPECT_EQ(choose_primary(normal, skewed).test, PrimaryTest::mann_whitney);
    EXPECT_EQ(choose_primary(tiny, skewed).test, PrimaryTest::welch);
    EXPECT_NE(choose_primary(normal, skewed).why.find("candidate"), std::string::npos);
}

TEST(Verdict, ShapeMatchesTheReferenceSkewness) {
    // R/e1071 type 2 skewness and kurtosis of the ministat man page's
    // iguana sample (reference case 1): G1 1.2065060312235456,
    // G2 1.3178200692041515.
    std::vector<double> v = {50, 200, 150, 400, 750, 400, 150};
    Moments m;
    m.n = v.size();
    m.mean = 300;
    m.variance = 56666.666666666664;
    m.stddev = std::sqrt(m.variance);
    const Shape s = shape(view(v), m);
    EXPECT_NEAR(s.skewness, 1.2065060312235456, 1e-12);
    EXPECT_NEAR(s.excess_kurtosis, 1.3178200692041515, 1e-12);
}

}  // namespace
}  // namespace gfxstat::analysis
