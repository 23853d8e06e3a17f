// SPDX-License-Identifier: MIT
// A command line broken for a width (text/shell_quote.h, shell_lines):
// every line but the last ends in " \", no line is wider than asked when
// the words allow it, a command after "&&" starts a line, and the lines
// joined as a shell joins them give back the one command.
#include <gtest/gtest.h>

#include <sstream>

#include "text/shell_quote.h"

namespace gfxstat::text {
namespace {

std::vector<std::string> split(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

// What a shell reads: each " \" and the newline after it dropped.
std::string as_shell_reads(const std::vector<std::string>& lines) {
    std::string s;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string l = lines[i];
        if (i + 1 < lines.size()) {
            EXPECT_TRUE(l.ends_with(" \\")) << l;
            l.resize(l.size() - 1);
        }
        s += l;
    }
    return s;
}

const std::string kRun =
    "git bisect start 2c7353e9393483d7550c8064ae622c65597bbc7e 8f7e006e799319612a3639c5b1bf291fd78dbc3f -- && "
    "git bisect run gfxstat bisect step --good b05.json --bad b06.json --target-metric fps -o bisect-steps.json "
    "-- 'my bench.sh' --frames 100";

TEST(ShellLines, FitsTheWidthAndReadsAsOneCommand) {
    for (size_t width : {40u, 60u, 72u, 120u}) {
        std::vector<std::string> words = split(kRun);
        // 'my bench.sh' is one quoted word.
        words.erase(words.end() - 4, words.end() - 2);
        words.insert(words.end() - 2, "'my bench.sh'");
        const auto lines = shell_lines(words, width, 6, 8);
        // A commit id (40 columns) and its indent need more than 40.
        if (width > 40) {
            for (const auto& l : lines) EXPECT_LE(l.size(), width) << width << ": " << l;
        }
        EXPECT_EQ(split(as_shell_reads(lines)), split(kRun)) << width;
        // The quoted word stays on one line.
        bool whole = false;
        for (const auto& l : lines) whole |= l.find("'my bench.sh'") != std::string::npos;
        EXPECT_TRUE(whole) << width;
    }
}

TEST(ShellLines, CommandsAfterAndStartALine) {
    const auto lines = shell_lines(split(kRun), 72, 6, 8);
    ASSERT_GE(lines.size(), 3u);
    EXPECT_EQ(lines[0], "      git bisect start 2c7353e9393483d7550c8064ae622c65597bbc7e \\");
    EXPECT_EQ(lines[1], "        8f7e006e799319612a3639c5b1bf291fd78dbc3f -- && \\");
    EXPECT_TRUE(lines[2].starts_with("      git bisect run gfxstat")) << lines[2];
    EXPECT_TRUE(lines.back().ends_with(" 100")) << lines.back();
}

TEST(ShellLines, ShortCommandOnOneLineAndLongWordWhole) {
    EXPECT_EQ(shell_lines({"git", "bisect", "good"}, 40, 2, 4), std::vector<std::string>{"  git bisect good"});
    const std::string word(60, 'x');
    const auto lines = shell_lines({"echo", word, "y"}, 40, 0, 2);
    EXPECT_EQ(lines, (std::vector<std::string>{"echo \\", "  " + word + " \\", "  y"}));
}

}  // namespace
}  // namespace gfxstat::text
