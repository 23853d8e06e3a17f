// SPDX-License-Identifier: MIT
// formats/registry.h: every format gfxstat knows is reachable, described
// and consistent, and a format that parses output imports its saved output
// with the same metrics ("one grammar, both ways"), on real recorded
// outputs (tests/data/run_outputs/) and the importers' fixtures.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/input_error.h"
#include "data/results_json.h"
#include "formats/line_reader.h"
#include "formats/registry.h"
#include "formats/saved_output.h"
#include "tests/unit/test_support.h"

namespace gfxstat::formats {
namespace {

using Texts = std::vector<std::string>;

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("missing fixture " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string text_of(const data::NumberToken& t) {
    std::string s;
    data::append_json_number(s, t);
    return s;
}

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "gfxstat_formats_registry_" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

ParseResult parse(std::string_view name, std::string_view out) {
    RunOutput o;
    o.out = out;
    return make_parser(name)->parse(o);
}

TEST(FormatsRegistry, EveryFormatIsNamedDescribedAndReachable) {
    ASSERT_FALSE(all_formats().empty());
    Texts seen;
    for (const Format* f : all_formats()) {
        SCOPED_TRACE(std::string(f->name));
        EXPECT_TRUE(valid_metric_name(f->name)) << "a name --parser and --from take as one word";
        EXPECT_FALSE(f->name.empty());
        EXPECT_EQ(std::find(seen.begin(), seen.end(), f->name), seen.end()) << "two formats of one name";
        seen.emplace_back(f->name);
        EXPECT_FALSE(f->summary.empty());
        EXPECT_EQ(f->summary.find('\n'), std::string_view::npos) << "a one-line summary";
        EXPECT_LT(f->summary.size(), 100u);
        EXPECT_TRUE(f->parser || f->importer) << "a format nothing can read";
        EXPECT_TRUE(!f->sections || f->parser || f->importer);
        EXPECT_EQ(find_format(f->name), f);
    }
    EXPECT_EQ(find_format("no-such-format"), nullptr);
}

TEST(FormatsRegistry, ParserAndImportNamesFollowTheTable) {
    Texts parsers, imports;
    for (const Format* f : all_formats()) {
        if (f->parser) parsers.emplace_back(f->name);
        // Every output parser imports its saved outputs, except `time`,
        // whose numbers are the run's own cost and not in any output.
        if (f->importer || (f->parser && f->name != "time")) imports.emplace_back(f->name);
    }
    EXPECT_EQ(parser_names(), parsers);
    EXPECT_EQ(import_names(), imports);
    for (const std::string& n : parser_names()) EXPECT_NE(make_parser(n), nullptr) << n;
    // The formats the issue moved into formats/, both ways where they have both.
    for (const char* n : {"lines", "igt-syslatency", "igt-exec-nop", "ezbench", "gbench", "gotest", "time"})
        EXPECT_NE(std::find(parsers.begin(), parsers.end(), n), parsers.end()) << n;
    for (const char* n : {"lines", "igt-exec-nop", "ezbench", "gbench", "gotest", "csv", "hyperfine", "pts"})
        EXPECT_NE(std::find(imports.begin(), imports.end(), n), imports.end()) << n;
    for (const char* n : {"csv", "hyperfine", "pts"})
        EXPECT_EQ(std::find(parsers.begin(), parsers.end(), n), parsers.end()) << n << " is a file format";
    EXPECT_EQ(std::find(imports.begin(), imports.end(), "time"), imports.end());
}

TEST(FormatsRegistry, UnknownNamesAreRefusedListingTheKnownOnes) {
    try {
        make_parser("csv");
        ADD_FAILURE() << "csv has no parser";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown parser \"csv\"; known parsers: lines, "), std::string::npos)
            << e.what();
    }
    data::ResultsFile out;
    try {
        import_file("time", "/dev/null", {}, out);
        ADD_FAILURE() << "time has nothing to import";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown format \"time\"; known: lines, "), std::string::npos)
            << e.what();
    }
}

