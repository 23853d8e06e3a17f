// SPDX-License-Identifier: MIT
// The text importers (--from csv, its suite tables, gotest, ezbench, a
// saved IGT output of many subtests) on the fixtures in tests/data/import/:
// exact values, metric declarations, run identities and order,
// environments, exit classes, and the FILE:LINE: of every error.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "formats/csv_suite.h"
#include "formats/import_support.h"
#include "formats/registry.h"
#include "data/input_error.h"
#include "tests/unit/test_support.h"

namespace gfxstat::data {
namespace {

// The importers and their options live in formats/ (one file per format).
using namespace gfxstat::formats;

std::string fixture(const std::string& rel) { return test::source_path("tests/data/import/" + rel); }

ResultsFile import_file(Importer importer, const std::string& rel, const ImportOptions& options = {}) {
    ResultsFile out;
    importer(fixture(rel), options, out);
    return out;
}

// The InputError's message, with the fixtures' directory cut from the file
// name ("csv/runs.csv:3: ..."), or "(no error)".
std::string error_of(Importer importer, const std::string& rel, const ImportOptions& options = {},
                     ResultsFile* into = nullptr) {
    ResultsFile scratch;
    try {
        importer(fixture(rel), options, into ? *into : scratch);
    } catch (const InputError& e) {
        std::string msg = e.what();
        const std::string dir = fixture("");
        if (msg.starts_with(dir)) msg.erase(0, dir.size());
        return msg;
    }
    return "(no error)";
}

// A value as the importer kept it: "6125e-2" for the exact decimal 61.25,
// "binary 1024" for a double (hexadecimal floats).
std::string text(const NumberToken& t) {
    if (t.status == TokenStatus::binary) return "binary " + test::shortest(t.value);
    if (t.status != TokenStatus::decimal) return std::string("rejected: ") + describe(t.status);
    return (t.negative ? "-" : "") + std::to_string(t.significand) + "e" + std::to_string(t.exponent);
}

using Texts = std::vector<std::string>;

Texts values(const RunRecord& run, std::string_view metric) {
    const MetricValues* m = run.metric(metric);
    if (!m) return {"(no metric)"};
    Texts out;
    for (const NumberToken& t : m->values) out.push_back(text(t));
    return out;
}

Texts metric_names(const ResultsFile& f) {
    Texts out;
    for (const MetricInfo& m : f.metrics()) out.push_back(m.name);
    return out;
}

// "unit, direction" of a declared metric.
std::string declaration(const ResultsFile& f, std::string_view metric) {
    const MetricInfo* m = f.find_metric(metric);
    if (!m) return "(undeclared)";
    return m->unit + ", " + direction_name(m->direction);
}

// csv --------------------------------------------------------------------

TEST(ImportCsv, VariantBootAndRunColumnsIdentifyEachRow) {
    const ResultsFile f = import_file(import_csv, "csv/runs.csv");
    EXPECT_EQ(metric_names(f), (Texts{"fps", "frame time \"p99\" (ms)", "score"}));
    EXPECT_EQ(declaration(f, "fps"), ", unknown");
    EXPECT_EQ(f.variants(), (Texts{"mesa-24.0", "mesa-24.1, patched"}));
    ASSERT_EQ(f.runs().size(), 5u);

    const RunRecord& r0 = f.runs()[0];
    EXPECT_EQ(r0.variant, "mesa-24.0");
    EXPECT_EQ(r0.run, 0u);
    EXPECT_EQ(r0.boot, "3f6a0c1e-7b2d-4c11-9a8e-0d5b6c7e8f90");
    EXPECT_EQ(r0.source, fixture("csv/runs.csv") + ":2");
    EXPECT_EQ(r0.exit_class, ExitClass::ok);
    EXPECT_EQ(r0.environment, "");  // no --tag, and CSV says nothing of the machine
    EXPECT_EQ(values(r0, "fps"), (Texts{"6125e-2"}));
    EXPECT_EQ(values(r0, "frame time \"p99\" (ms)"), (Texts{"185e-1"}));
    EXPECT_EQ(values(r0, "score"), (Texts{"1200e0"}));
    EXPECT_FALSE(r0.metric("fps")->array);

    // An empty cell: the run did not report that metric.
    const RunRecord& r1 = f.runs()[1];
    EXPECT_EQ(r1.run, 1u);
    EXPECT_EQ(r1.metrics.size(), 2u);
    EXPECT_EQ(r1.metric("frame time \"p99\" (ms)"), nullptr);

    const RunRecord& r2 = f.runs()[2];
    EXPECT_EQ(r2.variant, "mesa-24.1, patched");
    EXPECT_EQ(r2.run, 0u);
    EXPECT_EQ(r2.boot, "a1b2c3d4-0000-4000-8000-123456789abc");
    EXPECT_EQ(values(r2, "score"), (Texts{"binary 1024"}));  // 0x1p10

    const RunRecord& r3 = f.runs()[3];
    EXPECT_EQ(values(r3, "fps"), (Texts{"645e-1"}));
    EXPECT_EQ(values(r3, "frame time \"p99\" (ms)"), (Texts{"17e0"}));  // quoted number
    EXPECT_EQ(values(r3, "score"), (Texts{"-15e2"}));

    const RunRecord& r4 = f.runs()[4];
    EXPECT_EQ(r4.run, 7u);
    EXPECT_EQ(r4.source, fixture("csv/runs.csv") + ":6");
    EXPECT_EQ(values(r4, "fps"), (Texts{"590e-1"}));
    EXPECT_EQ(f.next_run_index("mesa-24.0"), 8u);
}

TEST(ImportCsv, CrlfPaddingBlankLinesAndNoFinalNewline) {
    const ResultsFile f = import_file(import_csv, "csv/plain.csv");
    EXPECT_EQ(f.variants(), (Texts{"plain"}));
    ASSERT_EQ(f.runs().size(), 4u);
    const std::string path = fixture("csv/plain.csv");
    Texts sources, fps, ms;
    for (size_t i = 0; i < f.runs().size(); ++i) {
        const RunRecord& r = f.runs()[i];
        EXPECT_EQ(r.run, i);
        EXPECT_EQ(r.boot, "");
        sources.push_back(r.source.substr(path.size()));
        fps.push_back(values(r, "fps")[0]);
        ms.push_back(values(r, "ms")[0]);
    }
    EXPECT_EQ(sources, (Texts{":2", ":4", ":5", ":6"}));
    EXPECT_EQ(fps, (Texts{"615e-1", "62e0", "63e0", "600e-1"}));
    EXPECT_EQ(ms, (Texts{"1626e-2", "1613e-2", "(no metric)", "1667e-2"}));
}

TEST(ImportCsv, RunIndicesContinueAndLabelNamesTheVariant) {
    ResultsFile f;
    ImportOptions options;
    options.label = "baseline";
    import_csv(fixture("csv/plain.csv"), options, f);
    import_csv(fixture("csv/plain.csv"), options, f);
    EXPECT_EQ(f.variants(), (Texts{"baseline"}));
    ASSERT_EQ(f.runs().size(), 8u);
    EXPECT_EQ(f.runs()[4].run, 4u);
    EXPECT_EQ(f.runs()[7].run, 7u);
}

TEST(ImportCsv, MetricUnitDirectionAndTagOptions) {
    ImportOptions options;
    options.metric = "score";
    options.unit = "points";
    options.direction = Direction::higher_is_better;
    options.tags = {{"mesa", "24.1-rc2"}};
    const ResultsFile f = import_file(import_csv, "csv/runs.csv", options);
    EXPECT_EQ(metric_names(f), (Texts{"score"}));
    EXPECT_EQ(declaration(f, "score"), "points, higher");
    ASSERT_EQ(f.runs().size(), 5u);
    for (const RunRecord& r : f.runs()) EXPECT_EQ(r.metrics.size(), 1u);
    const Environment* env = f.find_environment(f.runs()[0].environment);
    ASSERT_NE(env, nullptr);
    EXPECT_EQ(env->tags, (std::map<std::string, std::string>{{"mesa", "24.1-rc2"}}));

    options.metric = "ms";
    EXPECT_EQ(error_of(import_csv, "csv/runs.csv", options),
              "csv/runs.csv: no metric column 'ms'; the file has: fps, frame time \"p99\" (ms), score");
}

TEST(ImportCsv, VariantColumnAndLabelTogetherAreAnError) {
    ImportOptions options;
    options.label = "mine";
    EXPECT_EQ(error_of(import_csv, "csv/runs.csv", options),
              "csv/runs.csv:1: the file has a 'variant' column and --label also names the variant; "
              "use one or the other");
}

TEST(ImportCsv, RunsAlreadyInTheResultsFileAreNotRecordedTwice) {
    ResultsFile f;
    import_csv(fixture("csv/runs.csv"), {}, f);
    EXPECT_EQ(error_of(import_csv, "csv/runs.csv", {}, &f),
              "csv/runs.csv:2: run 0 of variant 'mesa-24.0' is recorded twice (also in the results file)");
    EXPECT_EQ(f.runs().size(), 5u);  // the failed import added none
}

TEST(ImportCsv, MalformedFilesNameFileAndLine) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"bad_number_after_multiline.csv", ":4: expected a number in column 'fps', found \"sixty\""},
        {"wrong_cell_count.csv", ":3: expected 4 cells, as the header has, found 3"},
        {"duplicate_header.csv", ":1: column name 'fps' appears twice in the header"},
        {"empty_header.csv", ":1: column 2 of the header has no name"},
        {"unterminated_quote.csv", ":3: quoted cell is never closed"},
        {"not_finite.csv", ":3: \"inf\" in column 'fps' is not a finite number"},
        {"out_of_range.csv", ":2: \"1e999\" in column 'fps' is beyond the range of a double"},
        {"negative_run.csv", ":3: expected a whole number >= 0 in column 'run', found \"-1\""},
        {"duplicate_run.csv", ":4: run 0 of variant 'mesa' is recorded twice (also on line 2)"},
        {"no_metric_columns.csv", ":1: the header names no metric columns (only variant, boot or run)"},
        {"text_after_quote.csv", ":2: expected ',' or the end of the row after a closing quote, found \"x\""},
        {"empty_variant.csv", ":2: empty cell in column 'variant'"},
        {"header_only.csv", ":1: a header and no rows: no runs to import"},
        {"empty.csv", ": empty file: expected a header row"},
    };
    for (const auto& [name, what] : cases) EXPECT_EQ(error_of(import_csv, "csv/" + name), "csv/" + name + what);
}

