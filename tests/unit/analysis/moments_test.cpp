// SPDX-License-Identifier: MIT
#include "analysis/moments.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/unit/test_support.h"

namespace gfxstat::analysis {
namespace {

using test::reference_cases;
using test::sample_from_doubles;
using test::sample_from_tokens;

// Every reference sample: mean and variance against exact rational values.
// The reference file's exact_rational moments are those of the binary64
// values; gfxstat reads the decimal text, which differs from the binary64
// value by up to half an ulp. That matters only where the mean is 1e9 times
// the spread, so that case is checked against the moments of the decimals
// (computed with Python's fractions.Fraction from the same text).
TEST(Moments, MatchReferenceCasesExactly) {
    for (const auto& c : reference_cases()["cases"]) {
        for (const char* side : {"a", "b"}) {
            const auto& st = c[std::string("stats_") + side];
            auto s = sample_from_doubles(test::doubles(c[side]));
            const Moments m = moments(s.view());
            const auto& exact = st.contains("exact_rational") ? st["exact_rational"] : st;
            SCOPED_TRACE(c["id"].get<std::string>() + "." + side);
            EXPECT_EQ(m.n, st["n"].get<size_t>());
            double mean = exact["mean"], var = exact["var"];
            if (c["id"] == "huge_offset_1e9_sd1") {
                mean = side[0] == 'a' ? 999999999.99352 : 1000000000.429715;
                var = side[0] == 'a' ? 1.389340920631579 : 0.7834419581842105;
            }
            EXPECT_NEAR(m.mean, mean, std::abs(mean) * 1e-15 + 1e-300);
            if (m.n >= 2) {
                EXPECT_NEAR(m.variance, var, std::abs(var) * 1e-13 + 1e-300);
            }
        }
    }
}

// The cases that defeat ministat's one-pass formula.
TEST(Moments, NoCancellationNearOneBillion) {
    auto s = sample_from_tokens({"1000000001", "1000000002", "1000000003"});
    const Moments m = moments(s.view());
    EXPECT_EQ(m.mean, 1000000002.0);
    EXPECT_EQ(m.variance, 1.0);
    EXPECT_EQ(m.stddev, 1.0);
}

TEST(Moments, NoCancellationWithTenthsNearOneHundredMillion) {
    auto s = sample_from_tokens({"100000000.1", "100000000.2", "100000000.3"});
    const Moments m = moments(s.view());
    EXPECT_EQ(m.mean, 100000000.2);
    EXPECT_DOUBLE_EQ(m.stddev, 0.1);
}

TEST(Moments, ConstantSampleHasZeroSpread) {
    auto s = sample_from_tokens({"7.25", "7.25", "7.25", "7.25"});
    const Moments m = moments(s.view());
    EXPECT_EQ(m.mean, 7.25);
    EXPECT_EQ(m.variance, 0.0);
}

TEST(Moments, SingleValueHasUndefinedSpread) {
    auto s = sample_from_tokens({"3"});
    const Moments m = moments(s.view());
    EXPECT_EQ(m.mean, 3.0);
    EXPECT_TRUE(std::isnan(m.stddev));
}

// int64 significands (more than 9 digits): the exact path still applies.
TEST(Moments, Int64SignificandsStayExact) {
    auto s = sample_from_tokens({"123456789012.5", "123456789012.7", "123456789012.9"});
    ASSERT_TRUE(std::holds_alternative<std::vector<int64_t>>(s.values));
    const Moments m = moments(s.view());
    EXPECT_EQ(m.mean, 123456789012.7);
    EXPECT_NEAR(m.stddev, 0.2, 1e-15);
}

// Doubles (a hex float forces them): long-double two-pass, still accurate.
TEST(Moments, DoublePathIsAccurate) {
    auto s = sample_from_tokens({"0x1p0", "1000000001", "1000000002", "1000000003"});
    ASSERT_FALSE(s.exact());
    const Moments m = moments(s.view());
    // mean = (1 + 3000000006) / 4, var by hand.
    EXPECT_DOUBLE_EQ(m.mean, 3000000007.0 / 4);
    const double mu = 3000000007.0 / 4;
    double ss = 0;
    for (double x : {1.0, 1000000001.0, 1000000002.0, 1000000003.0}) ss += (x - mu) * (x - mu);
    EXPECT_NEAR(m.variance, ss / 3, ss / 3 * 1e-14);
}

// Values near the top of the double range: ministat overflows its sums and
// crashes; the mean and standard deviation are finite.
TEST(Moments, NearDoubleMaxStaysFinite) {
    auto s = sample_from_tokens({"1.7e308", "1.6e308", "1.5e308"});
    const Moments m = moments(s.view());
    EXPECT_DOUBLE_EQ(m.mean, 1.6e308);
    EXPECT_DOUBLE_EQ(m.stddev, 1e307);
    EXPECT_TRUE(std::isinf(m.variance));  // 1e614 is not a double
}

TEST(Moments, NegativeValues) {
    auto s = sample_from_tokens({"-10", "-12", "-11", "-9"});
    const Moments m = moments(s.view());
    EXPECT_EQ(m.mean, -10.5);
    EXPECT_DOUBLE_EQ(m.variance, 5.0 / 3);
}

}  // namespace
}  // namespace gfxstat::analysis