// One saved output per format that parses output, with the parse the
// fixture is known to give (tests/unit/formats/output_parsers_test.cpp checks the
// values themselves).
struct Fixture {
    const char* format;
    const char* path;  // under tests/data/
};
constexpr Fixture kFixtures[] = {
    {"lines", "run_outputs/gem_syslatency.n_t1_f1.txt"},
    {"igt-syslatency", "run_outputs/gem_syslatency.n_t1.txt"},
    {"igt-syslatency", "run_outputs/gem_syslatency.bdw_before_tasklets.txt"},
    {"igt-syslatency", "run_outputs/gem_syslatency.bdw_soft_lockup.txt"},
    {"igt-exec-nop", "run_outputs/gem_exec_nop.basic.skl_guc6.1.txt"},
    {"igt-exec-nop", "run_outputs/gem_exec_nop.basic.skl_guc8.11.txt"},
    {"igt-fence-upload", "run_outputs/gem_fence_upload.ivb_write_sizes.txt"},
    {"ezbench", "import/ezbench/completed.txt"},
    {"gbench", "import/gbench/repetitions.json"},
    {"gotest", "import/gotest/bench.txt"},
};

TEST(FormatsRegistry, ImportingASavedOutputGivesWhatParsingItGives) {
    for (const Fixture& fx : kFixtures) {
        SCOPED_TRACE(std::string(fx.format) + " " + fx.path);
        const std::string path = test::source_path(std::string("tests/data/") + fx.path);
        const ParseResult parsed = parse(fx.format, read(path));
        ASSERT_EQ(parsed.error, "");
        ASSERT_FALSE(parsed.metrics.empty());

        data::ResultsFile imported;
        import_file(fx.format, path, {}, imported);
        ASSERT_EQ(imported.runs().size(), 1u) << "one saved output, one run";
        const data::RunRecord& run = imported.runs()[0];
        ASSERT_EQ(run.metrics.size(), parsed.metrics.size());
        for (size_t k = 0; k < parsed.metrics.size(); ++k) {
            const ParsedMetric& p = parsed.metrics[k];
            SCOPED_TRACE(p.name);
            EXPECT_EQ(run.metrics[k].name, p.name);
            const data::MetricInfo* decl = imported.find_metric(p.name);
            ASSERT_NE(decl, nullptr);
            EXPECT_EQ(decl->unit, p.unit);
            EXPECT_EQ(decl->direction, p.direction);
            ASSERT_TRUE(p.primary.has_value()) << "every parser says what is primary";
            EXPECT_EQ(decl->primary, p.primary);
            Texts a, b;
            for (const auto& t : p.values) a.push_back(text_of(t));
            for (const auto& t : run.metrics[k].values) b.push_back(text_of(t));
            EXPECT_EQ(b, a);
        }
        // What the output states about the run goes to its environment.
        const data::Environment* env = imported.find_environment(run.environment);
        for (const auto& [key, value] : parsed.environment) {
            ASSERT_NE(env, nullptr) << key;
            EXPECT_EQ(env->fields.count(key) ? env->fields.at(key) : "(absent)", value) << key;
        }
    }
}

TEST(FormatsRegistry, ASavedOutputThatCannotBeReadNamesFileAndLine) {
    // Two gem_syslatency runs pasted together, the second cut mid-line.
    const std::string path =
        write_temp("broken.txt",
                   "gem_syslatency: cycles=4004, latency mean=1.870us max=18us\n"
                   "gem_syslatency: cycles=3947, latency mean=1.902us max=\n");
    data::ResultsFile out;
    try {
        import_file("igt-syslatency", path, {}, out);
        ADD_FAILURE() << "imported a broken line";
    } catch (const data::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  path + ":1: the igt-syslatency run starting here cannot be read: line 2: expected "
                         "'gem_syslatency: cycles=N, latency mean=Xus max=Yus', found \"\" at column 55");
    }
    EXPECT_TRUE(out.runs().empty());

    // A saved output of another program: no line of the format at all.
    const std::string other = write_temp("other.txt", "hello\n");
    try {
        import_file("igt-exec-nop", other, {}, out);
        ADD_FAILURE() << "imported a file without a measurement";
    } catch (const data::InputError& e) {
        EXPECT_TRUE(std::string(e.what()).starts_with(other + ":1: the igt-exec-nop run starting here cannot be read: "))
            << e.what();
    }
}

// A format whose saved files hold several runs, one per paragraph: the
// igt-syslatency parser with a splitter of the test's own.
std::vector<std::string_view> paragraphs(std::string_view text) {
    std::vector<std::string_view> out;
    size_t start = 0;
    for (size_t at; (at = text.find("\n\n", start)) != std::string_view::npos; start = at + 2)
        out.push_back(text.substr(start, at + 1 - start));
    if (start < text.size()) out.push_back(text.substr(start));
    return out;
}

