// SPDX-License-Identifier: MIT
// --filter (data/bench_filter.h) on an IGT-like results file: each filter's
// verdict on every one of its 450 observations is checked against the
// same question asked in plain C++, and each such check must see the
// filter keep some observations and drop others, so that a filter that
// kept everything (or nothing) would fail it. Then the corners: quoting,
// tags over fields, missing keys, what a run alone decides, and the
// columns syntax errors name.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "data/bench_filter.h"
#include "tests/unit/query_test_results.h"

namespace gfxstat::data {
namespace {

using test::igt_results;
using test::kIgtMesa;

std::string_view tag(const Observation& o, const std::string& key) {
    if (!o.tags) return {};
    const auto it = o.tags->find(key);
    return it == o.tags->end() ? std::string_view() : std::string_view(it->second);
}
bool has_tag(const Observation& o, const std::string& key) { return o.tags && o.tags->count(key); }
std::string_view field(const Observation& o, const std::string& key) { return o.fields->at(key); }
bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

class FilterOnFile : public ::testing::Test {
protected:
    ResultsFile file = igt_results();
    std::vector<Observation> all = test::observations(file);

    // The filter agrees with `want` on every observation, keeps `kept` of
    // them, and drops at least one.
    void expect(std::string_view text, const std::function<bool(const Observation&)>& want, size_t kept) {
        SCOPED_TRACE(std::string("--filter '") + std::string(text) + "'");
        ASSERT_EQ(all.size(), 450u);
        const BenchFilter f = BenchFilter::parse(text);
        size_t yes = 0, disagree = 0;
        for (const Observation& o : all) {
            const bool got = f.matches(o);
            if (got != want(o) && ++disagree <= 3)
                ADD_FAILURE() << "on " << o.name << " of " << o.variant << " (gpu " << tag(o, "gpu")
                              << "): got " << got;
            yes += got;
        }
        EXPECT_EQ(disagree, 0u);
        EXPECT_EQ(yes, kept);
        EXPECT_LT(yes, all.size()) << "the filter drops nothing: the check cannot tell it from no filter";
        EXPECT_FALSE(f.empty());
    }
    size_t count(std::string_view text) {
        const BenchFilter f = BenchFilter::parse(text);
        size_t n = 0;
        for (const Observation& o : all) n += f.matches(o);
        return n;
    }
};

TEST_F(FilterOnFile, ExactNameByBareWordAndByEveryNameKey) {
    const auto want = [](const Observation& o) { return o.name == "64KiB/download_yf"; };
    for (const char* text : {"64KiB/download_yf", "name:64KiB/download_yf", ".name:64KiB/download_yf",
                             "metric:64KiB/download_yf", "\"64KiB/download_yf\""})
        expect(text, want, 15);
    // Exact, not a substring or a prefix.
    EXPECT_EQ(count("download_yf"), 0u);
    EXPECT_EQ(count("name:64KiB/download_"), 0u);
    EXPECT_EQ(count("name:64KiB/download_y"), 15u);
}

TEST_F(FilterOnFile, Regex) {
    expect("/upload/", [](const Observation& o) { return contains(o.name, "upload"); }, 225);
    // Unanchored unless anchored; \/ is a slash.
    expect("/^1MiB\\//", [](const Observation& o) { return o.name.starts_with("1MiB/"); }, 150);
    expect("name:/_(x|y)$/", [](const Observation& o) { return o.name.ends_with("_x") || o.name.ends_with("_y"); },
           180);
    expect("variant:/^patch-/", [](const Observation& o) { return o.variant != "baseline"; }, 300);
    expect("gpu_pci_id:/56a0$/", [](const Observation& o) { return tag(o, "gpu") == "dg2"; }, 270);
}

TEST_F(FilterOnFile, OrOfTermsAndOfValues) {
    const auto two = [](const Observation& o) { return o.name == "4KiB/upload_x" || o.name == "1MiB/download_4"; };
    expect("4KiB/upload_x OR 1MiB/download_4", two, 30);
    expect("name:(4KiB/upload_x OR 1MiB/download_4)", two, 30);
    expect("name:(4KiB/upload_x OR /download_4$/)",
           [](const Observation& o) { return o.name == "4KiB/upload_x" || o.name.ends_with("download_4"); }, 60);
    // A value no run has takes nothing away.
    expect("kernel:(6.9 OR 6.11)", [](const Observation& o) { return tag(o, "kernel") == "6.9"; }, 150);
}

TEST_F(FilterOnFile, AndByJuxtapositionOrKeyword) {
    const auto want = [](const Observation& o) { return contains(o.name, "upload") && o.variant == "patch-a"; };
    expect("/upload/ variant:patch-a", want, 75);
    expect("/upload/ AND variant:patch-a", want, 75);
    // AND binds more tightly than OR.
    expect("/upload/ variant:patch-a OR /download/ variant:baseline",
           [](const Observation& o) {
               return (contains(o.name, "upload") && o.variant == "patch-a") ||
                      (contains(o.name, "download") && o.variant == "baseline");
           },
           150);
}

TEST_F(FilterOnFile, Negation) {
    const auto not_baseline = [](const Observation& o) { return o.variant != "baseline"; };
    expect("-variant:baseline", not_baseline, 300);
    expect("NOT variant:baseline", not_baseline, 300);
    expect("- variant:baseline", not_baseline, 300);
    expect("-/upload/ gpu:mtl", [](const Observation& o) { return !contains(o.name, "upload") && tag(o, "gpu") == "mtl"; },
           90);
    expect("--variant:baseline", [](const Observation& o) { return o.variant == "baseline"; }, 150);
    expect("-(kernel:6.9 OR gpu:mtl)",
           [](const Observation& o) { return !(tag(o, "kernel") == "6.9" || tag(o, "gpu") == "mtl"); }, 180);
}

TEST_F(FilterOnFile, ParenthesesGroup) {
    expect("/upload/ (variant:baseline OR variant:patch-b)",
           [](const Observation& o) { return contains(o.name, "upload") && o.variant != "patch-a"; }, 150);
    // Without them the same words mean (upload AND baseline) OR patch-b.
    expect("/upload/ variant:baseline OR variant:patch-b",
           [](const Observation& o) {
               return (contains(o.name, "upload") && o.variant == "baseline") || o.variant == "patch-b";
           },
           225);
    expect("((/^4KiB/) (gpu:dg2))", [](const Observation& o) { return o.name.starts_with("4KiB") && tag(o, "gpu") == "dg2"; },
           90);
}

TEST_F(FilterOnFile, TagAndFieldKeys) {
    expect("gpu:mtl", [](const Observation& o) { return tag(o, "gpu") == "mtl"; }, 180);
    expect("kernel:6.10", [](const Observation& o) { return tag(o, "kernel") == "6.10"; }, 300);
    expect("gpu_driver:xe", [](const Observation& o) { return field(o, "gpu_driver") == "xe"; }, 180);
    expect("kernel_release:6.9.0-gfx variant:baseline",
           [](const Observation& o) { return field(o, "kernel_release") == "6.9.0-gfx"; }, 150);
    // An unquoted value may hold ':'.
    expect("gpu_pci_id:8086:7d55", [](const Observation& o) { return field(o, "gpu_pci_id") == "8086:7d55"; }, 180);
    expect("unit:MiB/s variant:patch-b", [](const Observation& o) { return o.variant == "patch-b"; }, 150);
    EXPECT_EQ(count("unit:MiB/s"), 450u);
    EXPECT_EQ(count(".unit:fps"), 0u);
}

TEST_F(FilterOnFile, MissingKeysMatchNothing) {
    expect("mesa:*", [](const Observation& o) { return has_tag(o, "mesa"); }, 150);
    expect("-mesa:*", [](const Observation& o) { return !has_tag(o, "mesa"); }, 300);
    expect(std::string("mesa:") + kIgtMesa, [](const Observation& o) { return o.variant == "patch-b"; }, 150);
    // Runs without a mesa tag do not match mesa:x, so -mesa:x keeps them.
    expect(std::string("-mesa:") + kIgtMesa, [](const Observation& o) { return o.variant != "patch-b"; }, 300);
    EXPECT_EQ(count("mesa:deadbeef"), 0u);
    EXPECT_EQ(count("-mesa:deadbeef"), 450u);
}

TEST_F(FilterOnFile, StarAndEmptyMatchEverything) {
    for (const char* text : {"", "   ", "*", "( * )"}) {
        SCOPED_TRACE(text);
        EXPECT_EQ(count(text), 450u);
    }
    EXPECT_EQ(count("-*"), 0u);
    EXPECT_EQ(count("* variant:baseline"), 150u);
    EXPECT_EQ(count("nosuchkey:*"), 0u);
    EXPECT_EQ(count("nosuchkey:/.*/"), 0u);
    EXPECT_EQ(count("-nosuchkey:x"), 450u);
}

TEST(BenchFilter, EmptyAndText) {
    EXPECT_TRUE(BenchFilter().empty());
    EXPECT_EQ(BenchFilter().text(), "");
    EXPECT_TRUE(BenchFilter::parse("").empty());
    EXPECT_TRUE(BenchFilter::parse(" \t").empty());
    EXPECT_TRUE(BenchFilter::parse("*").empty());
    EXPECT_FALSE(BenchFilter::parse("x").empty());
    EXPECT_FALSE(BenchFilter::parse("-*").empty());
    EXPECT_EQ(BenchFilter::parse(" /upload/  gpu:dg2 ").text(), " /upload/  gpu:dg2 ");
}

TEST(BenchFilter, CopiesOutliveTheOriginal) {
    BenchFilter copy;
    {
        const BenchFilter f = BenchFilter::parse("name:/^a+$/ OR gpu:dg2");
        copy = f;
    }
    std::map<std::string, std::string> tags{{"gpu", "mtl"}};
    EXPECT_TRUE(copy.matches(Observation{"aaa", "", "v", &tags, nullptr}));
    EXPECT_FALSE(copy.matches(Observation{"aab", "", "v", &tags, nullptr}));
    EXPECT_EQ(copy.text(), "name:/^a+$/ OR gpu:dg2");
}

TEST(BenchFilter, Quoting) {
    std::map<std::string, std::string> tags{{"board", "Arc A770"}, {"my key", "x(1)"}, {"AND", "yes"}};
    const auto on = [&](std::string_view name) { return Observation{name, "fps", "v", &tags, nullptr}; };
    const auto keeps = [&](std::string_view text, std::string_view name) {
        return BenchFilter::parse(text).matches(on(name));
    };
    EXPECT_TRUE(keeps("board:\"Arc A770\"", "m"));
    EXPECT_FALSE(keeps("board:\"Arc A77\"", "m"));
    EXPECT_TRUE(keeps("\"my key\":\"x(1)\"", "m"));
    EXPECT_FALSE(keeps("\"my key\":\"x(2)\"", "m"));
    EXPECT_TRUE(keeps(R"("say \"hi\"")", "say \"hi\""));
    EXPECT_FALSE(keeps(R"("say \"hi\"")", "say hi"));
    EXPECT_TRUE(keeps(R"(name:"back\\slash")", "back\\slash"));
    EXPECT_TRUE(keeps("\"-leading\"", "-leading"));
    EXPECT_FALSE(keeps("\"-leading\"", "leading"));
    EXPECT_TRUE(keeps("\"OR\"", "OR"));
    EXPECT_TRUE(keeps("\"a b\" OR c", "a b"));
    EXPECT_FALSE(keeps("\"a b\" c", "a b"));
    // Operators are operators only in capitals and alone.
    EXPECT_TRUE(keeps("or", "or"));
    EXPECT_TRUE(keeps("AND:yes", "m"));
    EXPECT_TRUE(keeps("board:(\"Arc A770\" OR /^x/)", "m"));
    EXPECT_TRUE(keeps("name:\"\" OR board:*", "m"));
    EXPECT_FALSE(keeps("name:\"\"", "m"));
    EXPECT_TRUE(keeps("name:\"\"", ""));
}

TEST(BenchFilter, TagsWinOverFieldsAndNullMapsHoldNothing) {
    std::map<std::string, std::string> tags{{"kernel", "6.9"}}, fields{{"kernel", "5.0"}, {"gpu_driver", "xe"}};
    const Observation o{"m", "fps", "v", &tags, &fields};
    EXPECT_TRUE(BenchFilter::parse("kernel:6.9").matches(o));
    EXPECT_FALSE(BenchFilter::parse("kernel:5.0").matches(o));
    EXPECT_TRUE(BenchFilter::parse("gpu_driver:xe").matches(o));
    const Observation bare{"m", "fps", "v", nullptr, nullptr};
    EXPECT_FALSE(BenchFilter::parse("kernel:*").matches(bare));
    EXPECT_TRUE(BenchFilter::parse("-kernel:6.9").matches(bare));
    EXPECT_TRUE(BenchFilter::parse("m unit:fps variant:v").matches(bare));
}

TEST(BenchFilter, RegexesMatchBytes) {
    // Names need not be UTF-8: a byte that is not matches, and `.` is one byte.
    const std::string name = "a\xff" "b";
    const Observation o{name, "", "v", nullptr, nullptr};
    EXPECT_TRUE(BenchFilter::parse("/^a.b$/").matches(o));
    EXPECT_FALSE(BenchFilter::parse("/^a..b$/").matches(o));
    const Observation utf8{"a\xc3\xa9" "b", "", "v", nullptr, nullptr};  // é: two bytes
    EXPECT_TRUE(BenchFilter::parse("/^a..b$/").matches(utf8));
    EXPECT_TRUE(BenchFilter::parse("/\xc3\xa9/").matches(utf8));
}

TEST(BenchFilter, WhatARunAloneDecides) {
    std::map<std::string, std::string> tags{{"gpu", "dg2"}};
    const Observation baseline{"", "", "baseline", &tags, nullptr};
    const Observation patch{"", "", "patch-a", &tags, nullptr};
    const auto may = [](std::string_view text, const Observation& run) {
        return BenchFilter::parse(text).may_match_run(run);
    };
    EXPECT_TRUE(may("/upload/", patch));
    EXPECT_TRUE(may("-/upload/", patch));
    EXPECT_TRUE(may("unit:fps", patch));
    EXPECT_TRUE(may("variant:baseline", baseline));
    EXPECT_FALSE(may("variant:baseline", patch));
    EXPECT_FALSE(may("/upload/ variant:baseline", patch));
    EXPECT_TRUE(may("/upload/ variant:baseline", baseline));
    EXPECT_TRUE(may("/upload/ OR variant:baseline", patch));
    EXPECT_FALSE(may("gpu:mtl OR variant:baseline", patch));
    EXPECT_TRUE(may("-(variant:baseline /upload/)", baseline));
    EXPECT_TRUE(may("-(variant:baseline /upload/)", patch));
    EXPECT_FALSE(may("-(variant:patch-a OR /upload/) variant:patch-a", patch));
    EXPECT_FALSE(may("-*", baseline));
    EXPECT_TRUE(may("", baseline));
}

struct SyntaxCase {
    const char* text;
    size_t column;
    const char* says;
};

TEST(BenchFilter, SyntaxErrorsNameColumnAndWhatWasExpected) {
    const std::vector<SyntaxCase> cases = {
        {"(gl_4 OR gl_5", 14, "expected ')' after 'gl_4 OR gl_5'"},
        {"a (b OR (c d) e", 16, "expected ')' after 'b OR (c d) e'"},
        {"name:(gl_4 OR gl_5", 19, "expected 'OR' or ')' after 'name:(gl_4 OR gl_5'"},
        {"name:(a b)", 9, "expected 'OR' or ')' after 'name:(a', found 'b'"},
        {"name:(a OR )", 12, "expected a value after 'name:(a OR', found ')'"},
        {"name:()", 7, "expected a value after 'name:(', found ')'"},
        {"a OR", 5, "expected a filter term after 'a OR'"},
        {"a AND", 6, "expected a filter term after 'a AND'"},
        {"OR a", 1, "expected a filter term, found 'OR'"},
        {"a -", 4, "expected a filter term after 'a -'"},
        {"a)", 2, "')' closes no '(' after 'a'"},
        {"()", 2, "expected a filter term, found ')'"},
        {"x name:", 8, "expected a value after 'name:' (write name:* for any value, name:\"\" for an empty one)"},
        {"gpu: dg2", 5, "expected a value after 'gpu:'"},
        {"x :y", 3, "expected a key before ':'"},
        {"\"\":y", 1, "expected a key before ':'"},
        {"a \"abc", 7, "expected '\"' to end the quoted text that starts at column 3"},
        {"a /abc", 7, "expected '/' to end the regex that starts at column 3"},
        {"x /a(b/", 3, "invalid regex /a(b/: missing )"},
        {"x name:/(a)\\1/", 8, "invalid regex /(a)\\1/: invalid escape sequence"},
        {"\"a\"b", 4, "expected a blank or ')' after '\"a\"', found 'b'"},
        {"/a/b", 4, "expected a blank or ')' after '/a/', found 'b'"},
    };
    for (const SyntaxCase& c : cases) {
        SCOPED_TRACE(c.text);
        try {
            BenchFilter::parse(c.text);
            ADD_FAILURE() << "no error";
        } catch (const FilterSyntaxError& e) {
            const std::string want_start = "--filter: at column " + std::to_string(c.column) + ": ";
            const std::string got = e.what();
            EXPECT_EQ(got.substr(0, want_start.size()), want_start) << got;
            EXPECT_NE(got.find(c.says), std::string::npos) << got;
        }
    }
}

TEST(BenchFilter, DeepNestingIsAnErrorNotACrash) {
    const std::string parens = std::string(1000, '(') + "x" + std::string(1000, ')');
    EXPECT_THROW(BenchFilter::parse(parens), FilterSyntaxError);
    const std::string negations = std::string(100000, '-') + "x";
    try {
        BenchFilter::parse(negations);
        ADD_FAILURE() << "no error";
    } catch (const FilterSyntaxError& e) {
        EXPECT_NE(std::string(e.what()).find("nested deeper than 100 levels"), std::string::npos) << e.what();
    }
    // A hundred levels are fine.
    const std::string hundred = std::string(100, '(') + "x" + std::string(100, ')');
    EXPECT_TRUE(BenchFilter::parse(hundred).matches(Observation{"x", "", "v", nullptr, nullptr}));
}

TEST(BenchFilter, LongChainsAreFlat) {
    // 10,000 alternatives: no recursion per OR, so no stack to run out of.
    std::string text = "m0";
    for (int i = 1; i < 10000; ++i) text += " OR m" + std::to_string(i);
    const BenchFilter f = BenchFilter::parse(text);
    EXPECT_TRUE(f.matches(Observation{"m9999", "", "v", nullptr, nullptr}));
    EXPECT_FALSE(f.matches(Observation{"m10000", "", "v", nullptr, nullptr}));
}

}  // namespace
}  // namespace gfxstat::data
