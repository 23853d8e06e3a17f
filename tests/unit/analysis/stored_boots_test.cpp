// SPDX-License-Identifier: MIT
// The prediction t for new boots against stored boots (analysis/stored_boots.h),
// against values worked by hand: B = 5 baseline boots give 4 df, whose t
// distribution has a closed form, F(t) = 1/2 + (3/8) u (1 - x / (3 (1 + x)))
// with x = t^2 / 4 and u = t / sqrt(1 + x), and whose 97.5% quantile is
// qt(0.975, 4) = 2.7764451051977987 (R).
#include "analysis/stored_boots.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace {

using gfxstat::analysis::StoredBoots;
using gfxstat::analysis::stored_boots_test;

constexpr double kQt975df4 = 2.7764451051977987;

double cdf_t4(double t) {
    const double x = t * t / 4;
    return 0.5 + 3.0 / 8.0 * (t / std::sqrt(1 + x)) * (1 - x / (3 * (1 + x)));
}

struct Side {
    std::vector<double> v;
    std::vector<uint32_t> boot;
    void add(uint32_t b, std::initializer_list<double> runs) {
        for (double x : runs) {
            v.push_back(x);
            boot.push_back(b);
        }
    }
};

// Boot means 98, 99, 100, 101, 102, two runs each at mean -+ 0.5:
// s2 = 2.5 (4 df), sw2 = 0.5 (5 df), h = 1/2, sb2 = 2.5 - 0.25 = 2.25.
Side baseline5() {
    Side s;
    for (uint32_t b = 0; b < 5; ++b) s.add(10 + b, {97.5 + b, 98.5 + b});
    return s;
}

TEST(StoredBoots, OneBootLikeTheBaselinesIsThePredictionT) {
    const Side a = baseline5();
    Side c;
    c.add(7, {103.5, 104.5});  // mean 104, 2 runs like every baseline boot
    const StoredBoots r = stored_boots_test(a.v, a.boot, c.v, c.boot, 0.95, 0.01);
    ASSERT_TRUE(r.defined);
    EXPECT_EQ(r.baseline_boots, 5u);
    EXPECT_EQ(r.candidate_boots, 1u);
    EXPECT_DOUBLE_EQ(r.baseline_mean, 100);
    EXPECT_DOUBLE_EQ(r.difference, 4);
    EXPECT_DOUBLE_EQ(r.df, 4);
    EXPECT_NEAR(r.s_boot_means, std::sqrt(2.5), 1e-12);
    EXPECT_NEAR(r.s_within, std::sqrt(0.5), 1e-12);
    EXPECT_NEAR(r.s_between, 1.5, 1e-12);
    // V = s2 (1 + 1/B) = 2.5 * 1.2 = 3: Student's t with B - 1 df exactly.
    const double se = std::sqrt(3.0), t = 4 / se;
    EXPECT_NEAR(r.stderr_, se, 1e-12);
    EXPECT_NEAR(r.t, t, 1e-12);
    EXPECT_NEAR(r.p, 2 * (1 - cdf_t4(t)), 1e-10);
    EXPECT_NEAR(r.p, 0.0820862798347, 1e-9);
    EXPECT_NEAR(r.ci[0], 4 - kQt975df4 * se, 1e-9);
    EXPECT_NEAR(r.ci[1], 4 + kQt975df4 * se, 1e-9);
    EXPECT_NEAR(r.relative_ci[0], (4 - kQt975df4 * se) / 100, 1e-11);
    EXPECT_NEAR(r.var_baseline_mean + r.var_candidate_mean, 3, 1e-12);
    // TOST at +-1% of 100: P(T > 5/se) and P(T > -3/se), the larger.
    EXPECT_NEAR(r.equivalence_p, cdf_t4(3 / se), 1e-10);
    EXPECT_FALSE(r.equivalent);
}

TEST(StoredBoots, TheCandidatesOwnRunsPerBootSetItsVariance) {
    const Side a = baseline5();
    Side one, four;
    one.add(0, {104});                     // hc = 1: V = 0.5 + 2.25 + 0.5
    four.add(0, {103, 103.5, 104.5, 105});  // hc = 1/4: V = 0.5 + 2.25 + 0.125
    const StoredBoots r1 = stored_boots_test(a.v, a.boot, one.v, one.boot, 0.95, 0.01);
    const StoredBoots r4 = stored_boots_test(a.v, a.boot, four.v, four.boot, 0.95, 0.01);
    EXPECT_NEAR(r1.stderr_, std::sqrt(3.25), 1e-12);
    EXPECT_NEAR(r4.stderr_, std::sqrt(2.875), 1e-12);
    EXPECT_NEAR(r1.p, 2 * (1 - cdf_t4(4 / std::sqrt(3.25))), 1e-10);
    EXPECT_NEAR(r4.p, 2 * (1 - cdf_t4(4 / std::sqrt(2.875))), 1e-10);
    EXPECT_GT(r1.p, r4.p);
}