// csv: a suite's long and wide tables (formats/csv_suite.h) ---------------

// A run in one line: "before#0 gl_4=577e0 gl_trex=2224e0", metrics in the
// run's order; the boot after '@' when there is one.
std::string run_line(const RunRecord& r) {
    std::string s = r.variant + "#" + std::to_string(r.run) + (r.boot.empty() ? "" : "@" + r.boot);
    for (const MetricValues& m : r.metrics) s += " " + m.name + "=" + text(m.values.at(0));
    return s;
}

Texts run_lines(const ResultsFile& f) {
    Texts out;
    for (const RunRecord& r : f.runs()) out.push_back(run_line(r));
    return out;
}

ResultsFile import_suite(const std::string& rel, const CsvColumnRoles& roles, const ImportOptions& options = {},
                         ResultsFile f = {}) {
    import_csv_suite(fixture(rel), options, roles, f);
    return f;
}

std::string suite_error(const std::string& rel, const CsvColumnRoles& roles, const ImportOptions& options = {}) {
    ResultsFile scratch;
    try {
        import_csv_suite(fixture(rel), options, roles, scratch);
    } catch (const InputError& e) {
        std::string msg = e.what();
        const std::string dir = fixture("");
        if (msg.starts_with(dir)) msg.erase(0, dir.size());
        return msg;
    }
    return "(no error)";
}

CsvColumnRoles long_roles(std::vector<std::string> values = {"fps"}) {
    CsvColumnRoles roles;
    roles.variant = "variant";
    roles.bench = "test";
    roles.values = std::move(values);
    return roles;
}

CsvColumnRoles wide_roles(const std::string& bench = "test") {
    CsvColumnRoles roles;
    roles.bench = bench;
    return roles;
}

std::optional<NumberToken> number(const char* s) { return parse_number_token(s); }

