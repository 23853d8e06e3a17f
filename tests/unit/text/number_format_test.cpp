// SPDX-License-Identifier: MIT
// text/number_format.h: each way a report writes a number, to the byte,
// since outputs are compared byte for byte (tests/golden/).
#include "text/number_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gfxstat::text {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(NumberFormat, SignificantDigits) {
    EXPECT_EQ(number_g(123.456, 4), "123.5");
    EXPECT_EQ(number_g(1234567, 6), "1.23457e+06");
    EXPECT_EQ(number_g(0.5, 8), "0.5");
    EXPECT_EQ(signed_number_g(3.25, 4), "+3.25");
    EXPECT_EQ(signed_number_g(-0.5, 4), "-0.5");
}

TEST(NumberFormat, ShortestReadsBack) {
    EXPECT_EQ(shortest_number(0.1), "0.1");
    EXPECT_EQ(shortest_number(1e21), "1e+21");
    EXPECT_EQ(shortest_number(2), "2");
}

TEST(NumberFormat, Percents) {
    EXPECT_EQ(percent_g(0.95), "95%");
    EXPECT_EQ(percent_g(0.999), "99.9%");
    EXPECT_EQ(signed_percent(0.0321), "+3.21%");
    EXPECT_EQ(signed_percent(-0.0321, 2), "-3.2%");
    EXPECT_EQ(signed_percent(kInf), "+inf%");
    EXPECT_EQ(signed_percent_or_words(0.0321), "+3.21%");
    EXPECT_EQ(signed_percent_or_words(kNan), "n/a");
    EXPECT_EQ(signed_percent_or_words(-kInf), "-inf");
}

TEST(NumberFormat, ReadableNumber) {
    EXPECT_EQ(readable_number(0), "0");
    EXPECT_EQ(readable_number(0.123456), "0.1235");
    EXPECT_EQ(readable_number(12.3456), "12.35");
    EXPECT_EQ(readable_number(123456), "123456");
    EXPECT_EQ(readable_number(1.5e7), "1.5e+07");
    EXPECT_EQ(readable_number(kNan), "n/a");
}

}  // namespace
}  // namespace gfxstat::text
