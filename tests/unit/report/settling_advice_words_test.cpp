// SPDX-License-Identifier: MIT
// report/settling_advice_words: the advice on a threshold out of
// --max-runs' reach, as ab's progress and compare's verdicts say it.
#include "report/settling_advice_words.h"

#include <gtest/gtest.h>

#include <string>

#include "drivers/ab_runner.h"

namespace {

using gfxstat::analysis::SettlingAdvice;

SettlingAdvice llvmpipe_aa() {
    SettlingAdvice a;
    a.max_blocks = 100;
    a.threshold = 0.01;
    a.blocks_needed = 3187;
    a.settling_threshold = 0.048;
    a.settling_blocks = 22;
    return a;
}

TEST(settling_advice_words, SaysWhatTheThresholdNeedsAndWhatWouldSettle) {
    EXPECT_EQ(gfxstat::report::settling_advice_words(llvmpipe_aa()),
              "at this noise +-1% cannot likely be settled within --max-runs 100 (it would need about 3187 runs "
              "a variant); +-4.8% would likely settle in about 22 runs a variant");
    SettlingAdvice none = llvmpipe_aa();
    none.blocks_needed.reset();
    none.settling_threshold.reset();
    EXPECT_EQ(gfxstat::report::settling_advice_words(none),
              "at this noise +-1% cannot likely be settled within --max-runs 100 (it would need more than a "
              "million runs a variant); no threshold up to +-100% would likely settle within it");
}

TEST(settling_advice_words, AbLinesAreWrappedAndSayTheRunsGoOn) {
    const auto lines = gfxstat::report::ab_advice_lines(llvmpipe_aa(), "b", "a", "gfxstat ab");
    ASSERT_GE(lines.size(), 3u);
    EXPECT_EQ(lines[0].rfind("gfxstat ab: advice: b vs a: at this noise +-1%", 0), 0u) << lines[0];
    std::string all;
    for (size_t i = 0; i < lines.size(); ++i) {
        EXPECT_LE(lines[i].size(), 72u) << lines[i];
        if (i) EXPECT_EQ(lines[i].rfind("  ", 0), 0u) << lines[i];
        all += (i ? " " : "") + lines[i].substr(i ? 2 : 0);
    }
    EXPECT_NE(all.find(gfxstat::report::settling_advice_words(llvmpipe_aa())), std::string::npos) << all;
    EXPECT_NE(all.find("ab goes on at +-1%"), std::string::npos) << all;
    // A label from the command line reaches the terminal escaped.
    const auto escaped = gfxstat::report::ab_advice_lines(llvmpipe_aa(), "b\x1b[2J", "a", "gfxstat ab");
    for (const std::string& line : escaped) EXPECT_EQ(line.find('\x1b'), std::string::npos) << line;
}

TEST(settling_advice_words, CompareAddsItToTheReasonOnlyWhenThere) {
    gfxstat::analysis::Verdict v;
    v.reason = "the 95% confidence sequence [-9%, +8%] after 100 blocks holds 0";
    EXPECT_EQ(gfxstat::report::verdict_reason(v), v.reason);
    v.settling = llvmpipe_aa();
    EXPECT_EQ(gfxstat::report::verdict_reason(v),
              v.reason + "; " + gfxstat::report::settling_advice_words(llvmpipe_aa()));
}

TEST(ab_advice_changed, OnlyAThresholdMovedByHalfAgainIsSaidAgain) {
    using gfxstat::drivers::ab_advice_changed;
    EXPECT_FALSE(ab_advice_changed(0.04, 0.04));
    EXPECT_FALSE(ab_advice_changed(0.04, 0.059));
    EXPECT_TRUE(ab_advice_changed(0.04, 0.06));
    EXPECT_FALSE(ab_advice_changed(0.06, 0.041));
    EXPECT_TRUE(ab_advice_changed(0.06, 0.04));
    EXPECT_TRUE(ab_advice_changed(std::nullopt, 0.04));
    EXPECT_TRUE(ab_advice_changed(0.04, std::nullopt));
    EXPECT_FALSE(ab_advice_changed(std::nullopt, std::nullopt));
}

}  // namespace