TEST(SuiteBuilder, RunsInterleavedByIndexThenVariantMetricsInOrderOfFirstAppearance) {
    // Cells as a long table grouped by variant gives them: every pass of
    // "before", then every pass of "after".
    SuiteBuilder b("t.csv", {SuiteQuantity{}});
    const auto add = [&](const char* variant, const char* bench, const char* value, size_t line) {
        SuiteCell c;
        c.variant = variant;
        c.bench = bench;
        c.line = line;
        c.values = {value[0] ? number(value) : std::nullopt};
        b.add(c);
    };
    add("before", "gl_trex", "2224", 2);
    add("before", "gl_4", "577", 3);
    add("before", "gl_trex", "2230", 4);  // the second row of (before, gl_trex): run 1
    add("before", "gl_4", "", 5);         // not measured, but still run 1's place
    add("after", "gl_4", "583", 6);
    add("after", "gl_alu2", "", 7);       // never measured: declared by no one
    add("after", "gl_trex", "2152", 8);
    ResultsFile f;
    ImportOptions options;
    options.unit = "fps";
    options.direction = Direction::higher_is_better;
    b.finish(options, f);
    EXPECT_EQ(metric_names(f), (Texts{"gl_trex", "gl_4"}));
    EXPECT_EQ(declaration(f, "gl_4"), "fps, higher");
    EXPECT_EQ(run_lines(f), (Texts{"before#0 gl_trex=2224e0 gl_4=577e0", "after#0 gl_trex=2152e0 gl_4=583e0",
                                   "before#1 gl_trex=2230e0"}));
    EXPECT_EQ(f.runs()[0].source, "t.csv");  // a run gathers several rows: no one line
    EXPECT_EQ(f.runs()[0].environment, "");

    // Indices continue from what the results file holds, per variant, and
    // the order is by the index the runs get.
    b.finish(options, f);
    ASSERT_EQ(f.runs().size(), 6u);
    EXPECT_EQ(run_line(f.runs()[3]), "after#1 gl_trex=2152e0 gl_4=583e0");
    EXPECT_EQ(run_line(f.runs()[4]), "before#2 gl_trex=2224e0 gl_4=577e0");
    EXPECT_EQ(run_line(f.runs()[5]), "before#3 gl_trex=2230e0");
}

TEST(SuiteBuilder, MetricOptionKeepsOneAndRunsWithoutItAreLeftOut) {
    SuiteBuilder b("t.csv", {SuiteQuantity{"score", "frames"}, SuiteQuantity{"fps", ""}});
    SuiteCell c;
    c.variant = "a";
    c.bench = "gl_4";
    c.line = 2;
    c.values = {number("1144"), std::nullopt};
    b.add(c);
    c.bench = "gl_trex";
    c.values = {std::nullopt, number("39.5")};
    b.add(c);
    ResultsFile f;
    ImportOptions options;
    options.metric = "gl_trex/fps";
    options.unit = "fps";
    b.finish(options, f);
    EXPECT_EQ(metric_names(f), (Texts{"gl_trex/fps"}));
    EXPECT_EQ(declaration(f, "gl_trex/fps"), "fps, unknown");
    EXPECT_EQ(run_lines(f), (Texts{"a#0 gl_trex/fps=395e-1"}));

    ResultsFile g;
    b.finish({}, g);
    EXPECT_EQ(metric_names(g), (Texts{"gl_4/score", "gl_trex/fps"}));
    EXPECT_EQ(declaration(g, "gl_4/score"), "frames, unknown");  // the column's own unit

    options.metric = "gl_4";
    ResultsFile h;
    try {
        b.finish(options, h);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "t.csv: no metric 'gl_4'; the file has: gl_4/score, gl_trex/fps");
    }
    EXPECT_TRUE(h.runs().empty());
}

TEST(SuiteBuilder, ExplicitRunsBootsAndConflicts) {
    SuiteBuilder b("t.csv", {SuiteQuantity{}});
    SuiteCell c;
    c.variant = "a";
    c.bench = "x";
    c.run = 5;
    c.boot = "b1";
    c.line = 2;
    c.values = {number("1")};
    b.add(c);
    c.bench = "y";
    c.line = 3;
    c.boot = "b2";
    try {
        b.add(c);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "t.csv:3: run 5 of variant 'a' is in boot \"b2\" here but in boot \"b1\" on line 2: "
                  "a run is in one boot");
    }
    c.boot = "b1";
    c.bench = "x";
    c.line = 4;
    try {
        b.add(c);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "t.csv:4: benchmark 'x' of run 5 of variant 'a' is recorded twice "
                                         "(also on line 2)");
    }
    ResultsFile f;
    b.finish({}, f);
    EXPECT_EQ(run_lines(f), (Texts{"a#5@b1 x=1e0"}));
    // An explicit index the results file already holds.
    try {
        b.finish({}, f);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "t.csv:2: run 5 of variant 'a' is recorded twice (also in the results file)");
    }
    EXPECT_EQ(f.runs().size(), 1u);

    SuiteBuilder empty("e.csv", {SuiteQuantity{}});
    c.values = {std::nullopt};
    empty.add(c);
    try {
        empty.finish({}, f);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "e.csv: every value cell is empty: no runs to import");
    }
}

TEST(ImportCsvSuite, LongAndWideGfxBenchAveragesGiveTheSameRuns) {
    ImportOptions options;
    options.unit = "fps";
    options.direction = Direction::higher_is_better;
    const ResultsFile wide = import_suite("csv/gfxbench4-avg-wide.csv", wide_roles(), options);
    const ResultsFile lng = import_suite("csv/gfxbench4-avg-long.csv", long_roles(), options);
    const Texts tests = {"gl_4",      "gl_manhattan",     "gl_trex",     "gl_alu2",     "gl_driver2",
                         "gl_4_off", "gl_manhattan_off", "gl_trex_off", "gl_alu2_off", "gl_driver2_off"};
    EXPECT_EQ(metric_names(wide), tests);
    EXPECT_EQ(metric_names(lng), tests);
    for (const std::string& t : tests) EXPECT_EQ(declaration(lng, t), "fps, higher");
    EXPECT_EQ(wide.variants(), (Texts{"before", "after"}));
    EXPECT_EQ(run_lines(wide),
              (Texts{"before#0 gl_4=577e0 gl_manhattan=1144e0 gl_trex=2224e0 gl_alu2=1213e0 gl_driver2=104e0 "
                     "gl_4_off=727e0 gl_manhattan_off=1709e0 gl_trex_off=2969e0 gl_alu2_off=2607e0 "
                     "gl_driver2_off=208e0",
                     "after#0 gl_4=583e0 gl_manhattan=1202e0 gl_trex=2152e0 gl_alu2=1154e0 gl_driver2=103e0 "
                     "gl_4_off=726e0 gl_manhattan_off=1728e0 gl_trex_off=3047e0 gl_alu2_off=2625e0 "
                     "gl_driver2_off=205e0"}));
    EXPECT_EQ(run_lines(lng), run_lines(wide));
    EXPECT_EQ(wide.runs()[0].source, fixture("csv/gfxbench4-avg-wide.csv"));
}

