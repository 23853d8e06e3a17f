// The text importers (--from csv, gotest, ezbench) on the fixtures in
// tests/data/import/: exact values, metric declarations, run identities,
// environments, exit classes, and the FILE:LINE: of every error.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "formats/import_support.h"
#include "data/input_error.h"
#include "test_support.h"

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