TEST(FormatsRegistry, SavedOutputSectionsAreRunsReadBeforeAnyIsAdded) {
    Format f = *find_format("igt-syslatency");
    f.sections = paragraphs;
    const std::string line = "gem_syslatency: cycles=4004, latency mean=1.870us max=18us\n";
    const std::string good = write_temp("paragraphs.txt", line + "\n" + line + line);
    data::ResultsFile out;
    import_saved_output(f, good, {}, out);
    ASSERT_EQ(out.runs().size(), 2u);
    EXPECT_EQ(out.runs()[0].source, good + ":1");
    EXPECT_EQ(out.runs()[1].source, good + ":3");
    EXPECT_EQ(out.runs()[1].metric("latency_mean")->values.size(), 2u);

    // The third run is broken: nothing of the first two is added.
    const std::string bad = write_temp("paragraphs_bad.txt", line + "\n" + line + "\ngem_syslatency: cycles=x\n");
    data::ResultsFile none;
    try {
        import_saved_output(f, bad, {}, none);
        ADD_FAILURE() << "imported a broken run";
    } catch (const data::InputError& e) {
        // The error names the file's line, not the line within the run.
        EXPECT_TRUE(std::string(e.what()).starts_with(bad + ":5: the igt-syslatency run starting at line 5 cannot be "
                                                             "read: expected "))
            << e.what();
    }
    EXPECT_TRUE(none.runs().empty());
    // Broken on its second line, the run starting at line 3 names line 4
    // (the parser says "line 2", counted within the run).
    const std::string bad2 = write_temp("paragraphs_bad2.txt", line + "\n" + line + "gem_syslatency: cycles=x\n");
    try {
        data::ResultsFile none2;
        import_saved_output(f, bad2, {}, none2);
        ADD_FAILURE() << "imported a broken run";
    } catch (const data::InputError& e) {
        EXPECT_TRUE(std::string(e.what()).starts_with(bad2 + ":4: the igt-syslatency run starting at line 3 cannot be "
                                                              "read: expected "))
            << e.what();
    }
    EXPECT_TRUE(none.metrics().empty());

    // --metric keeps one metric, and a run without it is an error before any is added.
    ImportOptions only;
    only.metric = "latency_max";
    data::ResultsFile one;
    import_saved_output(f, good, only, one);
    ASSERT_EQ(one.runs().size(), 2u);
    EXPECT_EQ(one.runs()[0].metrics.size(), 1u);
    only.metric = "fps";
    data::ResultsFile neither;
    EXPECT_THROW(import_saved_output(f, good, only, neither), data::InputError);
    EXPECT_TRUE(neither.runs().empty());
}

// Terminal output pasted or captured: colours (CSI) and titles and
// hyperlinks (OSC, ended by BEL or ESC '\') go, whole; a broken or
// unterminated sequence loses its ESC only, and the rest is kept to be seen.
TEST(LineReader, RemovesColourTitleAndHyperlinkSequences) {
    const auto lines = [](std::string_view text) {
        std::vector<std::string> out;
        LineReader r(text);
        std::string_view line;
        while (r.next(line)) out.emplace_back(line);
        return out;
    };
    EXPECT_EQ(lines("\x1b[1;31mfps\x1b[0m 60\r\n"), (std::vector<std::string>{"fps 60"}));
    EXPECT_EQ(lines("a\x1b]0;title\x07" "b\n\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n"),
              (std::vector<std::string>{"ab", "link"}));
    EXPECT_EQ(lines("a\x1b]0;no end\nb\x1b[12"), (std::vector<std::string>{"a]0;no end", "b[12"}));
    EXPECT_EQ(lines("\x1b]x\x1b]y\x07z"), (std::vector<std::string>{"z"}));
    EXPECT_EQ(lines("\x1b]x\x1b]y"), (std::vector<std::string>{"]x]y"}));
}