TEST(ImportCsvSuite, FenceUploadWideNamesEachRowsSurfaces) {
    ImportOptions options;
    options.unit = "MiB/s";
    options.direction = Direction::higher_is_better;
    const ResultsFile f = import_suite("csv/fence-upload-wide.csv", wide_roles("surfaces"), options);
    ASSERT_EQ(f.metrics().size(), 12u);
    EXPECT_EQ(f.metrics()[0].name, "2 linear");
    EXPECT_EQ(f.metrics()[11].name, "64 tiled");
    EXPECT_EQ(declaration(f, "64 tiled"), "MiB/s, higher");
    ASSERT_EQ(f.runs().size(), 2u);
    EXPECT_EQ(values(f.runs()[0], "64 tiled"), (Texts{"2013e0"}));
    EXPECT_EQ(values(f.runs()[1], "64 tiled"), (Texts{"3017e0"}));
    EXPECT_EQ(values(f.runs()[1], "4 tiled"), (Texts{"8602e0"}));

    // --variant-cols picks columns and keeps the header's order.
    CsvColumnRoles roles = wide_roles("surfaces");
    roles.variant_cols = {"after"};
    const ResultsFile after = import_suite("csv/fence-upload-wide.csv", roles);
    EXPECT_EQ(after.variants(), (Texts{"after"}));
    roles.variant_cols = {"after", "before"};
    EXPECT_EQ(import_suite("csv/fence-upload-wide.csv", roles).variants(), (Texts{"before", "after"}));
}

// Names that are not UTF-8 (a Latin-1 export) are refused where they are
// read: written, their bytes would become U+FFFD and "caf\xe9" and
// "caf\xe8" one benchmark.
TEST(ImportCsvSuite, NamesAndVariantsThatAreNotUtf8AreRefused) {
    EXPECT_EQ(suite_error("csv/latin1-names-wide.csv", wide_roles()),
              "csv/latin1-names-wide.csv: the name \"caf\\xe9\" is not UTF-8 (byte 4); results files keep names as "
              "Unicode, and its bad bytes would become U+FFFD, which can make two names one: convert the input to "
              "UTF-8 (iconv -f latin1 -t utf-8)");
    EXPECT_EQ(suite_error("csv/latin1-variant-long.csv", long_roles()),
              "csv/latin1-variant-long.csv:2: the variant \"b\\xe9fore\" is not UTF-8 (byte 2); results files keep "
              "labels as Unicode: convert the input to UTF-8 (iconv -f latin1 -t utf-8)");
}

TEST(ImportCsvSuite, RepetitionsAndTwoValueColumns) {
    CsvColumnRoles roles = long_roles({"score", "fps"});
    roles.units = {{"score", "frames"}, {"fps", "fps"}};
    ImportOptions options;
    options.direction = Direction::higher_is_better;
    const ResultsFile f = import_suite("csv/gfxbench-3-passes-long.csv", roles, options);
    EXPECT_EQ(metric_names(f),
              (Texts{"gl_manhattan/score", "gl_manhattan/fps", "gl_trex/score", "gl_trex/fps"}));
    EXPECT_EQ(declaration(f, "gl_trex/score"), "frames, higher");
    EXPECT_EQ(declaration(f, "gl_trex/fps"), "fps, higher");
    EXPECT_EQ(run_lines(f),
              (Texts{"before#0 gl_manhattan/score=1144e0 gl_manhattan/fps=1845e-2 gl_trex/score=2224e0 "
                     "gl_trex/fps=3971e-2",
                     "after#0 gl_manhattan/score=1202e0 gl_manhattan/fps=1939e-2 gl_trex/score=2152e0 "
                     "gl_trex/fps=3843e-2",
                     "before#1 gl_manhattan/score=1139e0 gl_manhattan/fps=1837e-2 gl_trex/score=2231e0 "
                     "gl_trex/fps=3984e-2",
                     "after#1 gl_manhattan/score=1195e0 gl_manhattan/fps=1927e-2 gl_trex/score=2160e0 "
                     "gl_trex/fps=3857e-2",
                     "before#2 gl_manhattan/score=1150e0 gl_manhattan/fps=1855e-2 gl_trex/score=2219e0 "
                     "gl_trex/fps=3963e-2",
                     "after#2 gl_manhattan/score=1208e0 gl_manhattan/fps=1948e-2 gl_trex/score=2147e0 "
                     "gl_trex/fps=3834e-2"}));

    // The pass column says the same as the rows' order.
    roles.run = "pass";
    EXPECT_EQ(run_lines(import_suite("csv/gfxbench-3-passes-long.csv", roles, options)), run_lines(f));

    // One value column: the metric is the benchmark's name.
    const ResultsFile one = import_suite("csv/gfxbench-3-passes-long.csv", long_roles({"fps"}));
    EXPECT_EQ(metric_names(one), (Texts{"gl_manhattan", "gl_trex"}));
    EXPECT_EQ(one.runs().size(), 6u);
}

TEST(ImportCsvSuite, WideGapsAndRepeatedRows) {
    const ResultsFile f = import_suite("csv/suite_wide_gaps.csv", wide_roles());
    EXPECT_EQ(run_lines(f), (Texts{"before#0 gl_4=577e0 gl_trex=2224e0", "after#0 gl_4=583e0",
                                   "before#1 gl_4=580e0", "after#1 gl_trex=2150e0"}));
}

TEST(ImportCsvSuite, LongWithoutVariantColumnIsOneVariant) {
    CsvColumnRoles roles;
    roles.bench = "test";
    roles.values = {"fps"};
    const ResultsFile f = import_suite("csv/gfxbench4-avg-long.csv", roles);
    // Rows of both variants read as one: the second row of each test is run 1.
    EXPECT_EQ(f.variants(), (Texts{"gfxbench4-avg-long"}));
    EXPECT_EQ(f.runs().size(), 2u);
    ImportOptions options;
    options.label = "mesa";
    EXPECT_EQ(import_suite("csv/gfxbench4-avg-long.csv", roles, options).variants(), (Texts{"mesa"}));
}

