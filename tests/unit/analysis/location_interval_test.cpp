// SPDX-License-Identifier: MIT
// The median's distribution-free interval against exact binomial sums
// computed here with integers, and the mean's t interval against the
// textbook t quantile.
#include "analysis/location_interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace gfxstat::analysis {
namespace {

// P(B <= k) for B ~ Binomial(n, 1/2), exactly (n <= 60).
double binomial_cdf_half(unsigned n, unsigned k) {
    uint64_t c = 1, sum = 0;  // C(n, i)
    for (unsigned i = 0; i <= k; ++i) {
        sum += c;
        c = c * (n - i) / (i + 1);
    }
    return std::ldexp(static_cast<double>(sum), -static_cast<int>(n));
}

std::vector<double> shuffled_ranks(unsigned n) {
    // 1..n in a scrambled order: the interval must sort them itself.
    std::vector<double> v;
    for (unsigned i = 0; i < n; ++i) v.push_back(static_cast<double>((i * 7919) % n + 1));
    return v;
}

TEST(MedianInterval, RanksAndCoverageFromTheBinomial) {
    for (double confidence : {0.9, 0.95, 0.99})
        for (unsigned n = 1; n <= 60; ++n) {
            SCOPED_TRACE("n=" + std::to_string(n) + " confidence=" + std::to_string(confidence));
            // The largest l with P(B <= l-1) <= (1-confidence)/2.
            unsigned l = 0;
            while (l + 1 <= (n + 1) / 2 && binomial_cdf_half(n, l) <= (1 - confidence) / 2) ++l;
            const LocationInterval r = median_interval(shuffled_ranks(n), confidence);
            ASSERT_EQ(r.defined, l > 0);
            if (!r.defined) continue;
            EXPECT_EQ(r.low, l);  // the values are the ranks 1..n
            EXPECT_EQ(r.high, n + 1 - l);
            const double coverage = 1 - 2 * binomial_cdf_half(n, l - 1);
            EXPECT_NEAR(r.coverage, coverage, 1e-12);
            EXPECT_GE(r.coverage, confidence);
        }
}

TEST(MedianInterval, TextbookCases) {
    // n = 10 at 95%: [x(2), x(9)], coverage 1 - 2 * 11/1024.
    LocationInterval r = median_interval(shuffled_ranks(10), 0.95);
    EXPECT_EQ(r.low, 2);
    EXPECT_EQ(r.high, 9);
    EXPECT_DOUBLE_EQ(r.coverage, 1 - 2 * 11.0 / 1024);
    EXPECT_EQ(r.estimate, 5.5);
    EXPECT_DOUBLE_EQ(r.relative_half_width_pct, 3.5 / 5.5 * 100);
    // n = 20: [x(6), x(15)], coverage 1 - 2 * 21700 / 2^20.
    r = median_interval(shuffled_ranks(20), 0.95);
    EXPECT_EQ(r.low, 6);
    EXPECT_EQ(r.high, 15);
    EXPECT_DOUBLE_EQ(r.coverage, 1 - 2 * 21700.0 / 1048576);
    // Five values cannot give 95%: even [min, max] covers 1 - 2/32.
    EXPECT_FALSE(median_interval(shuffled_ranks(5), 0.95).defined);
    EXPECT_TRUE(median_interval(shuffled_ranks(6), 0.95).defined);
    EXPECT_THROW(median_interval(shuffled_ranks(6), 1.0), std::invalid_argument);
}

TEST(MeanInterval, TInterval) {
    // Two values 0 and 2: mean 1, s = sqrt(2), half width t(0.975, 1) = 12.7062047361747.
    const LocationInterval r = mean_interval(std::vector<double>{0, 2}, 0.95);
    ASSERT_TRUE(r.defined);
    EXPECT_EQ(r.estimate, 1);
    EXPECT_NEAR(r.high - 1, 12.706204736174705, 1e-12);
    EXPECT_NEAR(r.low - 1, -12.706204736174705, 1e-12);
    EXPECT_FALSE(mean_interval(std::vector<double>{3}, 0.95).defined);
    // Offsets near 1e9 keep their digits.
    const LocationInterval big = mean_interval(std::vector<double>{1e9, 1e9 + 2}, 0.95);
    EXPECT_EQ(big.estimate, 1e9 + 1);
    EXPECT_NEAR(big.high - big.estimate, 12.706204736174705, 1e-6);
}

}  // namespace
}  // namespace gfxstat::analysis
