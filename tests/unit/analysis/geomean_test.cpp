// SPDX-License-Identifier: MIT
// The oriented geomean: ratios turned so that above 1 is better, and its
// delta-method interval (checked against the formula worked by hand, and
// against the normal quantile where the degrees of freedom are huge).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "analysis/geomean.h"

namespace gfxstat::analysis {
namespace {

TEST(Geomean, FpsUpAndFrameTimeDownAreBothImprovements) {
    // fps +9.68% (higher is better), frame time -8.82% (lower is better).
    const std::vector<RatioInput> in = {{100, 1, 5, 109.68, 1, 5, Better::higher},
                                        {10, 0.1, 5, 9.118, 0.1, 5, Better::lower}};
    const Geomean g = oriented_geomean(in, 0.95);
    ASSERT_TRUE(g.defined);
    EXPECT_NEAR(g.ratio, std::sqrt(1.0968 * (10 / 9.118)), 1e-12);
    EXPECT_GT(g.ratio, 1.09);
    ASSERT_TRUE(g.ci_defined);
    EXPECT_GT(g.ci[0], 1);
}

TEST(Geomean, LowerIsBetterRatioIsInverted) {
    const std::vector<RatioInput> in = {{10, 0, 3, 20, 0, 3, Better::lower}};
    const Geomean g = oriented_geomean(in, 0.95);
    EXPECT_DOUBLE_EQ(g.ratio, 0.5);
    EXPECT_FALSE(g.ci_defined);  // no variability: no interval
}

TEST(Geomean, IntervalByHand) {
    // Two metrics, cv 0.02 and 0.04 on every side, n = 4 and 9.
    // var(mean log) = (0.02^2/4 + 0.02^2/9 + 0.04^2/4 + 0.04^2/9) / 4.
    const std::vector<RatioInput> in = {{100, 2, 4, 100, 2, 9, Better::higher},
                                        {50, 2, 4, 50, 2, 9, Better::higher}};
    const Geomean g = oriented_geomean(in, 0.95);
    const double v[4] = {0.0004 / 4 / 4, 0.0004 / 9 / 4, 0.0016 / 4 / 4, 0.0016 / 9 / 4};
    const double sum = v[0] + v[1] + v[2] + v[3];
    const double df = sum * sum / (v[0] * v[0] / 3 + v[1] * v[1] / 8 + v[2] * v[2] / 3 + v[3] * v[3] / 8);
    EXPECT_NEAR(g.df, df, 1e-9 * df);
    EXPECT_DOUBLE_EQ(g.ratio, 1);
    // Symmetric on the log scale.
    EXPECT_NEAR(std::log(g.ci[0]), -std::log(g.ci[1]), 1e-12);
}

TEST(Geomean, HugeSamplesUseTheNormalQuantile) {
    const std::vector<RatioInput> in = {{100, 1, 1000000, 101, 1, 1000000, Better::higher}};
    const Geomean g = oriented_geomean(in, 0.95);
    const double se = std::sqrt(0.0001 / 1e6 + (1 / 101.0) * (1 / 101.0) / 1e6);
    EXPECT_NEAR(std::log(g.ci[1]) - std::log(g.ratio), 1.959963984540054 * se, 1e-5 * se);  // t at df 2e6
}

TEST(Geomean, UndefinedWithoutDirectionOrPositiveMeans) {
    EXPECT_FALSE(oriented_geomean(std::vector<RatioInput>{{100, 1, 5, 101, 1, 5, Better::unknown}}, 0.95).defined);
    EXPECT_FALSE(oriented_geomean(std::vector<RatioInput>{{0, 1, 5, 101, 1, 5, Better::higher}}, 0.95).defined);
    EXPECT_FALSE(oriented_geomean(std::vector<RatioInput>{}, 0.95).defined);
}

}  // namespace
}  // namespace gfxstat::analysis
