// SPDX-License-Identifier: MIT
// The block orders of gfxstat ab (drivers/ab_schedule.h) and the splitting
// of a variant's --command into words (drivers/command_words.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "drivers/command_words.h"
#include "drivers/ab_schedule.h"

using gfxstat::drivers::split_command_words;
using gfxstat::drivers::AbOrder;
using gfxstat::drivers::block_order;

TEST(AbSchedule, AlternateAndAbba) {
    for (uint64_t b = 0; b < 6; ++b) {
        EXPECT_EQ(block_order(AbOrder::alternate, 3, b, 1), (std::vector<size_t>{0, 1, 2}));
        const std::vector<size_t> want = b % 2 ? std::vector<size_t>{2, 1, 0} : std::vector<size_t>{0, 1, 2};
        EXPECT_EQ(block_order(AbOrder::abba, 3, b, 1), want);
    }
}

TEST(AbSchedule, RandomBlocksArePermutationsDependingOnlyOnSeedAndBlock) {
    std::set<std::vector<size_t>> seen;
    for (uint64_t b = 0; b < 200; ++b) {
        const auto o = block_order(AbOrder::random, 4, b, 42);
        auto sorted = o;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(sorted, (std::vector<size_t>{0, 1, 2, 3}));
        EXPECT_EQ(o, block_order(AbOrder::random, 4, b, 42)) << "block " << b;
        seen.insert(o);
    }
    // 200 blocks of 24 possible orders: nearly all appear.
    EXPECT_GE(seen.size(), 20u);
    EXPECT_NE(block_order(AbOrder::random, 4, 0, 42), block_order(AbOrder::random, 4, 0, 43)) << "seed ignored?";
}

TEST(AbSchedule, RandomIsBalancedForTwoVariants) {
    // Who goes first is a fair coin: 10000 blocks give 5000 +- 4 sd (200).
    size_t baseline_first = 0;
    for (uint64_t b = 0; b < 10000; ++b) baseline_first += block_order(AbOrder::random, 2, b, 7)[0] == 0;
    EXPECT_NEAR(static_cast<double>(baseline_first), 5000, 200);
    // Every position of every variant equally often with three variants.
    std::map<std::pair<size_t, size_t>, size_t> at;
    for (uint64_t b = 0; b < 9000; ++b) {
        const auto o = block_order(AbOrder::random, 3, b, 11);
        for (size_t p = 0; p < 3; ++p) ++at[{o[p], p}];
    }
    for (const auto& [key, count] : at) EXPECT_NEAR(static_cast<double>(count), 3000, 180);
}

TEST(AbSchedule, OrderNames) {
    EXPECT_EQ(gfxstat::drivers::parse_ab_order("abba"), AbOrder::abba);
    EXPECT_EQ(gfxstat::drivers::parse_ab_order("alternate"), AbOrder::alternate);
    EXPECT_EQ(gfxstat::drivers::parse_ab_order("random"), AbOrder::random);
    EXPECT_FALSE(gfxstat::drivers::parse_ab_order("ab"));
    EXPECT_STREQ(gfxstat::drivers::ab_order_name(AbOrder::abba), "abba");
}

TEST(CommandWords, SplitsLikeAShellWithoutExpanding) {
    using V = std::vector<std::string>;
    EXPECT_EQ(split_command_words("glmark2-es2 --size 640x480  -b shading"),
              (V{"glmark2-es2", "--size", "640x480", "-b", "shading"}));
    EXPECT_EQ(split_command_words("sh -c 'echo $HOME; ls *'"), (V{"sh", "-c", "echo $HOME; ls *"}));
    EXPECT_EQ(split_command_words("a\" b \\\"c\\\\\" d"), (V{"a b \"c\\", "d"}));
    EXPECT_EQ(split_command_words("say\\ hi ''"), (V{"say hi", ""}));
    EXPECT_EQ(split_command_words("x\"\\n\""), (V{"x\\n"}));
    EXPECT_TRUE(split_command_words("   ").empty());
    EXPECT_THROW(split_command_words("echo 'open"), std::invalid_argument);
    EXPECT_THROW(split_command_words("echo \"open"), std::invalid_argument);
    EXPECT_THROW(split_command_words("echo \\"), std::invalid_argument);
}
