// SPDX-License-Identifier: MIT
// Summary statistics as mailing-list threads paste them
// (formats/summary_table.h): ministat reports as gfxstat ministat and
// Debian's /usr/bin/ministat print them, quoted in a mail reply, under
// gfxstat ministat's per-metric headings, and damaged by a mail archive
// (a real intel-gfx thread); CSV, markdown and whitespace tables; and each
// way a paste can be wrong, with the file, line and what was expected.
#include "formats/summary_table.h"

#include <gtest/gtest.h>

#include <string>

#include "data/file_read.h"
#include "data/input_error.h"

namespace gfxstat::formats {
namespace {

std::string fixture(const std::string& name) { return std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/summaries/" + name; }

// The message of the InputError that parsing `text` throws ("" when none).
std::string error_of(const std::string& text, const std::string& name = "paste.txt") {
    try {
        parse_summary_table(text, name);
    } catch (const data::InputError& e) {
        return e.what();
    }
    return "";
}

void expect_row(const SummaryRow& r, const std::string& label, const std::string& bench, size_t n, double mean,
                double sd, size_t line) {
    EXPECT_EQ(r.label, label);
    EXPECT_EQ(r.bench, bench);
    EXPECT_EQ(r.n, n);
    EXPECT_EQ(r.mean, mean);  // the double nearest the printed digits, exactly
    EXPECT_EQ(r.sd, sd);
    EXPECT_EQ(r.line, line);
}

TEST(SummaryTable, GfxstatMinistatReport) {
    const SummaryTable t = read_summary_table(fixture("ministat-bdw.txt"));
    EXPECT_EQ(t.layout, SummaryLayout::ministat);
    EXPECT_FALSE(t.has_bench);
    ASSERT_EQ(t.rows.size(), 2u);
    expect_row(t.rows[0], "examples/bdw-syslatency-mean-a.txt", "", 9, 1614.5434, 361.81264, 9);
    expect_row(t.rows[1], "examples/bdw-syslatency-mean-b.txt", "", 8, 1545.3191, 285.19544, 10);
}

TEST(SummaryTable, DebianMinistatWithDifferenceBlocks) {
    const SummaryTable t = read_summary_table(fixture("ministat-three.txt"));
    ASSERT_EQ(t.rows.size(), 3u);
    expect_row(t.rows[0], "drm-tip.txt", "", 12, 61.656667, 0.61188729, 10);
    expect_row(t.rows[1], "patched.txt", "", 10, 63.264, 0.95235614, 11);
    // After "Difference at 95.0% confidence" and its three tab-indented lines.
    expect_row(t.rows[2], "revert.txt", "", 11, 61.209091, 0.66587468, 16);
}

TEST(SummaryTable, QuotedInAMailReply) {
    // "> > " on the report, "> " and prose around it.
    const SummaryTable t = read_summary_table(fixture("mail-reply-quoted.txt"));
    EXPECT_EQ(t.layout, SummaryLayout::ministat);
    ASSERT_EQ(t.rows.size(), 3u);
    expect_row(t.rows[0], "drm-tip.txt", "", 12, 61.656667, 0.61188729, 14);
    expect_row(t.rows[1], "patched.txt", "", 10, 63.264, 0.95235614, 15);
    expect_row(t.rows[2], "revert.txt", "", 11, 61.209091, 0.66587468, 20);
}

TEST(SummaryTable, QuotingStyles) {
    const std::string table =
        "    N           Min           Max        Median           Avg        Stddev\n"
        "x   3             1             3             2             2             1\n"
        "+   4             2             5           3.5           3.5     1.2909944\n";
    for (const std::string prefix : {"> ", ">> ", "> > ", ">>", " > > ", "> >> "}) {
        std::string quoted = prefix + "x base\n" + prefix + "+ patch\n";
        for (size_t start = 0; start < table.size();) {
            const size_t eol = table.find('\n', start);
            quoted += prefix + table.substr(start, eol - start + 1);
            start = eol + 1;
        }
        const SummaryTable t = parse_summary_table(quoted, "reply.eml");
        ASSERT_EQ(t.rows.size(), 2u) << prefix;
        expect_row(t.rows[0], "base", "", 3, 2, 1, 4);
        expect_row(t.rows[1], "patch", "", 4, 3.5, 1.2909944, 5);
    }
}

TEST(SummaryTable, MinistatWithoutLegendNamesSetsBySymbol) {
    const SummaryTable t = parse_summary_table(
        "    N           Min           Max        Median           Avg        Stddev\r\n"
        "x   3             1             3             2             2             1\r\n"
        "+   4             2             5           3.5           3.5     1.2909944\r\n",
        "crlf.txt");
    ASSERT_EQ(t.rows.size(), 2u);
    EXPECT_EQ(t.rows[0].label, "x");
    EXPECT_EQ(t.rows[1].label, "+");
}

TEST(SummaryTable, GfxstatSummaryAndCompareTables) {
    // gfxstat summary: quartile columns, diagnostics in words below.
    SummaryTable t = read_summary_table(fixture("summary-named.txt"));
    ASSERT_EQ(t.rows.size(), 2u);
    expect_row(t.rows[0], "before", "", 9, 1614.543, 361.8126, 4);
    expect_row(t.rows[1], "after", "", 8, 1545.319, 285.1954, 5);
    // gfxstat compare's text report: its table, then everything else.
    t = read_summary_table(fixture("compare-text.txt"));
    ASSERT_EQ(t.rows.size(), 2u);
    expect_row(t.rows[0], "examples/bdw-syslatency-mean-a.txt", "", 9, 1614.543, 361.8126, 10);
    expect_row(t.rows[1], "examples/bdw-syslatency-mean-b.txt", "", 8, 1545.319, 285.1954, 11);
    // Past seven data sets the keys are numbers; a long name goes on
    // under its key; a name that fits follows its row.
    t = parse_summary_table(
        " 1 first\n"
        " 2 a-name-too-long-for-one\n"
        "   -line\n"
        "   N  Min  Q1  Median  Q3  Max  Avg  Stddev\n"
        " 1 3    1   1       2   2    3    2       1\n"
        " 2 4    1   1       2   2    3  2.5  0.5774  named here\n"
        "10 5    1   1       2   2    3    2       1\n"
        "11 notes follow\n",
        "keys.txt");
    ASSERT_EQ(t.rows.size(), 3u);
    expect_row(t.rows[0], "first", "", 3, 2, 1, 5);
    expect_row(t.rows[1], "named here", "", 4, 2.5, 0.5774, 6);
    expect_row(t.rows[2], "10", "", 5, 2, 1, 7);
    EXPECT_EQ(parse_summary_table(" 1 first\n 2 a-name-too-long-for-one\n   -line\n"
                                  "   N  Min  Q1  Median  Q3  Max  Avg  Stddev\n"
                                  " 2 4    1   1       2   2    3  2.5  0.5774\n",
                                  "keys.txt")
                  .rows[0]
                  .label,
              "a-name-too-long-for-one-line");
}

TEST(SummaryTable, MinistatHeadingsNameBenchmarks) {
    const SummaryTable t = read_summary_table(fixture("ministat-headings.txt"));
    EXPECT_TRUE(t.has_bench);
    ASSERT_EQ(t.rows.size(), 6u);
    expect_row(t.rows[0], "before", "gl_4", 6, 577, 5.2383203, 9);
    expect_row(t.rows[1], "after", "gl_4", 6, 583, 2.2449944, 10);
    expect_row(t.rows[2], "before", "gl_trex", 6, 2224, 364.43743, 24);
    expect_row(t.rows[5], "after", "gl_alu2", 6, 1154, 43.403226, 37);
}

TEST(SummaryTable, MailArchiveDamageIsRefusedWithItsLine) {
    // A real intel-gfx thread as an archive kept it: runs of spaces
    // collapsed ("MaxMedian", and "51810" for 5, 18 and 10).
    try {
        read_summary_table(fixture("mail-archive-mangled.txt"));
        FAIL() << "no error";
    } catch (const data::InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("mail-archive-mangled.txt:19: "), std::string::npos) << m;
        EXPECT_NE(m.find("spacing or line breaks changed"), std::string::npos) << m;
    }
    // A header a mail client broke before "Stddev".
    const std::string m = error_of(
        "    N           Min           Max        Median           Avg\n"
        "Stddev\n"
        "x   3             1             3             2             2\n"
        "1\n");
    EXPECT_NE(m.find("paste.txt:1: "), std::string::npos) << m;
    EXPECT_NE(m.find("line breaks changed"), std::string::npos) << m;
}

TEST(SummaryTable, CsvWithBenchmarksAndQuotedCells) {
    const SummaryTable t = read_summary_table(fixture("benches.csv"));
    EXPECT_EQ(t.layout, SummaryLayout::table);
    EXPECT_TRUE(t.has_bench);
    ASSERT_EQ(t.rows.size(), 6u);
    expect_row(t.rows[0], "mesa-24.0", "gputest/furmark", 8, 38.61, 0.42, 4);
    expect_row(t.rows[3], "mesa-24.1", "glmark2/terrain", 8, 209.8, 4.4, 7);
    expect_row(t.rows[4], "mesa-24.1", "unigine/heaven, 1080p", 8, 55.12, 0.61, 8);
}

TEST(SummaryTable, MarkdownTableWithUnitsInTheHeader) {
    const SummaryTable t = read_summary_table(fixture("fps-table.md"));
    EXPECT_FALSE(t.has_bench);
    ASSERT_EQ(t.rows.size(), 3u);
    expect_row(t.rows[0], "drm-tip", "", 10, 1432.0, 21.3, 6);
    expect_row(t.rows[1], "patch v2", "", 10, 1479.4, 24.1, 7);
    expect_row(t.rows[2], "patch v3", "", 9, 1483.1, 12.6, 8);
}

TEST(SummaryTable, WhitespaceAndTabTables) {
    const SummaryTable t = read_summary_table(fixture("plain.txt"));
    ASSERT_EQ(t.rows.size(), 2u);
    expect_row(t.rows[0], "before", "", 5, 12.51, 0.31, 2);
    expect_row(t.rows[1], "after", "", 5, 12.02, 0.27, 3);
    const SummaryTable tabs = parse_summary_table("Label\tN\tMean\tSD\nold kernel\t7\t1.5e3\t+12\n", "t.tsv");
    ASSERT_EQ(tabs.rows.size(), 1u);
    expect_row(tabs.rows[0], "old kernel", "", 7, 1500, 12, 2);
}

TEST(SummaryTable, TableWithoutLabelsLeavesThemToTheCaller) {
    const SummaryTable t = parse_summary_table("count,average,stdev,median\n10,5.5,0.25,5.4\n", "one.csv");
    ASSERT_EQ(t.rows.size(), 1u);
    expect_row(t.rows[0], "", "", 10, 5.5, 0.25, 2);
    // Whole numbers written as decimals (a spreadsheet's 9.0) are counts.
    EXPECT_EQ(parse_summary_table("n,mean,sd\n9.0,1,1\n", "f.csv").rows[0].n, 9u);
}

TEST(SummaryTable, CountsBelowTwoSayWhy) {
    std::string m = error_of("label,n,mean,sd\na,1,5,0\nb,3,5,1\n");
    EXPECT_NE(m.find("paste.txt:2: column 'n' is 1"), std::string::npos) << m;
    EXPECT_NE(m.find("at least 2 values a side"), std::string::npos) << m;
    EXPECT_NE(m.find("no standard deviation"), std::string::npos) << m;
    m = error_of("label,n,mean,sd\na,0,5,0\n");
    EXPECT_NE(m.find("paste.txt:2: column 'n' is 0"), std::string::npos) << m;
    m = error_of("label,n,mean,sd\na,2.5,5,0\n");
    EXPECT_NE(m.find("expected a whole number of values, got \"2.5\""), std::string::npos) << m;
    m = error_of("label,n,mean,sd\na,-3,5,0\n");
    EXPECT_NE(m.find("expected a whole number"), std::string::npos) << m;
    m = error_of("    N           Min           Max        Median           Avg        Stddev\n"
                 "x   1             1             1             1             1           nan\n");
    EXPECT_NE(m.find("paste.txt:2: N is 1"), std::string::npos) << m;
}

TEST(SummaryTable, BadNumbersNameTheirColumn) {
    std::string m = error_of("label,n,mean,sd\na,4,5,-0.5\n");
    EXPECT_NE(m.find("paste.txt:2: column 'sd': a standard deviation is never negative"), std::string::npos) << m;
    m = error_of("label,n,mean,sd\na,4,5,nan\n");
    EXPECT_NE(m.find("column 'sd': expected a finite number, got \"nan\""), std::string::npos) << m;
    m = error_of("label,n,mean,sd\na,4,inf,1\n");
    EXPECT_NE(m.find("column 'mean': expected a finite number"), std::string::npos) << m;
    m = error_of("label,n,mean,sd\na,4,1e999,1\n");
    EXPECT_NE(m.find("column 'mean': expected a finite number"), std::string::npos) << m;
    m = error_of("label,n,mean (ms),sd\na,4,12ms,1\n");
    EXPECT_NE(m.find("column 'mean (ms)': expected a number, got \"12ms\""), std::string::npos) << m;
    m = error_of("label,n,mean,sd\na,4,,1\n");
    EXPECT_NE(m.find("column 'mean': expected a number, got \"\""), std::string::npos) << m;
}

TEST(SummaryTable, HeadersThatLackAColumn) {
    std::string m = error_of("label,n,mean,sdev\na,4,5,1\n");
    EXPECT_NE(m.find("paste.txt:1: a header with no sd column ('sd', 'stddev'"), std::string::npos) << m;
    m = error_of("variant n avg\na 4 5\n");
    EXPECT_NE(m.find("no sd column"), std::string::npos) << m;
    m = error_of("label,n,mean,sd,stddev\na,4,5,1,1\n");
    EXPECT_NE(m.find("two columns of one kind: 'sd' and 'stddev'"), std::string::npos) << m;
    m = error_of("We ran it ten times and it got faster.\nThanks!\n");
    EXPECT_NE(m.find("paste.txt: expected summary statistics: a ministat table"), std::string::npos) << m;
    m = error_of("");
    EXPECT_NE(m.find("expected summary statistics"), std::string::npos) << m;
    m = error_of("label,n,mean,sd\n\n");
    EXPECT_NE(m.find("paste.txt:1: the table has a header but no rows"), std::string::npos) << m;
}

TEST(SummaryTable, ProseBeforeTheHeaderIsSkippedButNotAfterIt) {
    const SummaryTable t = parse_summary_table("Here are my numbers:\n\nlabel,n,mean,sd\na,4,5,1\n", "mail.txt");
    ASSERT_EQ(t.rows.size(), 1u);
    EXPECT_EQ(t.rows[0].line, 4u);
    const std::string m = error_of("label,n,mean,sd\na,4,5,1\nThanks, Ann\n");
    EXPECT_NE(m.find("paste.txt:3: 2 cells, but the header (line 1) has 4"), std::string::npos) << m;
}

TEST(SummaryTable, RowsThatDoNotFit) {
    std::string m = error_of("label n mean sd\nmy build 4 5 1\n");
    EXPECT_NE(m.find("paste.txt:2: 5 cells, but the header (line 1) has 4 (a label with spaces needs commas"),
              std::string::npos)
        << m;
    m = error_of("label,n,mean,sd\n\"a,4,5,1\n");
    EXPECT_NE(m.find("paste.txt:2: a quoted cell is never closed"), std::string::npos) << m;
    m = error_of("label,n,mean,sd\na,4,5,1\na,5,6,1\n");
    EXPECT_NE(m.find("paste.txt:3: \"a\" appears twice (first on line 2)"), std::string::npos) << m;
    m = error_of("bench,label,n,mean,sd\nx,a,4,5,1\ny,a,4,5,1\nx,a,5,6,1\n");
    EXPECT_NE(m.find("paste.txt:4: \"a\" appears twice for benchmark \"x\" (first on line 2)"), std::string::npos)
        << m;
    m = error_of("label,n,mean,sd\n,4,5,1\n");
    EXPECT_NE(m.find("column 'label': the label is empty"), std::string::npos) << m;
}

TEST(SummaryTable, MinistatRowsThatAreNotMinistats) {
    const std::string head = "    N           Min           Max        Median           Avg        Stddev\n";
    std::string m = error_of(head + "x   9   678.892   1921.855   1711.088   1614.5434\n");
    EXPECT_NE(m.find("paste.txt:2: expected a table row: its key and 6 numbers, one per column of the header on "
                     "line 1 (N Min Max Median Avg Stddev), got 5"),
              std::string::npos)
        << m;
    // Avg and Stddev swapped (columns from another tool).
    m = error_of(head + "x   9   678.892   1921.855   1711.088   361.81264   1614.5434\n");
    EXPECT_NE(m.find("paste.txt:2: Avg 361.81264 lies outside Min 678.892 .. Max 1921.855"), std::string::npos) << m;
    m = error_of(head + "x   9   678.892   1921.855   1711.088   2614.5434   361.81264\n");
    EXPECT_NE(m.find("paste.txt:2: Avg 2614.5434 lies outside Min 678.892 .. Max 1921.855: expected the columns the "
                     "header names"),
              std::string::npos)
        << m;
    m = error_of(head + "x   9   678.892   1921.855   1711.088   1614.5434   361.81264\n"
                        "x   8   989.215   1790.042   1656.6205   1545.3191   285.19544\n");
    EXPECT_NE(m.find("paste.txt:3: a second row of 'x' in one table (first on line 2)"), std::string::npos) << m;
    m = error_of(head + "\nNo rows here\n");
    EXPECT_NE(m.find("paste.txt:1: the ministat table has no rows"), std::string::npos) << m;
    m = error_of(head + "x   3   1   3   2   2   1\n+   3   1   3   2   2   1\n\n" + head +
                 "x   3   1   3   2   2   1\n+   3   1   3   2   2   1\n");
    EXPECT_NE(m.find("paste.txt:5: a second ministat table (the first is on line 1), and not each under a "
                     "'== NAME ==' heading"),
              std::string::npos)
        << m;
}

TEST(SummaryTable, MissingFileIsNamed) {
    try {
        read_summary_table(fixture("no-such-file.txt"));
        FAIL() << "no error";
    } catch (const data::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("no-such-file.txt"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace gfxstat::formats