TEST(FormatsRegistry, EzbenchSectionsAreTheRunsOfAFile) {
    const Format* f = find_format("ezbench");
    ASSERT_NE(f, nullptr);
    ASSERT_NE(f->sections, nullptr);
    const std::string text =
        "a: float(1) s\n: str(completed)\n\nb: float(2) s\n\x1b[1m: str(failed)\x1b[0m\r\n\nc: int(3)\n";
    const std::vector<std::string_view> s = f->sections(text);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0], "a: float(1) s\n: str(completed)\n");
    EXPECT_EQ(s[1], "\nb: float(2) s\n\x1b[1m: str(failed)\x1b[0m\r\n");  // colour, as LineReader reads it
    EXPECT_EQ(s[2], "\nc: int(3)\n");
    EXPECT_TRUE(f->sections("\n  \n").empty());
    EXPECT_EQ(f->sections("x: float(1)\n: str(completed)\n\n").size(), 1u);  // blank tail: no run

    // A bad line of the second run is named by its line in the file.
    const std::string path = write_temp("ezbench_two.txt", "a: float(1) s\n: str(completed)\nb: float(x) s\n");
    data::ResultsFile out;
    try {
        import_file("ezbench", path, {}, out);
        ADD_FAILURE() << "imported float(x)";
    } catch (const data::InputError& e) {
        EXPECT_EQ(std::string(e.what()), path + ":3: expected a number in float(), found \"x\"");
    }
    EXPECT_TRUE(out.runs().empty()) << "nothing added when one run is bad";
}

// Both new parsers on the importers' fixtures: what `run --parser gbench`
// and `run --parser gotest` read from the programs' stdout.
TEST(FormatsParsers, GbenchReadsGoogleBenchmarkJsonFromStdout) {
    const ParseResult r = parse("gbench", read(test::source_path("tests/data/import/gbench/repetitions.json")));
    ASSERT_EQ(r.error, "");
    ASSERT_GE(r.metrics.size(), 2u);
    EXPECT_EQ(r.metrics[1].name, r.metrics[0].name + ":cpu_time");
    EXPECT_EQ(r.metrics[0].primary, true);
    EXPECT_EQ(r.metrics[1].primary, false);
    EXPECT_EQ(r.metrics[0].direction, data::Direction::lower_is_better);
    EXPECT_GT(r.metrics[0].values.size(), 1u) << "the repetitions are one run's values";

    EXPECT_EQ(parse("gbench", "").error,
              "stdout:1: invalid JSON: syntax error while parsing value - unexpected end of input; expected "
              "'[', '{', or a literal (stdout is empty)");
    EXPECT_EQ(parse("gbench", "{\"context\": {}}").error,
              "stdout: benchmarks: missing (is this Google Benchmark's --benchmark_format=json output?)");
    EXPECT_EQ(parse("gbench", R"({"benchmarks": [{"name": "BM_x", "run_type": "aggregate"}]})").error,
              "stdout: no benchmark repetitions to import (0 errored, 1 aggregate entries)");
    EXPECT_TRUE(parse("gbench", "Run on (16 X 3400 MHz CPU s)\n").metrics.empty());
}

TEST(FormatsParsers, GotestReadsGoTestOutputFromStdout) {
    const ParseResult r = parse("gotest", read(test::source_path("tests/data/import/gotest/bench.txt")));
    ASSERT_EQ(r.error, "");
    ASSERT_FALSE(r.metrics.empty());
    EXPECT_EQ(r.metrics[0].name, "BenchmarkDecode/small-16:ns/op");
    EXPECT_EQ(r.metrics[0].unit, "ns/op");
    EXPECT_EQ(r.metrics[0].primary, true);
    EXPECT_EQ(r.metrics[1].name, "BenchmarkDecode/small-16:MB/s");
    EXPECT_EQ(r.metrics[1].direction, data::Direction::higher_is_better);
    EXPECT_EQ(r.metrics[1].primary, false);
    Texts v;
    for (const auto& t : r.metrics[0].values) v.push_back(text_of(t));
    EXPECT_EQ(v, (Texts{"2345", "2351", "2398", "2339", "2347"}));
    EXPECT_EQ(r.environment.at("cpu_model"), "AMD Ryzen 7 5800X 8-Core Processor");
    EXPECT_EQ(r.environment.at("go_pkg"), "example.com/gfx/decode");

    EXPECT_EQ(parse("gotest", "BenchmarkX-8 100 fast ns/op\n").error,
              "stdout:1: expected a number before unit \"ns/op\", found \"fast\"");
    EXPECT_EQ(parse("gotest", "PASS\nok x 0.1s\n").error,
              "stdout: no benchmark result lines (BenchmarkName  N  value unit ...)");
    EXPECT_EQ(parse("gotest", "").error,
              "stdout: no benchmark result lines (BenchmarkName  N  value unit ...) (stdout is empty)");
}

}  // namespace
}  // namespace gfxstat::formats