TEST(ImportCsvSuite, ErrorsNameFileLineAndWhatWasExpected) {
    CsvColumnRoles typo = long_roles();
    typo.bench = "tset";
    EXPECT_EQ(suite_error("csv/gfxbench4-avg-long.csv", typo),
              "csv/gfxbench4-avg-long.csv:1: no column 'tset' for --bench-col (the header has: variant, test, fps)");
    typo.suggest = [](std::string_view typed, const std::vector<std::string>& header) {
        return "; did you mean " + header[1] + "? (" + std::string(typed) + ")";
    };
    EXPECT_EQ(suite_error("csv/gfxbench4-avg-long.csv", typo),
              "csv/gfxbench4-avg-long.csv:1: no column 'tset' for --bench-col (the header has: variant, test, fps); "
              "did you mean test? (tset)");
    CsvColumnRoles pick = wide_roles();
    pick.variant_cols = {"before", "aftr"};
    EXPECT_EQ(suite_error("csv/gfxbench4-avg-wide.csv", pick),
              "csv/gfxbench4-avg-wide.csv:1: no column 'aftr' for --variant-cols (the header has: test, before, after)");
    CsvColumnRoles value = long_roles({"fsp"});
    EXPECT_EQ(suite_error("csv/gfxbench4-avg-long.csv", value),
              "csv/gfxbench4-avg-long.csv:1: no column 'fsp' for --value-col (the header has: variant, test, fps)");

    EXPECT_EQ(suite_error("csv/suite_empty_bench.csv", long_roles()),
              "csv/suite_empty_bench.csv:3: empty cell in column 'test' (--bench-col): expected the benchmark's name");
    EXPECT_EQ(suite_error("csv/suite_empty_variant.csv", long_roles()),
              "csv/suite_empty_variant.csv:3: empty cell in column 'variant' (--variant-col): expected the "
              "variant's label");
    EXPECT_EQ(suite_error("csv/suite_bad_number.csv", wide_roles()),
              "csv/suite_bad_number.csv:3: expected a number in column 'after', found \"fast\"");
    CsvColumnRoles boots = long_roles();
    boots.boot = "boot";
    boots.run = "run";
    EXPECT_EQ(suite_error("csv/suite_two_boots.csv", boots),
              "csv/suite_two_boots.csv:3: run 0 of variant 'before' is in boot \"b2\" here but in boot \"b1\" on "
              "line 2: a run is in one boot");
    CsvColumnRoles runs = wide_roles();
    runs.run = "run";
    EXPECT_EQ(suite_error("csv/suite_duplicate.csv", runs),
              "csv/suite_duplicate.csv:3: benchmark 'gl_4' of run 0 of variant 'before' is recorded twice "
              "(also on line 2)");
    // The table reader's own errors, as for the one-row-per-run shape.
    CsvColumnRoles by_run = long_roles();
    by_run.bench = "run";
    EXPECT_EQ(suite_error("csv/wrong_cell_count.csv", by_run),
              "csv/wrong_cell_count.csv:3: expected 4 cells, as the header has, found 3");
    EXPECT_EQ(suite_error("csv/header_only.csv", wide_roles("fps")),
              "csv/header_only.csv:1: a header and no rows: no runs to import");
    EXPECT_EQ(suite_error("csv/empty.csv", wide_roles("fps")), "csv/empty.csv: empty file: expected a header row");

    ImportOptions label;
    label.label = "mine";
    EXPECT_EQ(suite_error("csv/gfxbench4-avg-long.csv", long_roles(), label),
              "csv/gfxbench4-avg-long.csv:1: --variant-col names the column 'variant' and --label also names the "
              "variant; use one or the other");
    EXPECT_EQ(suite_error("csv/gfxbench4-avg-wide.csv", wide_roles(), label),
              "csv/gfxbench4-avg-wide.csv:1: --label names one variant, but in a wide table each variant column "
              "is a variant (before, after)");
    CsvColumnRoles only = wide_roles();
    only.variant_cols = {};
    only.run = "before";
    only.boot = "after";
    EXPECT_EQ(suite_error("csv/gfxbench4-avg-wide.csv", only),
              "csv/gfxbench4-avg-wide.csv:1: no variant columns: in a wide table (--bench-col without --value-col) "
              "every column but the benchmark's, the run's and the boot's is a variant, and the header has only "
              "test, before, after");
}

TEST(ImportCsvSuite, RolesThatDescribeNeitherShape) {
    CsvColumnRoles none;
    EXPECT_FALSE(none.any());
    EXPECT_EQ(column_roles_problem(none), "");
    EXPECT_EQ(column_roles_problem(long_roles()), "");
    EXPECT_EQ(column_roles_problem(wide_roles()), "");

    CsvColumnRoles r;
    r.values = {"fps"};
    EXPECT_EQ(column_roles_problem(r),
              "--value-col describes a suite's table and needs --bench-col, the column of benchmark names "
              "(a table of one row per run names its columns variant, boot and run instead)");
    r = wide_roles();
    r.variant_cols = {"a"};
    r.values = {"fps"};
    EXPECT_EQ(column_roles_problem(r),
              "--variant-cols picks the variant columns of a wide table (a row per benchmark); --variant-col and "
              "--value-col describe a long one (a row per observation): use one shape");
    r = wide_roles();
    r.variant = "variant";
    EXPECT_EQ(column_roles_problem(r),
              "--variant-col describes a long table (a row per observation) and needs --value-col, the column "
              "of values");
    r = long_roles({"score", "fps"});
    r.units = {{"ms", "ms"}};
    EXPECT_EQ(column_roles_problem(r), "--unit ms=ms: 'ms' is not a --value-col (value columns: score, fps)");
    r = wide_roles();
    r.units = {{"fps", "fps"}};
    EXPECT_EQ(column_roles_problem(r), "--unit fps=fps: 'fps' is not a --value-col (there is none: give --unit "
                                       "UNIT alone)");
    r = long_roles({"test"});
    EXPECT_EQ(column_roles_problem(r), "column 'test' is named by --bench-col and by --value-col: a column has one role");
    r = long_roles({"fps", "fps"});
    EXPECT_EQ(column_roles_problem(r), "column 'fps' is named by --value-col twice: a column has one role");

    // The importer refuses them too, before reading the file.
    r.values = {"fps"};
    r.bench = "";
    ResultsFile f;
    EXPECT_THROW(import_csv_suite(fixture("csv/gfxbench4-avg-long.csv"), {}, r, f), std::invalid_argument);
}

