// SPDX-License-Identifier: MIT
#include "data/column_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <string>
#include <thread>

#include "data/input_error.h"

namespace gfxstat::data {
namespace {

// Feeds `text` through a pipe, as standard input would be.
ColumnFile read_text(const std::string& text, ColumnFormat format = {}) {
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    std::thread writer([&] {
        size_t off = 0;
        while (off < text.size()) {
            ssize_t w = write(fds[1], text.data() + off, text.size() - off);
            if (w <= 0) break;
            off += static_cast<size_t>(w);
        }
        close(fds[1]);
    });
    try {
        ColumnFile f = read_column(fds[0], "in.txt", format);
        writer.join();
        close(fds[0]);
        return f;
    } catch (...) {
        close(fds[0]);
        writer.join();
        throw;
    }
}

std::vector<double> values(const ColumnFile& f) {
    std::vector<double> out;
    for (size_t i = 0; i < f.sample.size(); ++i) out.push_back(f.sample.view().at(i));
    return out;
}

std::string error_of(const std::string& text, ColumnFormat format = {}) {
    try {
        read_text(text, format);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(ColumnFile, MinistatLineRules) {
    const auto f = read_text("1\n\n  2  \n# comment\n3 # trailing comment\n4\r\n5");
    EXPECT_EQ(values(f), (std::vector<double>{1, 2, 3, 4, 5}));
    EXPECT_EQ(f.lines, 7u);
    EXPECT_EQ(f.lines_without_column, 0u);
}

TEST(ColumnFile, ColumnsAndDelimiters) {
    ColumnFormat fmt;
    fmt.column = 2;
    auto f = read_text("a 1\nb\t\t2\nc 3 extra\nshort\n# x 9\n", fmt);
    EXPECT_EQ(values(f), (std::vector<double>{1, 2, 3}));
    EXPECT_EQ(f.lines_without_column, 1u);
    EXPECT_EQ(f.first_line_without_column, 4u);
    fmt.delimiters = ",";
    f = read_text("x,1.5\ny,, 2.5\n", fmt);  // runs of delimiters are one; strtod skips spaces
    EXPECT_EQ(values(f), (std::vector<double>{1.5, 2.5}));
    // A comment field stops the line even before the wanted column.
    fmt.column = 3;
    fmt.delimiters = " ";
    f = read_text("1 #2 3\n1 2 3\n", fmt);
    EXPECT_EQ(values(f), (std::vector<double>{3}));
}

TEST(ColumnFile, ErrorsNameFileLineAndToken) {
    EXPECT_EQ(error_of("1\n2\nabc\n"), "in.txt:3: expected a number in column 1, found \"abc\"");
    EXPECT_EQ(error_of("1\ninf\n"), "in.txt:2: \"inf\" in column 1 is not a finite number");
    EXPECT_EQ(error_of("nan\n"), "in.txt:1: \"nan\" in column 1 is not a finite number");
    EXPECT_EQ(error_of("1e400\n"), "in.txt:1: \"1e400\" in column 1 is beyond the range of a double");
    ColumnFormat fmt;
    fmt.delimiters = ",";
    EXPECT_EQ(error_of("1,2\n3 ,4\n", fmt), "in.txt:2: expected a number in column 1, found \"3 \"");
    EXPECT_EQ(error_of(std::string("1\n2\x00\n", 5)),
              "in.txt:2: expected a number in column 1, found \"2\\x00\"");
}

// ministat splits lines longer than 8191 bytes into two numbers.
TEST(ColumnFile, LinesOfAnyLength) {
    std::string line(3'000'000, ' ');
    line += "42";
    const auto f = read_text("1\n" + line + "\n3\n");
    EXPECT_EQ(values(f), (std::vector<double>{1, 42, 3}));
    std::string digits = "1." + std::string(20000, '5');
    const auto g = read_text(digits + "\n");
    ASSERT_EQ(g.sample.size(), 1u);
    EXPECT_NEAR(values(g)[0], 1.5555555555555556, 1e-15);
    EXPECT_EQ(error_of("1\n2\n" + std::string(10000, '7') + "x\n").substr(0, 42),
              "in.txt:3: expected a number in column 1, f");
}

TEST(ColumnFile, ManyLinesAcrossReadBuffers) {
    std::string text;
    for (int i = 0; i < 300000; ++i) text += std::to_string(i) + ".25\n";
    const auto f = read_text(text);
    ASSERT_EQ(f.sample.size(), 300000u);
    EXPECT_EQ(f.sample.view().at(299999), 299999.25);
}

// Column 1 of plain decimals is read in one pass over each line; the
// shapes at its edges must read as every other line does.
TEST(ColumnFile, OnePassLinesReadAsTheOthers) {
    const auto f = read_text("  -1.5\n2.\n.25\t# c\n-0\n3 x y\n4\r\n007\n5\t\n");
    EXPECT_EQ(values(f), (std::vector<double>{-1.5, 2, 0.25, 0, 3, 4, 7, 5}));
    EXPECT_EQ(f.lines, 8u);
    EXPECT_TRUE(f.sample.exact());
    // More than 18 digits, or none: the full parser.
    const auto g = read_text("1234567890.123456789\n");
    ASSERT_EQ(g.sample.size(), 1u);
    EXPECT_FALSE(g.sample.exact());
    EXPECT_EQ(error_of("1\n-\n"), "in.txt:2: expected a number in column 1, found \"-\"");
    EXPECT_EQ(error_of("1\n2x\n"), "in.txt:2: expected a number in column 1, found \"2x\"");
    EXPECT_EQ(error_of("1\n2\r x\n"), "in.txt:2: expected a number in column 1, found \"2\\x0d\"");
    // A delimiter that can be part of a number splits it.
    ColumnFormat dot;
    dot.delimiters = ".";
    EXPECT_EQ(values(read_text("12.5\n3\n", dot)), (std::vector<double>{12, 3}));
    ColumnFormat minus;
    minus.delimiters = "-";
    EXPECT_EQ(values(read_text("-7\n8-9\n", minus)), (std::vector<double>{7, 8}));
}

// The same bytes in reads of any size give the same sample: lines cut at
// every place by the end of a read.
TEST(ColumnFile, OnePassLinesAcrossShortReads) {
    std::string text;
    for (int i = 0; i < 2000; ++i) text += (i % 3 ? " " : "") + std::to_string(i - 1000) + "." + std::to_string(i % 7) + (i % 5 ? "\n" : " z\n");
    const auto whole = read_text(text);
    ASSERT_EQ(whole.sample.size(), 2000u);
    for (size_t step : {1u, 2u, 3u, 7u, 64u}) {
        int fds[2];
        ASSERT_EQ(pipe(fds), 0);
        std::thread writer([&] {
            for (size_t off = 0; off < text.size(); off += step) {
                const size_t len = std::min(step, text.size() - off);
                if (write(fds[1], text.data() + off, len) != static_cast<ssize_t>(len)) break;
            }
            close(fds[1]);
        });
        const ColumnFile f = read_column(fds[0], "in.txt", {});
        writer.join();
        close(fds[0]);
        EXPECT_EQ(values(f), values(whole)) << "reads of " << step;
        EXPECT_EQ(f.lines, 2000u);
    }
}

// Column 1 (the one-pass shape, eight digits at a time) against column 2
// of the same tokens (the line splitter): random decimals of 0 to 9
// digits on either side of the point (at most 18 in all, so that the
// sample stays exact), signs, leading zeros, line ends.
TEST(ColumnFile, OnePassValuesAreTheSplittersValues) {
    std::mt19937_64 rng(38);
    std::string one, two;
    for (int i = 0; i < 20000; ++i) {
        std::string t = rng() % 4 == 0 ? "-" : "";
        const int before = static_cast<int>(rng() % 10), after = static_cast<int>(rng() % 10);
        for (int d = 0; d < before; ++d) t += static_cast<char>('0' + rng() % 10);
        if (after > 0 || rng() % 8 == 0) t += '.';
        for (int d = 0; d < after; ++d) t += static_cast<char>('0' + rng() % 10);
        if (t.find_first_of("0123456789") == std::string::npos) t += '7';
        const char* ends[] = {"\n", " \n", "\t# c\n", "\r\n"};
        const char* tail = ends[rng() % 4];
        one += t + tail;
        two += "x " + t + tail;
    }
    ColumnFormat second;
    second.column = 2;
    const auto a = read_text(one), b = read_text(two, second);
    ASSERT_EQ(a.sample.size(), 20000u);
    EXPECT_EQ(a.sample.exponent, b.sample.exponent);
    EXPECT_EQ(a.sample.values, b.sample.values);
}

TEST(ColumnFile, MissingFileIsAnInputError) {
    EXPECT_THROW(read_column_path("/nonexistent/gfxstat", "x", {}), InputError);
}

}  // namespace
}  // namespace gfxstat::data
