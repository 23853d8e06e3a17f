// SPDX-License-Identifier: MIT
#include "data/sample.h"

#include <gtest/gtest.h>

#include "tests/unit/test_support.h"

namespace gfxstat::data {
namespace {

using test::sample_from_tokens;

std::vector<double> values(const Sample& s) {
    std::vector<double> out;
    const auto v = s.view();
    for (size_t i = 0; i < v.size(); ++i) out.push_back(v.at(i));
    return out;
}

TEST(Sample, TypicalDataIsInt32WithSharedExponent) {
    auto s = sample_from_tokens({"13.135367", "5.395", "143", "-0.5"});
    ASSERT_TRUE(std::holds_alternative<std::vector<int32_t>>(s.values));
    EXPECT_EQ(s.exponent, -6);
    EXPECT_TRUE(s.exact());
    EXPECT_EQ(values(s), (std::vector<double>{13.135367, 5.395, 143, -0.5}));
}

TEST(Sample, GrowsToInt64WhenSignificandsDoNotFit) {
    auto s = sample_from_tokens({"1.5", "3000000000"});
    ASSERT_TRUE(std::holds_alternative<std::vector<int64_t>>(s.values));
    EXPECT_EQ(values(s), (std::vector<double>{1.5, 3e9}));
    // Rescaling existing values to a finer exponent can also force int64.
    auto t = sample_from_tokens({"3000000", "0.001"});
    ASSERT_TRUE(std::holds_alternative<std::vector<int64_t>>(t.values));
    EXPECT_EQ(t.exponent, -3);
    EXPECT_EQ(values(t), (std::vector<double>{3e6, 0.001}));
}

TEST(Sample, FallsBackToDoublesAndSaysSo) {
    auto s = sample_from_tokens({"1e-200", "1e200", "3"});  // 400 decades apart
    ASSERT_TRUE(std::holds_alternative<std::vector<double>>(s.values));
    EXPECT_FALSE(s.exact());
    EXPECT_EQ(s.binary_tokens, 0u);
    EXPECT_EQ(values(s), (std::vector<double>{1e-200, 1e200, 3}));
    auto h = sample_from_tokens({"1", "0x1p-1", "2"});
    EXPECT_FALSE(h.exact());
    EXPECT_EQ(h.binary_tokens, 1u);
    EXPECT_EQ(values(h), (std::vector<double>{1, 0.5, 2}));
}

TEST(Sample, ZerosNeverForceARescale) {
    auto s = sample_from_tokens({"0e-300", "0", "7", "0.0"});
    ASSERT_TRUE(std::holds_alternative<std::vector<int32_t>>(s.values));
    EXPECT_EQ(values(s), (std::vector<double>{0, 0, 7, 0}));
}

// Chunk boundaries and mode changes midway through a large sample.
TEST(Sample, LargeSampleAcrossChunksAndModes) {
    SampleBuilder b;
    const int n = 200000;
    for (int i = 0; i < n; ++i) b.add(parse_number_token(std::to_string(i)));
    b.add(parse_number_token("0.5"));         // rescale all by 10
    b.add(parse_number_token("5000000000"));  // int64
    Sample s = std::move(b).finish("big");
    ASSERT_EQ(s.size(), static_cast<size_t>(n + 2));
    ASSERT_TRUE(std::holds_alternative<std::vector<int64_t>>(s.values));
    const auto v = s.view();
    EXPECT_EQ(v.at(0), 0);
    EXPECT_EQ(v.at(65536), 65536);
    EXPECT_EQ(v.at(n - 1), n - 1);
    EXPECT_EQ(v.at(n), 0.5);
    EXPECT_EQ(v.at(n + 1), 5e9);
}

// The first chunk starts small and doubles (a wide table holds thousands
// of one-value samples): every size around its growth points, with the
// switch to int64 and to doubles made while it is still small, through
// both add() and add_decimal()'s inline path.
TEST(Sample, SmallFirstChunkGrowsThroughModes) {
    for (int n : {1, 15, 16, 17, 31, 32, 33, 100, 1000, 70000}) {
        for (int change = 0; change < 3; ++change) {
            SampleBuilder b;
            std::vector<double> want;
            for (int i = 0; i < n; ++i) {
                if (i % 2) b.add_decimal(false, static_cast<uint64_t>(i), 0);
                else b.add(parse_number_token(std::to_string(i)));
                want.push_back(i);
                if (i == n / 2 && change == 1) {
                    b.add(parse_number_token("5000000000"));  // int64 while chunk 0 is small
                    want.push_back(5e9);
                }
                if (i == n / 2 && change == 2) {
                    b.add(parse_number_token("0x1p-3"));  // doubles
                    want.push_back(0.125);
                }
            }
            Sample s = std::move(b).finish("s");
            ASSERT_EQ(s.size(), want.size()) << n << " " << change;
            const auto v = s.view();
            for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(v.at(i), want[i]) << n << " " << change << " " << i;
        }
    }
}

}  // namespace
}  // namespace gfxstat::data