TEST(ImportCsv, WithoutRolesTheSuiteFixturesAreRowsPerRun) {
    // The one-row-per-run reading is unchanged: a wide table's columns are
    // metrics, 'test' among them (a number expected).
    EXPECT_EQ(error_of(import_csv, "csv/gfxbench4-avg-wide.csv"),
              "csv/gfxbench4-avg-wide.csv:2: expected a number in column 'test', found \"gl_4\"");
}

// A saved IGT output of many subtests ---------------------------------------

// gem_fence_upload's six subtests as today's IGT prints them (its format
// strings, tests/intel/gem_fence_upload.c; the rates made up), saved with
// `gem_fence_upload > out.txt`: every subtest's lines are metrics of their
// own, none pooled with another subtest's.
TEST(ImportIgtSavedOutput, FenceUploadGivesOneMetricPerSubtestLine) {
    const std::string path = ::testing::TempDir() + "gfxstat_import_text_fence_upload.txt";
    std::ofstream(path, std::ios::binary)
        << "IGT-Version: 1.28-g0123456 (x86_64) (Linux: 6.8.0-31-generic x86_64)\n"
           "Starting subtest: performance\n"
           "Upload rate for 2 linear surfaces:\t8127.123MiB/s\n"
           "Upload rate for 2 tiled surfaces:\t8607.456MiB/s\n"
           "Upload rate for 4 linear surfaces:\t8127.500MiB/s\n"
           "Upload rate for 4 tiled surfaces:\t8611.000MiB/s\n"
           "Subtest performance: SUCCESS (2.046s)\n"
           "Starting subtest: thread-contention\n"
           "Contended upload rate for 1 linear threads:\t1201.250MiB/s\n"
           "Contended upload rate for 1 tiled threads:\t1100.500MiB/s\n"
           "Contended upload rate for 2 linear threads:\t2301.000MiB/s\n"
           "Contended upload rate for 2 tiled threads:\t2100.000MiB/s\n"
           "Subtest thread-contention: SUCCESS (1.020s)\n"
           "Starting subtest: wc-contention\n"
           "Contended upload rate for 1 linear threads/wc:\t 901.000MiB/s\n"
           "Contended upload rate for 1 tiled threads/wc:\t 851.000MiB/s\n"
           "Contended upload rate for 2 linear threads/wc:\t1702.000MiB/s\n"
           "Contended upload rate for 2 tiled threads/wc:\t1602.000MiB/s\n"
           "Subtest wc-contention: SUCCESS (0.998s)\n"
           "Starting subtest: thread-performance-read\n"
           "Download rate for 2 linear surfaces, 2 threads:\t 400.000MiB/s\n"
           "Download rate for 2 tiled surfaces, 2 threads:\t 380.000MiB/s\n"
           "Subtest thread-performance-read: SUCCESS (0.301s)\n"
           "Starting subtest: thread-performance-write\n"
           "Upload rate for 2 linear surfaces, 2 threads:\t 500.000MiB/s\n"
           "Upload rate for 2 tiled surfaces, 2 threads:\t 480.000MiB/s\n"
           "Subtest thread-performance-write: SUCCESS (0.299s)\n"
           "Starting subtest: thread-performance-both\n"
           "Combined rate for 2 linear surfaces, 4 threads:\t 450.000MiB/s\n"
           "Combined rate for 2 tiled surfaces, 4 threads:\t 430.000MiB/s\n"
           "Subtest thread-performance-both: SUCCESS (0.305s)\n";
    ResultsFile f;
    formats::import_file("igt-fence-upload", path, {}, f);
    EXPECT_EQ(metric_names(f),
              (Texts{"linear_2", "tiled_2", "linear_4", "tiled_4", "contended_linear_threads_1",
                     "contended_tiled_threads_1", "contended_linear_threads_2", "contended_tiled_threads_2",
                     "contended_wc_linear_threads_1", "contended_wc_tiled_threads_1", "contended_wc_linear_threads_2",
                     "contended_wc_tiled_threads_2", "download_linear_2_threads_2", "download_tiled_2_threads_2",
                     "linear_2_threads_2", "tiled_2_threads_2", "combined_linear_2_threads_4",
                     "combined_tiled_2_threads_4"}));
    ASSERT_EQ(f.runs().size(), 1u);
    const RunRecord& r = f.runs()[0];
    ASSERT_EQ(r.metrics.size(), 18u);
    for (const MetricValues& m : r.metrics) EXPECT_EQ(m.values.size(), 1u) << m.name;  // no pooling
    EXPECT_EQ(values(r, "contended_tiled_threads_1"), (Texts{"1100500e-3"}));
    EXPECT_EQ(values(r, "contended_wc_tiled_threads_1"), (Texts{"851000e-3"}));
    EXPECT_EQ(declaration(f, "contended_wc_linear_threads_2"), "MiB/s, higher");
    std::remove(path.c_str());
}

// gotest -----------------------------------------------------------------