TEST(StoredBoots, SeveralCandidateBootsAreAveragedAsClusters) {
    const Side a = baseline5();
    Side c;
    c.add(3, {103.5, 104.5});  // mean 104
    c.add(9, {105.5, 106.5});  // mean 106
    const StoredBoots r = stored_boots_test(a.v, a.boot, c.v, c.boot, 0.95, 0.01);
    EXPECT_EQ(r.candidate_boots, 2u);
    EXPECT_DOUBLE_EQ(r.difference, 5);
    // V = s2 / B + (sb2 + sw2 / 2) / 2 = 0.5 + 1.25.
    EXPECT_NEAR(r.stderr_, std::sqrt(1.75), 1e-12);
    EXPECT_NEAR(r.p, 2 * (1 - cdf_t4(5 / std::sqrt(1.75))), 1e-10);
    EXPECT_LT(r.p, 0.05);
}

TEST(StoredBoots, BetweenBootVarianceBelowZeroIsTakenAsZero) {
    // Boot means 99.9, 100, 100.1, 100, 100 (s2 = 0.005), runs +-2 within
    // (sw2 = 8, h = 1/2): sb2 = max(0, 0.005 - 4) = 0, so V = 0.001 + 8 / 2,
    // wider than s2 (1 + 1/B) = 0.006 would be.
    Side a;
    const double means[] = {99.9, 100, 100.1, 100, 100};
    for (uint32_t b = 0; b < 5; ++b) a.add(b, {means[b] - 2, means[b] + 2});
    Side c;
    c.add(0, {99, 103});
    const StoredBoots r = stored_boots_test(a.v, a.boot, c.v, c.boot, 0.95, 0.01);
    EXPECT_DOUBLE_EQ(r.s_between, 0);
    EXPECT_NEAR(r.stderr_, std::sqrt(0.001 + 4), 1e-12);
}

TEST(StoredBoots, EquivalenceWhenTheIntervalLiesWithinTheThreshold) {
    Side a;
    for (uint32_t b = 0; b < 5; ++b) a.add(b, {1000 + 0.1 * b, 1000.2 + 0.1 * b});
    Side c;
    c.add(0, {1000.2, 1000.4});
    const StoredBoots r = stored_boots_test(a.v, a.boot, c.v, c.boot, 0.95, 0.01);
    EXPECT_TRUE(r.equivalent);
    EXPECT_LT(r.equivalence_p, 0.05);
    EXPECT_GT(r.p, 0.05);
}

TEST(StoredBoots, UndefinedWithoutTwoBaselineBootsOrACandidate) {
    Side a;
    a.add(0, {1, 2, 3});
    Side c;
    c.add(0, {4, 5});
    const StoredBoots one = stored_boots_test(a.v, a.boot, c.v, c.boot, 0.95, 0.01);
    EXPECT_FALSE(one.defined);
    EXPECT_EQ(one.p, 1);
    EXPECT_TRUE(std::isnan(one.ci[0]));
    const Side b = baseline5();
    const StoredBoots none = stored_boots_test(b.v, b.boot, {}, {}, 0.95, 0.01);
    EXPECT_FALSE(none.defined);
    // Every baseline boot the same level and one run each: no spread.
    Side flat;
    for (uint32_t i = 0; i < 4; ++i) flat.add(i, {7});
    EXPECT_FALSE(stored_boots_test(flat.v, flat.boot, c.v, c.boot, 0.95, 0.01).defined);
}

TEST(StoredBoots, RejectsBadArguments) {
    const Side a = baseline5();
    Side c;
    c.add(0, {1, 2});
    EXPECT_THROW(stored_boots_test(a.v, a.boot, c.v, c.boot, 1.0, 0.01), std::invalid_argument);
    EXPECT_THROW(stored_boots_test(a.v, a.boot, c.v, c.boot, 0.95, -1), std::invalid_argument);
    const std::vector<uint32_t> short_boots = {0};
    EXPECT_THROW(stored_boots_test(a.v, a.boot, c.v, short_boots, 0.95, 0.01), std::invalid_argument);
    std::vector<double> bad = c.v;
    bad[0] = std::nan("");
    EXPECT_THROW(stored_boots_test(a.v, a.boot, bad, c.boot, 0.95, 0.01), std::invalid_argument);
}

}  // namespace
