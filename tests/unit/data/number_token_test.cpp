// SPDX-License-Identifier: MIT
#include "data/number_token.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>

#include "analysis/scaled_values.h"

namespace gfxstat::data {
namespace {

double value_of(const NumberToken& t) {
    if (t.status == TokenStatus::binary) return t.value;
    const int64_t m = static_cast<int64_t>(t.significand);
    return analysis::decimal_to_double(t.negative ? -m : m, t.exponent);
}

TEST(NumberToken, ExactDecimals) {
    auto t = parse_number_token("10000000.2");
    ASSERT_EQ(t.status, TokenStatus::decimal);
    EXPECT_FALSE(t.negative);
    EXPECT_EQ(t.significand, 100000002u);
    EXPECT_EQ(t.exponent, -1);
    t = parse_number_token("-0.00150e3");
    ASSERT_EQ(t.status, TokenStatus::decimal);
    EXPECT_TRUE(t.negative);
    EXPECT_EQ(t.significand, 150u);
    EXPECT_EQ(t.exponent, -2);
    t = parse_number_token("+.5");
    EXPECT_EQ(t.status, TokenStatus::decimal);
    EXPECT_EQ(value_of(t), 0.5);
    t = parse_number_token("5.");
    EXPECT_EQ(value_of(t), 5.0);
    t = parse_number_token("  \t42");  // strtod skips leading white space
    EXPECT_EQ(value_of(t), 42.0);
    t = parse_number_token("1E+2");
    EXPECT_EQ(value_of(t), 100.0);
}

TEST(NumberToken, Garbage) {
    for (const char* s : {"", "abc", "1.2.3", "1e", "1e+", "--1", "- 1", "0x", "1,5", "12abc",
                          ".", "e5", "1 ", "0x1p", "infinit", "nan(", "5\x01"})
        EXPECT_EQ(parse_number_token(s).status, TokenStatus::malformed) << '"' << s << '"';
}

TEST(NumberToken, NotFinite) {
    for (const char* s : {"inf", "-inf", "INF", "Infinity", "nan", "-NaN", "nan(0x1)", "nan()"})
        EXPECT_EQ(parse_number_token(s).status, TokenStatus::not_finite) << s;
}

TEST(NumberToken, OutOfRange) {
    for (const char* s : {"1e400", "-1e309", "1.8e308", "0x1p1024", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"})
        EXPECT_EQ(parse_number_token(s).status, TokenStatus::out_of_range) << s;
    EXPECT_EQ(parse_number_token("1.7976931348623157e308").status, TokenStatus::decimal);
}

TEST(NumberToken, SmallestSubnormalIsNotAnUnderflow) {
    EXPECT_EQ(value_of(parse_number_token("4.9e-324")), 4.9e-324);
    EXPECT_EQ(parse_number_token("1.00000000000000000001e-500").status, TokenStatus::underflow);
}

TEST(NumberToken, HexFloatsAndLongDigitStrings) {
    auto t = parse_number_token("0x1.8p3");
    ASSERT_EQ(t.status, TokenStatus::binary);
    EXPECT_EQ(t.value, 12.0);
    EXPECT_EQ(parse_number_token("-0X10").value, -16.0);
    t = parse_number_token("3.14159265358979323846264338327950288");
    ASSERT_EQ(t.status, TokenStatus::binary);
    EXPECT_EQ(t.value, 3.141592653589793);
    // Trailing zeros beyond 18 digits do not lose exactness.
    t = parse_number_token("1000000000000000000000000");
    ASSERT_EQ(t.status, TokenStatus::decimal);
    EXPECT_EQ(value_of(t), 1e24);
}

// Randomised against strtod: every token strtod consumes entirely and finds
// finite is accepted with the same value; every other token is rejected.
TEST(NumberToken, AgreesWithStrtodOnRandomTokens) {
    std::mt19937 rng(11);
    const std::string alphabet = "0123456789.-+eExXpPabcfinINA \t";
    for (int i = 0; i < 300000; ++i) {
        std::string s;
        const int len = 1 + static_cast<int>(rng() % 12);
        for (int k = 0; k < len; ++k) {
            // Mostly digits, so that many tokens are valid numbers.
            s += (rng() % 3) ? static_cast<char>('0' + rng() % 10) : alphabet[rng() % alphabet.size()];
        }
        char* end = nullptr;
        errno = 0;
        const double want = std::strtod(s.c_str(), &end);
        const bool consumed = end != s.c_str() && *end == '\0';
        const NumberToken t = parse_number_token(s);
        const bool accepted = t.status == TokenStatus::decimal || t.status == TokenStatus::binary;
        // strtod says ERANGE for overflow and for underflow (to 0 or to a
        // subnormal); overflow and underflow to 0 are refused.
        if (consumed && std::isfinite(want) && !(errno == ERANGE && (std::abs(want) > 1 || want == 0))) {
            ASSERT_TRUE(accepted) << '"' << s << '"';
            const double got = value_of(t);
            ASSERT_TRUE(got == want || (got == 0 && want == 0)) << '"' << s << '"';
        } else {
            ASSERT_FALSE(accepted) << '"' << s << '"';
        }
    }
}

}  // namespace
}  // namespace gfxstat::data

namespace gfxstat::data {
namespace {

// The exponent's sign alone does not say whether a hex float overflows.
TEST(NumberToken, HexRangeDecidedByMagnitude) {
    EXPECT_EQ(parse_number_token("0x100000000000000000000000000000p+1000").status,
              TokenStatus::out_of_range);
    EXPECT_EQ(parse_number_token("0x1p+1023").status, TokenStatus::binary);
    // Closer to 0 than the smallest subnormal: refused, not stored as 0.
    EXPECT_EQ(parse_number_token("0x0.00000000000000000000000001p-1000").status, TokenStatus::underflow);
    EXPECT_EQ(parse_number_token("0x0p-5000").status, TokenStatus::binary);  // zero is zero
    auto t = parse_number_token("0x0.0000000000000001p+2");
    ASSERT_EQ(t.status, TokenStatus::binary);
    EXPECT_EQ(t.value, 0x0.0000000000000001p+2);
    t = parse_number_token("0xfp-1070");  // subnormal, not zero
    ASSERT_EQ(t.status, TokenStatus::binary);
    EXPECT_EQ(t.value, 0xfp-1070);
}

}  // namespace
}  // namespace gfxstat::data

namespace gfxstat::data {
namespace {

// 1e-400 used to be stored as 0: three such values gave a standard
// deviation of 0. Values that underflow to 0 are refused like overflow;
// subnormals (representable, if imprecisely) and zeros are kept.
TEST(NumberToken, UnderflowToZeroRefused) {
    for (const char* s : {"1e-400", "-2e-400", "3.0e-330", "1.23456789012345678901e-400", "0.0000001e-320",
                          "2e-324"})
        EXPECT_EQ(parse_number_token(s).status, TokenStatus::underflow) << s;
    for (const char* s : {"0e-400", "0.000e-9999", "-0"}) {
        const NumberToken t = parse_number_token(s);
        EXPECT_EQ(t.status, TokenStatus::decimal) << s;
    }
    for (const char* s : {"5e-324", "4.9406564584124654e-324", "1e-310", "2.2250738585072014e-308",
                          "1.234567890123456789012e-320"}) {
        const NumberToken t = parse_number_token(s);
        ASSERT_TRUE(t.status == TokenStatus::decimal || t.status == TokenStatus::binary) << s;
        const double v = t.status == TokenStatus::binary ? t.value
                                                         : std::strtod(s, nullptr);
        EXPECT_EQ(v, std::strtod(s, nullptr)) << s;
        EXPECT_NE(v, 0.0) << s;
    }
    EXPECT_STREQ(describe(TokenStatus::underflow), "too close to 0 for a double (it would be stored as 0)");
}

// The significand and the binary double share their bytes: a binary
// token reads as no decimal significand (0), as when they were apart, and
// "-0" is a decimal zero that keeps its sign.
TEST(NumberToken, SharedSignificandAndDouble) {
    const NumberToken hex = parse_number_token("0x1.8p3");
    EXPECT_EQ(hex.status, TokenStatus::binary);
    EXPECT_EQ(hex.value, 12.0);
    EXPECT_EQ(decimal_significand(hex), 0u);
    EXPECT_EQ(decimal_significand(parse_number_token("1234567890123456789012")), 0u);
    EXPECT_EQ(decimal_significand(parse_number_token("x")), 0u);
    EXPECT_EQ(decimal_significand(parse_number_token("42e-1")), 42u);
    const NumberToken zero = parse_number_token("-0.00");
    EXPECT_EQ(zero.status, TokenStatus::decimal);
    EXPECT_TRUE(zero.negative);
    EXPECT_EQ(decimal_significand(zero), 0u);
}

}  // namespace
}  // namespace gfxstat::data