TEST(ImportGotest, WholeFileIsOneRunWithEveryRepetition) {
    const ResultsFile f = import_file(import_gotest, "gotest/bench.txt");
    EXPECT_EQ(metric_names(f), (Texts{
                                   "BenchmarkDecode/small-16:ns/op",
                                   "BenchmarkDecode/small-16:MB/s",
                                   "BenchmarkDecode/small-16:B/op",
                                   "BenchmarkDecode/small-16:allocs/op",
                                   "BenchmarkDecodeParallel-16:ns/op",
                                   "BenchmarkDecodeParallel-16:B/op",
                                   "BenchmarkDecodeParallel-16:allocs/op",
                                   "BenchmarkEncode-16:ns/op",
                                   "BenchmarkEncode-16:dB",
                               }));
    EXPECT_EQ(declaration(f, "BenchmarkDecode/small-16:ns/op"), "ns/op, lower");
    EXPECT_EQ(declaration(f, "BenchmarkDecode/small-16:MB/s"), "MB/s, higher");
    EXPECT_EQ(declaration(f, "BenchmarkDecodeParallel-16:allocs/op"), "allocs/op, lower");
    EXPECT_EQ(declaration(f, "BenchmarkEncode-16:dB"), "dB, unknown");

    ASSERT_EQ(f.runs().size(), 1u);
    const RunRecord& r = f.runs()[0];
    EXPECT_EQ(r.variant, "bench");
    EXPECT_EQ(r.run, 0u);
    EXPECT_EQ(r.source, fixture("gotest/bench.txt"));
    EXPECT_EQ(r.exit_class, ExitClass::ok);
    EXPECT_EQ(r.metrics.size(), 9u);
    EXPECT_EQ(values(r, "BenchmarkDecode/small-16:ns/op"), (Texts{"2345e0", "2351e0", "2398e0", "2339e0", "2347e0"}));
    EXPECT_EQ(values(r, "BenchmarkDecode/small-16:MB/s"), (Texts{"5590e-2", "5576e-2", "5466e-2", "5604e-2", "5585e-2"}));
    EXPECT_EQ(values(r, "BenchmarkDecodeParallel-16:ns/op"),
              (Texts{"3864e-1", "3910e-1", "3849e-1", "3927e-1", "3882e-1"}));
    EXPECT_EQ(values(r, "BenchmarkDecodeParallel-16:B/op"), (Texts{"128e0", "128e0", "128e0", "128e0", "128e0"}));
    EXPECT_EQ(values(r, "BenchmarkEncode-16:ns/op"),
              (Texts{"104523e0", "105870e0", "103998e0", "104771e0", "104102e0"}));
    EXPECT_EQ(values(r, "BenchmarkEncode-16:dB"), (Texts{"412e-1", "409e-1", "413e-1", "41e0", "4115e-2"}));
    EXPECT_TRUE(r.metric("BenchmarkEncode-16:dB")->array);

    // The configuration in effect at the first result: the first package.
    const Environment* env = f.find_environment(r.environment);
    ASSERT_NE(env, nullptr);
    EXPECT_EQ(env->fields, (std::map<std::string, std::string>{
                               {"cpu_model", "AMD Ryzen 7 5800X 8-Core Processor"},
                               {"go_goarch", "amd64"},
                               {"go_goos", "linux"},
                               {"go_pkg", "example.com/gfx/decode"},
                           }));
    EXPECT_TRUE(env->tags.empty());
}

TEST(ImportGotest, LabelMetricDirectionAndTagOptions) {
    ImportOptions options;
    options.label = "go1.22";
    options.metric = "BenchmarkEncode-16:dB";
    options.direction = Direction::higher_is_better;
    options.tags = {{"commit", "9f2c1ab"}};
    ResultsFile f = import_file(import_gotest, "gotest/bench.txt", options);
    EXPECT_EQ(metric_names(f), (Texts{"BenchmarkEncode-16:dB"}));
    EXPECT_EQ(declaration(f, "BenchmarkEncode-16:dB"), "dB, higher");  // the unit says nothing: the option does
    ASSERT_EQ(f.runs().size(), 1u);
    EXPECT_EQ(f.runs()[0].variant, "go1.22");
    EXPECT_EQ(f.runs()[0].metrics.size(), 1u);
    const Environment* env = f.find_environment(f.runs()[0].environment);
    ASSERT_NE(env, nullptr);
    EXPECT_EQ(env->tags.at("commit"), "9f2c1ab");
    EXPECT_EQ(env->fields.at("go_goos"), "linux");

    // The unit's own direction wins over the option.
    options.metric = "BenchmarkEncode-16:ns/op";
    import_gotest(fixture("gotest/bench.txt"), options, f);
    EXPECT_EQ(declaration(f, "BenchmarkEncode-16:ns/op"), "ns/op, lower");
    EXPECT_EQ(f.runs()[1].run, 1u);

    options.metric = "BenchmarkEncode:ns/op";
    EXPECT_EQ(error_of(import_gotest, "gotest/crlf.txt", options),
              "gotest/crlf.txt: no metric 'BenchmarkEncode:ns/op'; the file has: BenchmarkBlit-8:ns/op, "
              "BenchmarkBlit-8:MB/s");
}

TEST(ImportGotest, CrlfLinesAndNoConfiguration) {
    ResultsFile f;
    import_gotest(fixture("gotest/crlf.txt"), {}, f);
    import_gotest(fixture("gotest/crlf.txt"), {}, f);
    ASSERT_EQ(f.runs().size(), 2u);
    EXPECT_EQ(f.runs()[1].variant, "crlf");
    EXPECT_EQ(f.runs()[1].run, 1u);
    EXPECT_EQ(f.runs()[0].environment, "");
    EXPECT_EQ(values(f.runs()[0], "BenchmarkBlit-8:ns/op"), (Texts{"1234e0", "1240e0", "1229e0"}));
    EXPECT_EQ(values(f.runs()[0], "BenchmarkBlit-8:MB/s"), (Texts{"125e-1", "124e-1"}));
}

TEST(ImportGotest, MalformedFilesNameFileAndLine) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"odd_fields.txt",
         ":2: expected the iteration count, then value-unit pairs, after \"BenchmarkBlit-8\"; found 4 fields"},
        {"bad_number.txt", ":4: expected a number before unit \"ns/op\", found \"12,34\""},
        {"nan.txt", ":2: \"NaN\" (in \"ns/op\") is not a finite number"},
        {"bad_iterations.txt", ":3: expected an iteration count after \"BenchmarkBlit-8\", found \"many\""},
        {"no_benchmarks.txt", ": no benchmark result lines (BenchmarkName  N  value unit ...)"},
    };
    for (const auto& [name, what] : cases)
        EXPECT_EQ(error_of(import_gotest, "gotest/" + name), "gotest/" + name + what);
}

// ezbench ----------------------------------------------------------------

