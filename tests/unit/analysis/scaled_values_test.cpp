// SPDX-License-Identifier: MIT
#include "analysis/scaled_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>

namespace gfxstat::analysis {
namespace {

// decimal_to_double must agree bit for bit with glibc's strtod, which is
// correctly rounded: that is what makes ministat's histogram bins identical.
TEST(DecimalToDouble, MatchesStrtodOnRandomDecimals) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 200000; ++i) {
        const int digits = 1 + static_cast<int>(rng() % 18);
        int64_t m = static_cast<int64_t>(rng() % 1000000000000000000ull);
        int64_t lim = 1;
        for (int d = 0; d < digits; ++d) lim *= 10;
        m %= lim;
        if (rng() & 1) m = -m;
        const int e = static_cast<int>(rng() % 80) - 40 + (i % 100 == 0 ? 250 : 0);
        const std::string text = std::to_string(m) + "e" + std::to_string(e);
        const double want = std::strtod(text.c_str(), nullptr);
        const double got = decimal_to_double(m, e);
        ASSERT_EQ(got, want) << text;
    }
}

TEST(DecimalToDouble, EdgesOfTheRange) {
    EXPECT_EQ(decimal_to_double(17976931348623157, 292), 1.7976931348623157e308);
    EXPECT_TRUE(std::isinf(decimal_to_double(2, 308)));
    EXPECT_TRUE(std::isinf(decimal_to_double(-2, 308)) && decimal_to_double(-2, 308) < 0);
    EXPECT_EQ(decimal_to_double(1, -400), 0.0);
    EXPECT_EQ(decimal_to_double(5, -324), 5e-324);
    EXPECT_EQ(decimal_to_double(0, 300), 0.0);
}

TEST(Pow10l, ExactWhereLongDoubleCanBe) {
    long double p = 1;
    for (int e = 0; e <= 27; ++e) {
        EXPECT_EQ(pow10l(e), p) << e;
        p *= 10;
    }
    EXPECT_EQ(pow10l(-1), 1 / 10.0L);
    EXPECT_NEAR(static_cast<double>(pow10l(300) / 1e300L), 1.0, 1e-15);
}

TEST(ScaledValues, AtConvertsEachRepresentation) {
    const int32_t a[] = {15, -25};
    ScaledValues v{std::span<const int32_t>(a), -1};
    EXPECT_EQ(v.size(), 2u);
    EXPECT_EQ(v.at(0), 1.5);
    EXPECT_EQ(v.at(1), -2.5);
    const double d[] = {0.1};
    ScaledValues w{std::span<const double>(d), 5};  // exponent ignored for doubles
    EXPECT_EQ(w.at(0), 0.1);
}

}  // namespace
}  // namespace gfxstat::analysis
