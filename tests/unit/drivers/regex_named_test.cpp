// SPDX-License-Identifier: MIT
// --metric with named groups (drivers/regex_parser.cpp, docs/run.md): a
// regex with groups `name` and `value` makes one metric per name the
// output prints, in both spellings, (?<name>...) and (?P<name>...).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "drivers/run_parsers.h"

namespace gfxstat::drivers {
namespace {

using Doubles = std::vector<double>;

double as_double(const data::NumberToken& t) {
    if (t.status == data::TokenStatus::binary) return t.value;
    const double v = static_cast<double>(t.significand) * std::pow(10.0, t.exponent);
    return t.negative ? -v : v;
}

ParseResult parse(const std::vector<std::string>& specs, std::string_view out) {
    RunOutput o;
    o.out = out;
    return make_regex_parser(specs)->parse(o);
}

std::vector<std::string> names(const ParseResult& r) {
    std::vector<std::string> out;
    for (const ParsedMetric& m : r.metrics) out.push_back(m.name);
    return out;
}

Doubles values(const ParseResult& r, const std::string& name) {
    for (const ParsedMetric& m : r.metrics)
        if (m.name == name) {
            Doubles v;
            for (const auto& t : m.values) v.push_back(as_double(t));
            return v;
        }
    return {};
}

std::string message(const std::vector<std::string>& specs) {
    try {
        make_regex_parser(specs);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(no error)";
}

const char* kEngines =
    "rcs0: 1000 cycles: 5.5us\n"
    "bcs0: 900 cycles: 6us\n"
    "noise line\n"
    "rcs0: 1000 cycles: 5.25us\n";

TEST(RegexNamed, OneMetricPerEngineInOrderOfFirstMatch) {
    for (const char* spec : {R"((?<name>\w+): \d+ cycles: (?<value>[\d.]+)us)",
                             R"((?P<name>\w+): \d+ cycles: (?P<value>[\d.]+)us)"}) {
        SCOPED_TRACE(spec);
        const ParseResult r = parse({spec}, kEngines);
        ASSERT_EQ(r.error, "");
        EXPECT_EQ(names(r), (std::vector<std::string>{"rcs0", "bcs0"}));
        EXPECT_EQ(values(r, "rcs0"), (Doubles{5.5, 5.25}));
        EXPECT_EQ(values(r, "bcs0"), (Doubles{6}));
        for (const ParsedMetric& m : r.metrics) EXPECT_EQ(m.primary, std::optional<bool>(true));
        // Nothing to declare before the run: the names come from the output.
        EXPECT_TRUE(make_regex_parser({spec})->metrics().empty());
    }
}

// The value group may come first; a NAME= spec beside it is declared.
TEST(RegexNamed, GroupOrderAndMixedSpecs) {
    const ParseResult r = parse({R"((?<value>\d+) frames on (?<name>[a-z0-9]+))", "total=total: (\\d+)"},
                                "12 frames on gpu0\ntotal: 20\n8 frames on gpu1\n");
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(names(r), (std::vector<std::string>{"gpu0", "total", "gpu1"}));
    EXPECT_EQ(values(r, "gpu1"), (Doubles{8}));
    const auto declared = make_regex_parser({R"((?<value>\d+) on (?<name>\w+))", "total=total: (\\d+)"})->metrics();
    ASSERT_EQ(declared.size(), 1u);
    EXPECT_EQ(declared[0].name, "total");
}

TEST(RegexNamed, NameThatIsNotAMetricNameIsAnErrorNamingTheLine) {
    const ParseResult r = parse({R"((?<name>[^:]+): (?<value>\d+))"}, "ok: 1\nnot ok: 2\n");
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_EQ(r.error.rfind("line 2: ", 0), 0u) << r.error;
    EXPECT_NE(r.error.find("captured the name \"not ok\", which is not a metric name"), std::string::npos) << r.error;
    // An empty name is no name either.
    const ParseResult e = parse({R"((?<name>\w*)=(?<value>\d+))"}, "=5\n");
    EXPECT_EQ(e.error.rfind("line 1: ", 0), 0u) << e.error;
    const ParseResult v = parse({R"((?<name>\w+)=(?<value>\S+))"}, "a=fast\n");
    EXPECT_EQ(v.error.rfind("line 1: ", 0), 0u) << v.error;
    EXPECT_NE(v.error.find("captured \"fast\""), std::string::npos) << v.error;
}

// `(?<` is rewritten only where it opens a group.
TEST(RegexNamed, RewriteLeavesClassesEscapesAndQuotesAlone) {
    // [(?<] is a class of three characters: a 'P' slipped in would match "P5".
    EXPECT_EQ(values(parse({"x=[(?<](\\d+)"}, "P5\n<6\n"), "x"), (Doubles{6}));
    // \(? is an optional parenthesis followed by '<'.
    EXPECT_EQ(values(parse({"x=\\(?<(\\d+)"}, "(<7\n<8\n"), "x"), (Doubles{7, 8}));
    // \Q...\E is literal text.
    EXPECT_EQ(values(parse({"x=\\Q(?<a>\\E(\\d+)"}, "(?<a>9\n"), "x"), (Doubles{9}));
    // A lookbehind is still refused by name, not rewritten.
    EXPECT_NE(message({R"((?<=a)(?<name>\w)(?<value>\d))"}).find("a lookbehind"), std::string::npos);
}

TEST(RegexNamed, BadSpecs) {
    EXPECT_NE(message({R"((?<name>\w+) (?<value>\d+) (\d+))"}).find("exactly two capture groups"), std::string::npos);
    EXPECT_NE(message({R"((?<name>\w+) (\d+))"}).find("needs both groups"), std::string::npos);
    EXPECT_NE(message({R"(x=(?<name>\w+) (?<value>\d+))"}).find("give it without 'x='"), std::string::npos);
    EXPECT_NE(message({R"((?<name>\w+ (?<value>\d+))"}).find("bad regex"), std::string::npos);
    EXPECT_NE(message({R"((?<name>\w+) (?<value>\d+))", R"((?<name>\w+) (?<value>\d+))"}).find("given twice"),
              std::string::npos);
    // A value group alone is NAME=REGEX's single capture group.
    EXPECT_EQ(values(parse({R"(x=v: (?<value>\d+))"}, "v: 3\n"), "x"), (Doubles{3}));
}

TEST(RegexNamed, UnmatchedValueGroup) {
    const ParseResult r = parse({R"((?<name>\w+):(?<value>\d+)?)"}, "a:\n");
    EXPECT_EQ(r.error.rfind("line 1: the value group of --metric", 0), 0u) << r.error;
}

}  // namespace
}  // namespace gfxstat::drivers
