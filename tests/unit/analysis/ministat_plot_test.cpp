// SPDX-License-Identifier: MIT
#include "analysis/ministat_plot.h"

#include <gtest/gtest.h>

#include "analysis/moments.h"
#include "analysis/order_stats.h"
#include "tests/unit/test_support.h"

namespace gfxstat::analysis {
namespace {

struct Sets {
    std::vector<data::Sample> samples;
    std::vector<PlotSet> sets;
};

Sets make_sets(const std::vector<std::vector<std::string>>& columns) {
    Sets s;
    for (const auto& col : columns) s.samples.push_back(test::sample_from_tokens(col));
    for (auto& sample : s.samples) {
        const Moments m = moments(sample.view());
        const double med = median(sample.mutable_view());
        const Range r = range(sample.view());
        s.sets.push_back({sample.view(), m.mean, med, m.stddev, r.min, r.max});
    }
    return s;
}

std::string join(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

// Byte for byte what Debian's ministat -w 30 prints for these two files.
TEST(MinistatPlot, MatchesMinistatWhereMinistatIsRight) {
    auto s = make_sets({{"1", "2", "3", "4", "5"}, {"3", "4", "5", "6", "7", "8", "9"}});
    PlotOptions opt;
    opt.width = 30;
    EXPECT_EQ(join(ministat_plot(s.sets, opt)),
              "+------------------------------+\n"
              "|x   x  *   *   *  +   +  +   +|\n"
              "|  |____A__|__|____A_______|   |\n"
              "+------------------------------+\n");
}

// ministat -s -w 30 draws only one row here (the last set's tallest stack)
// and loses two of the three 2s; gfxstat draws all three.
TEST(MinistatPlot, DrawsEveryStackToItsFullHeight) {
    auto s = make_sets({{"2", "2", "2", "5", "7"}, {"3", "4", "5", "6", "7", "8", "9"}});
    PlotOptions opt;
    opt.width = 30;
    opt.separate_bars = true;
    EXPECT_EQ(join(ministat_plot(s.sets, opt)),
              "+------------------------------+\n"
              "|   x                          |\n"
              "|   x                          |\n"
              "|   x  +   +   *   +  *   +   +|\n"
              "||__M_____A_______|            |\n"
              "|          |_______A_______|   |\n"
              "+------------------------------+\n");
}

TEST(MinistatPlot, CollisionSymbolsAreBitwiseOr) {
    // A cell holding values of several sets shows the symbol of the OR of
    // their numbers, as ministat does: sets 1 and 2 give 3 ('*', the same as
    // set 3's own symbol), sets 2 and 4 give 6 ('@').
    EXPECT_EQ(ministat_symbol(1 | 2), '*');
    EXPECT_EQ(ministat_symbol(2 | 4), '@');
    EXPECT_EQ(ministat_symbol(1 | 2 | 4), 'O');
    EXPECT_EQ(ministat_symbol(0), ' ');
}

TEST(MinistatPlot, ZeroSpanAndNarrowWidth) {
    auto s = make_sets({{"4", "4", "4"}});
    PlotOptions opt;
    EXPECT_EQ(join(ministat_plot(s.sets, opt)), "[no plot, span is zero width]\n");
    auto t = make_sets({{"1", "2", "3"}});
    opt.width = 1;  // ministat divides by zero and crashes here
    EXPECT_EQ(join(ministat_plot(t.sets, opt)), "[no plot, width 1 is too narrow]\n");
    opt.width = 2;  // bins [0, 2) and [2, 4): 2 and 3 share the second
    EXPECT_EQ(join(ministat_plot(t.sets, opt)), "+--+\n| x|\n|xx|\n||A|\n+--+\n");
}

TEST(MinistatPlot, TallStacksAreScaledWithANote) {
    std::vector<std::string> many(250, "1");
    many.push_back("2");
    many.push_back("3");
    auto s = make_sets({many});
    PlotOptions opt;
    opt.width = 20;
    opt.max_rows = 100;
    const auto lines = ministat_plot(s.sets, opt);
    // 250 values in one column at 3 per row: 84 rows, plus frame and bar.
    ASSERT_EQ(lines.size(), 1 + 84 + 1 + 1 + 1);
    EXPECT_EQ(lines.back(), "[histogram scaled: each row stands for up to 3 values]");
    // mean - sd = 0.87 widens the range left of 1, so the 1s are in column 1.
    EXPECT_EQ(lines[1], "| x                  |");
}

// Values near the double limit: ministat's span overflows to inf and it
// crashes; gfxstat places them with long double.
TEST(MinistatPlot, ValuesNearDoubleMax) {
    auto s = make_sets({{"-1.7e308", "1.7e308", "0"}});
    PlotOptions opt;
    opt.width = 11;
    const auto lines = ministat_plot(s.sets, opt);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[1], "|x    x    x|");
}

}  // namespace
}  // namespace gfxstat::analysis
