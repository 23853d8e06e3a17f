// SPDX-License-Identifier: MIT
// "did you mean": the edit distance against hand-worked values, and which
// words are suggested for typos, prefixes and nonsense.
#include "text/nearest_word.h"

#include <gtest/gtest.h>

namespace gfxstat::text {
namespace {

const std::vector<std::string> kCommands{"ministat", "summary", "compare",  "import", "show",  "merge",   "run",
                                         "workload", "ab",      "campaign", "devices", "tune", "version"};

TEST(EditDistance, HandWorkedValues) {
    EXPECT_EQ(edit_distance("", ""), 0u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("abc", ""), 3u);
    EXPECT_EQ(edit_distance("compare", "compare"), 0u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);  // the textbook case
    EXPECT_EQ(edit_distance("comapre", "compare"), 1u);  // one transposition, not two substitutions
    EXPECT_EQ(edit_distance("treshold", "threshold"), 1u);  // one insertion
    EXPECT_EQ(edit_distance("ca", "abc"), 3u);  // optimal string alignment: no edit of a transposed pair
    EXPECT_EQ(edit_distance("abcdef", "abcdfe"), 1u);
    EXPECT_EQ(edit_distance("summary", "sumary"), 1u);
}

TEST(EditDistance, Symmetric) {
    const char* words[] = {"", "a", "ab", "ba", "compare", "comapre", "campaign", "xyz"};
    for (const char* a : words)
        for (const char* b : words) EXPECT_EQ(edit_distance(a, b), edit_distance(b, a)) << a << " " << b;
}

TEST(NearestWords, TyposOfCommands) {
    EXPECT_EQ(nearest_words("comapre", kCommands), std::vector<std::string>{"compare"});
    EXPECT_EQ(nearest_words("sumary", kCommands), std::vector<std::string>{"summary"});
    EXPECT_EQ(nearest_words("campain", kCommands), std::vector<std::string>{"campaign"});
    EXPECT_EQ(nearest_words("shwo", kCommands), std::vector<std::string>{"show"});
    EXPECT_EQ(nearest_words("Compare", kCommands), std::vector<std::string>{"compare"});  // case is not counted
}

TEST(NearestWords, NoSuggestionForNonsense) {
    EXPECT_TRUE(nearest_words("xyz", kCommands).empty());
    EXPECT_TRUE(nearest_words("frobnicate", kCommands).empty());
    EXPECT_TRUE(nearest_words("", kCommands).empty());
    EXPECT_TRUE(nearest_words("q", kCommands).empty());
    // A known word is not a mistake.
    EXPECT_TRUE(nearest_words("compare", kCommands).empty());
}

TEST(NearestWords, Prefixes) {
    EXPECT_EQ(nearest_words("camp", kCommands), std::vector<std::string>{"campaign"});
    EXPECT_EQ(nearest_words("--thresh", {"--threshold", "--gate", "--format"}), std::vector<std::string>{"--threshold"});
    // Two letters are no prefix to go by; "ru" is 1 from "run" all the same.
    EXPECT_EQ(nearest_words("ru", kCommands), std::vector<std::string>{"run"});
}

TEST(NearestWords, OptionsOnlyForOptions) {
    const std::vector<std::string> opts{"--threshold", "--gate", "--format", "-C", "--column", "files"};
    EXPECT_EQ(nearest_words("--treshold", opts), std::vector<std::string>{"--threshold"});
    EXPECT_EQ(nearest_words("-treshold", opts), std::vector<std::string>{"--threshold"});
    EXPECT_EQ(nearest_words("--fromat", opts), std::vector<std::string>{"--format"});
    EXPECT_TRUE(nearest_words("treshold", opts).empty());  // a word is not an option
    EXPECT_TRUE(nearest_words("--file", opts).empty());  // "files" is a positional, not an option
}

TEST(NearestWords, TiesAreAllNamedAtMostThree) {
    EXPECT_EQ(nearest_words("--gat", {"--gate", "--gap", "--get"}), (std::vector<std::string>{"--gate"}));
    EXPECT_EQ(nearest_words("--ab", {"--abc", "--abd", "--abe", "--abf"}).size(), 3u);
    EXPECT_EQ(nearest_words("tun", {"run", "fun", "tune"}), (std::vector<std::string>{"tune"}));  // a prefix wins
    EXPECT_EQ(nearest_words("bun", {"run", "fun", "sun"}), (std::vector<std::string>{"run", "fun", "sun"}));
}

TEST(DidYouMean, Sentence) {
    EXPECT_EQ(did_you_mean("comapre", kCommands), "; did you mean compare?");
    EXPECT_EQ(did_you_mean("xyz", kCommands), "");
    EXPECT_EQ(did_you_mean("bun", {"run", "fun"}), "; did you mean run or fun?");
    EXPECT_EQ(did_you_mean("bun", {"run", "fun", "sun"}), "; did you mean run, fun or sun?");
}

}  // namespace
}  // namespace gfxstat::text