TEST(ImportEzbench, CompletedRunKeepsEveryNumericSubtest) {
    const ResultsFile f = import_file(import_ezbench, "ezbench/completed.txt");
    EXPECT_EQ(metric_names(f), (Texts{"glmark2 build", "glmark2 texture", "frame time", "draw calls",
                                      "shader compile", "upload", "score"}));
    EXPECT_EQ(declaration(f, "glmark2 build"), "FPS, higher");
    EXPECT_EQ(declaration(f, "frame time"), "ms, lower");
    EXPECT_EQ(declaration(f, "draw calls"), ", unknown");
    EXPECT_EQ(declaration(f, "shader compile"), "s, lower");
    EXPECT_EQ(declaration(f, "upload"), "MiB/s, higher");
    EXPECT_EQ(declaration(f, "score"), ", unknown");

    ASSERT_EQ(f.runs().size(), 1u);
    const RunRecord& r = f.runs()[0];
    EXPECT_EQ(r.variant, "completed");
    EXPECT_EQ(r.run, 0u);
    EXPECT_EQ(r.source, fixture("ezbench/completed.txt"));
    EXPECT_EQ(r.exit_class, ExitClass::ok);
    EXPECT_EQ(r.environment, "");
    EXPECT_EQ(values(r, "glmark2 build"), (Texts{"1523e0"}));
    EXPECT_EQ(values(r, "glmark2 texture"), (Texts{"16885e-1"}));
    EXPECT_EQ(values(r, "frame time"), (Texts{"657e-3", "662e-3", "649e-3"}));
    EXPECT_EQ(values(r, "draw calls"), (Texts{"12000e0"}));
    EXPECT_EQ(values(r, "shader compile"), (Texts{"125e-5"}));
    EXPECT_EQ(values(r, "upload"), (Texts{"8425e-1"}));
    EXPECT_TRUE(r.metric("frame time")->array);
    EXPECT_FALSE(r.metric("glmark2 build")->array);
    // str() and img() subtests hold no sample.
    EXPECT_EQ(r.metric("piglit sanity"), nullptr);
    EXPECT_EQ(r.metric("screenshot"), nullptr);
}

TEST(ImportEzbench, StatusLineGivesTheExitClass) {
    ResultsFile f;
    import_ezbench(fixture("ezbench/failed.txt"), {}, f);
    import_ezbench(fixture("ezbench/skipped.txt"), {}, f);
    ASSERT_EQ(f.runs().size(), 2u);
    EXPECT_EQ(f.runs()[0].exit_class, ExitClass::fail);
    EXPECT_EQ(values(f.runs()[0], "render"), (Texts{"167e-1", "171e-1"}));  // kept all the same
    EXPECT_EQ(f.runs()[1].exit_class, ExitClass::skip);
    EXPECT_TRUE(f.runs()[1].metrics.empty());
    EXPECT_EQ(f.variants(), (Texts{"failed", "skipped"}));
}

TEST(ImportEzbench, NoStatusLineIntValuesCrlfAndTheUnnamedValue) {
    const ResultsFile f = import_file(import_ezbench, "ezbench/no_status.txt");
    ASSERT_EQ(f.runs().size(), 1u);
    const RunRecord& r = f.runs()[0];
    EXPECT_EQ(r.exit_class, ExitClass::ok);
    EXPECT_EQ(values(r, "latency"), (Texts{"45e-1", "5e0"}));
    EXPECT_EQ(declaration(f, "latency"), "us, lower");
    EXPECT_EQ(values(r, "value"), (Texts{"3372e-2"}));
    EXPECT_EQ(declaration(f, "value"), "s, lower");
}

TEST(ImportEzbench, OptionsFillMissingUnitsAndSelectOneSubtest) {
    ImportOptions options;
    options.unit = "calls";
    options.direction = Direction::higher_is_better;
    options.label = "mesa-main";
    ResultsFile f = import_file(import_ezbench, "ezbench/completed.txt", options);
    EXPECT_EQ(declaration(f, "draw calls"), "calls, higher");
    EXPECT_EQ(declaration(f, "frame time"), "ms, lower");  // the line's unit wins
    EXPECT_EQ(f.runs()[0].variant, "mesa-main");

    options = {};
    options.metric = "frame time";
    f = import_file(import_ezbench, "ezbench/completed.txt", options);
    EXPECT_EQ(metric_names(f), (Texts{"frame time"}));
    ASSERT_EQ(f.runs().size(), 1u);
    EXPECT_EQ(f.runs()[0].metrics.size(), 1u);

    options.metric = "fps";
    EXPECT_EQ(error_of(import_ezbench, "ezbench/failed.txt", options),
              "ezbench/failed.txt: no subtest 'fps'; the file has: render");
}

TEST(ImportEzbench, EachStatusLineClosesARun) {
    // The status line ends a run, so what follows it is the next run (an
    // EzBench log, runs pasted one after the other), no longer an error:
    // after_status.txt is two runs, the second without a status line.
    const ResultsFile f = import_file(import_ezbench, "ezbench/after_status.txt");
    ASSERT_EQ(f.runs().size(), 2u);
    EXPECT_EQ(values(f.runs()[0], "render"), (Texts{"167e-1"}));
    EXPECT_EQ(values(f.runs()[1], "render"), (Texts{"169e-1"}));
    EXPECT_EQ(f.runs()[0].run, 0u);
    EXPECT_EQ(f.runs()[1].run, 1u);
    EXPECT_EQ(f.runs()[0].variant, "after_status");
    EXPECT_EQ(f.runs()[1].variant, "after_status");
    // Each run says where in the file it starts.
    EXPECT_EQ(f.runs()[0].source, fixture("ezbench/after_status.txt") + ":1");
    EXPECT_EQ(f.runs()[1].source, fixture("ezbench/after_status.txt") + ":3");
    EXPECT_EQ(f.runs()[0].exit_class, ExitClass::ok);
    EXPECT_EQ(f.runs()[1].exit_class, ExitClass::ok);  // no status line: ok, as for one run
}

TEST(ImportEzbench, MalformedFilesNameFileAndLine) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"bad_line.txt", ":2: expected 'SubTest: float(value) unit' or ': str(status)', found \"render 16.9 ms\""},
        {"bad_float.txt", ":2: expected a number in float(), found \"fast\""},
        {"bad_int.txt", ":2: expected an integer in int(), found \"1.5e3\""},
        {"not_finite.txt", ":2: \"-inf\" is not a finite number"},
        {"unit_changes.txt", ":3: subtest 'render' has unit \"s\" here but \"ms\" on line 1"},
        {"unknown_type.txt", ":2: expected a value of type float, int, str or img, found \"double\""},
        {"blank.txt", ": empty file: expected 'SubTest: float(value) unit' lines"},
    };
    for (const auto& [name, what] : cases)
        EXPECT_EQ(error_of(import_ezbench, "ezbench/" + name), "ezbench/" + name + what);
}

}  // namespace
}  // namespace gfxstat::data
