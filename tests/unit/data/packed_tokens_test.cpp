// SPDX-License-Identifier: MIT
#include "data/packed_tokens.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gfxstat::data {
namespace {

void expect_same(const NumberToken& a, const NumberToken& b, const std::string& what) {
    EXPECT_EQ(a.status, b.status) << what;
    EXPECT_EQ(a.negative, b.negative) << what;
    EXPECT_EQ(a.exponent, b.exponent) << what;
    if (a.status == TokenStatus::binary) EXPECT_EQ(a.value, b.value) << what;
    else EXPECT_EQ(a.significand, b.significand) << what;
}

// Every value read back, by index and in order, is the token added.
void expect_holds(const PackedTokens& p, const std::vector<NumberToken>& tokens) {
    ASSERT_EQ(p.size(), tokens.size());
    for (size_t i = 0; i < tokens.size(); ++i) expect_same(p[i], tokens[i], "at " + std::to_string(i));
    size_t i = 0;
    p.for_each([&](const NumberToken& t) {
        ASSERT_LT(i, tokens.size());
        expect_same(t, tokens[i], "each at " + std::to_string(i));
        ++i;
    });
    EXPECT_EQ(i, tokens.size());
}

std::vector<NumberToken> parsed(const std::vector<std::string>& texts) {
    std::vector<NumberToken> out;
    for (const auto& s : texts) out.push_back(parse_number_token(s));
    return out;
}

TEST(PackedTokens, PlainDecimalsStayPackedAndReadBackExactly) {
    const auto tokens = parsed({"7", "0", "-0", "-0.0", "1.50", "-2.25", "100.125", "0.001", "1e21", "2.5E-3",
                                "9007199254740991", "1.797693134862315e308", "4.9e-324", "2.225073858507201e-308",
                                "123456789012345e-330", "-99999999999999.9"});
    PackedTokens p;
    p.reserve(tokens.size());
    for (const auto& t : tokens) {
        ASSERT_EQ(t.status, TokenStatus::decimal);
        p.push_back(t);
    }
    EXPECT_TRUE(p.packed());
    expect_holds(p, tokens);
}

TEST(PackedTokens, AValueThatDoesNotFitTurnsTheColumnIntoTokens) {
    // 2^53 needs 54 bits; 18 digits; a hexadecimal float and 19 digits are binary.
    for (const std::string odd : {"9007199254740992", "123456789012345678", "0x1.8p3", "12345678901234567891"}) {
        const auto tokens = parsed({"1", "-2.5", "3e-7", odd, "4", "5.25"});
        PackedTokens p;
        p.reserve(tokens.size());
        for (const auto& t : tokens) p.push_back(t);
        EXPECT_FALSE(p.packed()) << odd;
        expect_holds(p, tokens);
    }
    // The first value already.
    const auto tokens = parsed({"0x10", "1", "2"});
    PackedTokens p;
    for (const auto& t : tokens) p.push_back(t);
    EXPECT_FALSE(p.packed());
    expect_holds(p, tokens);
}

TEST(PackedTokens, ReleaseFreesEverything) {
    PackedTokens p;
    p.reserve(1000);
    for (int i = 0; i < 100; ++i) p.push_back(parse_number_token(std::to_string(i)));
    EXPECT_EQ(p.size(), 100u);
    p.release();
    EXPECT_TRUE(p.empty());
    EXPECT_TRUE(p.packed());
}

}  // namespace
}  // namespace gfxstat::data
