// SPDX-License-Identifier: MIT
// Paste-ready output: readable units, widths in display columns, tables
// that fit, and the keys of reports with more samples than a plot draws.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "analysis/ministat_plot.h"
#include "report/sample_keys.h"
#include "text/fit_table.h"
#include "text/readable_units.h"
#include "text/text_width.h"
#include "report/headline_words.h"

namespace gfxstat::text {
namespace {

TEST(ReadableUnits, SecondsOfMillisecondsReadAsMilliseconds) {
    const DisplayUnit u = readable_unit("s", 0.00187275);
    EXPECT_EQ(u.unit, "ms");
    EXPECT_TRUE(u.scaled());
    EXPECT_EQ(scaled_value(0.00187275, u, 3, true), "+1.87 ms");
    EXPECT_EQ(scaled_value(-0.00187275, u, 3, true), "-1.87 ms");
    // The row's other numbers share the unit, however small.
    EXPECT_EQ(scaled_value(0.0000005, u, 3), "0.0005 ms");
}

TEST(ReadableUnits, ADifferenceGetsTheUnitOfItsOwnMagnitude) {
    // 2.000 s vs 2.001 s: the row reads in s, the difference in ms.
    const DisplayUnit row = readable_unit("s", 2.0);
    EXPECT_EQ(row.unit, "s");
    const DisplayUnit d = difference_unit(row, 0.00187275);
    EXPECT_EQ(d.unit, "ms");
    EXPECT_EQ(scaled_value(0.00187275, d, 3, true), "+1.87 ms");
    // A size row in MiB, a 5000 B difference in KiB.
    const DisplayUnit sizes = readable_unit("B", 5e6);
    EXPECT_EQ(sizes.unit, "MiB");
    EXPECT_EQ(scaled_value(5000, difference_unit(sizes, 5000), 3, true), "+4.88 KiB");
    // No difference: the row's unit; an unknown unit stays as recorded.
    EXPECT_EQ(difference_unit(row, 0).unit, "s");
    EXPECT_EQ(difference_unit(readable_unit("fps", 60), 0.5).unit, "fps");
}

TEST(ReadableUnits, TheBoundaryIsWhereThePrintedNumberReadsOne) {
    // 999.5 us prints as 1e+03 in us: it is 1 ms.
    EXPECT_EQ(readable_unit("us", 999.5).unit, "ms");
    EXPECT_EQ(scaled_value(999.5, readable_unit("us", 999.5)), "1 ms");
    // 999.4 us stays in us.
    EXPECT_EQ(readable_unit("us", 999.4).unit, "us");
    EXPECT_EQ(scaled_value(999.4, readable_unit("us", 999.4)), "999 us");
    // From the other side: 0.9994 ms reads 0.999 in ms, so us.
    EXPECT_EQ(readable_unit("ms", 0.9994).unit, "us");
    EXPECT_EQ(scaled_value(0.9994, readable_unit("ms", 0.9994)), "999 us");
    EXPECT_EQ(readable_unit("ms", 1.0).unit, "ms");
    EXPECT_FALSE(readable_unit("ms", 1.0).scaled());
}

TEST(ReadableUnits, NegativeReferencesChooseByMagnitude) {
    const DisplayUnit u = readable_unit("s", -0.0025);
    EXPECT_EQ(u.unit, "ms");
    EXPECT_EQ(scaled_value(-0.0025, u), "-2.5 ms");
}

TEST(ReadableUnits, ZeroNanAndInfinityKeepTheRecordedUnit) {
    for (double ref : {0.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
        const DisplayUnit u = readable_unit("s", ref);
        EXPECT_EQ(u.unit, "s");
        EXPECT_FALSE(u.scaled());
    }
    const DisplayUnit u = readable_unit("s", 0.002);
    EXPECT_EQ(scaled_number(std::nan(""), u), "nan");
    EXPECT_EQ(scaled_number(0, u, 3, true), "+0");
}

TEST(ReadableUnits, LaddersEndAtNanosecondsAndSeconds) {
    EXPECT_EQ(scaled_value(0.5, readable_unit("ns", 0.5)), "0.5 ns");
    EXPECT_EQ(readable_unit("s", 3600).unit, "s");
    // No "4e+03" where a whole number reads better.
    EXPECT_EQ(scaled_value(3600, readable_unit("s", 3600)), "3600 s");
    EXPECT_EQ(readable_unit("ns", 2.5e9).unit, "s");
    EXPECT_EQ(scaled_value(2.5e9, readable_unit("ns", 2.5e9)), "2.5 s");
}

TEST(ReadableUnits, SpellingsOfTimesAreRecognised) {
    EXPECT_EQ(readable_unit("\xc2\xb5s", 2500).unit, "ms");
    EXPECT_EQ(readable_unit("\xc2\xb5s", 25).unit, "us");
    EXPECT_EQ(readable_unit("usec", 25).unit, "us");
    EXPECT_EQ(readable_unit("seconds", 0.25).unit, "ms");
    EXPECT_EQ(readable_unit("msec", 2500).unit, "s");
}

TEST(ReadableUnits, BinarySizes) {
    EXPECT_EQ(scaled_value(524288, readable_unit("KiB", 524288)), "512 MiB");
    // 1000 KiB is below 1 MiB: a whole number, not 1e+03.
    EXPECT_EQ(scaled_value(1000, readable_unit("KiB", 1000)), "1000 KiB");
    EXPECT_EQ(readable_unit("KiB", 1023.9).unit, "MiB");
    EXPECT_EQ(readable_unit("bytes", 3 * 1024.0 * 1024 * 1024).unit, "GiB");
    EXPECT_EQ(readable_unit("B", 512).unit, "B");
    // KB may be 1000 or 1024: not scaled.
    EXPECT_FALSE(readable_unit("KB", 524288).scaled());
}

TEST(ReadableUnits, APerSuffixIsKept) {
    EXPECT_EQ(scaled_value(25000, readable_unit("ns/op", 25000)), "25 us/op");
    EXPECT_EQ(readable_unit("MiB/s", 4096).unit, "GiB/s");
}

TEST(ReadableUnits, OtherUnitsAreShownAsRecorded) {
    for (const char* unit : {"fps", "", "frames", "ops/s"}) {
        const DisplayUnit u = readable_unit(unit, 1234.5);
        EXPECT_EQ(u.unit, unit);
        EXPECT_FALSE(u.scaled());
    }
    EXPECT_EQ(scaled_value(61.25, readable_unit("fps", 61.25), 6), "61.25 fps");
    EXPECT_EQ(scaled_value(61.25, readable_unit("", 61.25), 6), "61.25");
}

TEST(TextWidth, CodePointsAreColumns) {
    EXPECT_EQ(display_width("abc"), 3u);
    EXPECT_EQ(display_width("\xc3\xa9\xe2\x80\x93x"), 3u);  // é – x
    EXPECT_EQ(display_width(""), 0u);
}

TEST(TextWidth, ClipMarksTheCutAndNeverSplitsACodePoint) {
    EXPECT_EQ(clip_columns("abcdef", 6), "abcdef");
    EXPECT_EQ(clip_columns("abcdef", 4), "abc~");
    EXPECT_EQ(clip_columns("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 3), "\xc3\xa9\xc3\xa9~");
    EXPECT_EQ(display_width(clip_columns("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 3)), 3u);
}

TEST(TextWidth, SplitKeepsEverything) {
    const std::vector<std::string> pieces = split_columns("\xc3\xa9" "bcdefg", 3);
    ASSERT_EQ(pieces.size(), 3u);
    EXPECT_EQ(pieces[0], "\xc3\xa9" "bc");
    EXPECT_EQ(pieces[2], "g");
}

TEST(TextWidth, WrapNeverExceedsTheWidth) {
    const std::string text = "a sentence with /a/path/that/is/much/longer/than/the/line/it/is/printed/on and more words";
    const auto lines = wrap_text(text, 30, 2, 4);
    EXPECT_LE(widest(lines), 30u);
    std::string joined;
    for (const auto& l : lines) joined += l;
    for (const char* word : {"sentence", "more", "words", "/a/path/"}) EXPECT_NE(joined.find(word), std::string::npos);
    EXPECT_EQ(lines[0].substr(0, 3), "  a");
    EXPECT_EQ(lines[1].substr(0, 4), "    ");
}

TEST(TextWidth, PaddingCountsColumns) {
    EXPECT_EQ(pad_right("\xc3\xa9", 3), "\xc3\xa9  ");
    EXPECT_EQ(pad_left("ab", 4), "  ab");
    EXPECT_EQ(pad_left("abcde", 4), "abcde");
}

TEST(FitTable, APlainTableWhenItFits) {
    TextTable t;
    t.head = {"metric", "a", "b"};
    t.rows = {{"fps", "5", "6"}};
    const auto lines = fit_table(t, 72);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "  metric  a  b");
    EXPECT_EQ(lines[1], "  fps     5  6");
}

TEST(FitTable, VariantColumnsTakeKeysWhenTheirLabelsAreTooWide) {
    const std::string a(40, 'a'), b(40, 'b');
    TextTable t{{"metric", a, b}, {{"fps", "5", "6"}}, 1, {"x", "+"}};
    const auto lines = fit_table(t, 72);
    EXPECT_LE(widest(lines), 72u);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0], "  x " + a);
    EXPECT_EQ(lines[1], "  + " + b);
    EXPECT_EQ(lines[2], "  metric  x  +");
}

TEST(FitTable, StackedWhenNothingElseFits) {
    const std::string long_value(100, 'v');
    TextTable t;
    t.head = {"variant", "runs", "left out"};
    t.rows = {{"base", "12", long_value}};
    const auto lines = fit_table(t, 40);
    EXPECT_LE(widest(lines), 40u);
    EXPECT_EQ(lines[0], "  base");
    EXPECT_EQ(lines[1], "    runs: 12");
    std::string joined;
    for (const auto& l : lines) joined += l;
    EXPECT_EQ(std::count(joined.begin(), joined.end(), 'v'), 100);
}

TEST(SampleKeys, SymbolsWhileAPlotDrawsThemNumbersBeyond) {
    EXPECT_TRUE(analysis::plot_can_draw(7));
    EXPECT_FALSE(analysis::plot_can_draw(8));
    const cli::SampleKeys seven(7);
    EXPECT_TRUE(seven.symbols());
    EXPECT_EQ(seven.key(0), "x");
    EXPECT_EQ(seven.key(6), "O");
    const cli::SampleKeys twelve(12);
    EXPECT_FALSE(twelve.symbols());
    EXPECT_EQ(twelve.width(), 2u);
    EXPECT_EQ(twelve.key(0), " 1");
    EXPECT_EQ(twelve.key(11), "12");
    EXPECT_EQ(cli::plot_overflow_words(9), "the plot draws at most 7 data sets; 9 given: see the table");
}

}  // namespace
}  // namespace gfxstat::text

namespace gfxstat::cli {
namespace {

TEST(ChangeWords, BriefAndFullReportSpellPercentsAlike) {
    // One spelling for both: "+0.08%" and "+2.0%", never "+2%".
    EXPECT_EQ(bound_percent(0.0008), "+0.08%");
    EXPECT_EQ(bound_percent(0.02), "+2.0%");
    EXPECT_EQ(bound_percent(-0.0153), "-1.5%");
    EXPECT_EQ(change_percent(0.000452), "+0.0452%");
    EXPECT_EQ(difference_value(0.000904635, text::readable_unit("s", 2.0), 0.000904635, true), "+905 us");
}

}  // namespace
}  // namespace gfxstat::cli
