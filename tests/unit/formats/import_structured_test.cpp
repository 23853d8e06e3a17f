// SPDX-License-Identifier: MIT
// Importers of structured formats: hyperfine and Google Benchmark JSON,
// Phoronix Test Suite composite.xml (and the XML reader under it). The
// fixtures in tests/data/import/ are shaped like what those tools write.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "formats/import_support.h"
#include "data/input_error.h"
#include "data/results_json.h"
#include "data/xml_reader.h"
#include "tests/unit/test_support.h"

namespace gfxstat::data {
namespace {

// The importers and their options live in formats/ (one file per format).
using namespace gfxstat::formats;

std::string fixture(const std::string& rel) { return test::source_path("tests/data/import/" + rel); }

// A file holding `text`, for cases too small to deserve a fixture.
std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "gfxstat_import_structured_" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

std::string text_of(const NumberToken& t) {
    std::string s;
    append_json_number(s, t);
    return s;
}

// The values of `metric` over the runs of `variant`, in run order.
std::vector<std::string> values(const ResultsFile& f, const std::string& variant, const std::string& metric) {
    std::vector<std::string> out;
    for (const RunRecord& r : f.runs())
        if (r.variant == variant)
            if (const MetricValues* m = r.metric(metric))
                for (const NumberToken& t : m->values) out.push_back(text_of(t));
    return out;
}

std::vector<const RunRecord*> runs_of(const ResultsFile& f, const std::string& variant) {
    std::vector<const RunRecord*> out;
    for (const RunRecord& r : f.runs())
        if (r.variant == variant) out.push_back(&r);
    return out;
}

// The message of the InputError `fn` throws; fails the test when it throws none.
std::string error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no InputError thrown";
    return {};
}

#define EXPECT_STARTS_WITH(text, prefix) EXPECT_TRUE(std::string(text).starts_with(prefix)) << (text)
#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

// hyperfine ---------------------------------------------------------------

const std::string kXz1 = "xz -T 1 -6 -k -c linux-6.7.tar";
const std::string kXz2 = "xz -T 2 -6 -k -c linux-6.7.tar";

TEST(ImportHyperfine, EachCommandIsAVariantAndEachTimeARun) {
    const std::string path = fixture("hyperfine/scan.json");
    ResultsFile f;
    import_hyperfine(path, {}, f);

    EXPECT_EQ(f.variants(), (std::vector<std::string>{kXz1, kXz2}));
    ASSERT_EQ(f.runs().size(), 10u);
    ASSERT_EQ(f.metrics().size(), 1u);
    EXPECT_EQ(f.metrics()[0].name, "time");
    EXPECT_EQ(f.metrics()[0].unit, "s");
    EXPECT_EQ(f.metrics()[0].direction, Direction::lower_is_better);
    // Exact decimals as hyperfine printed them, 17 digits included.
    EXPECT_EQ(values(f, kXz1, "time"), (std::vector<std::string>{"2.0371652088600003", "2.04417539286",
                                                                  "2.03106829886", "2.05298412386", "2.03880615886"}));
    EXPECT_EQ(values(f, kXz2, "time"), (std::vector<std::string>{"1.09124582556", "1.08713497856", "1.10320719356",
                                                                  "1.0951023185600002", "1.08944190156"}));
    const auto runs = runs_of(f, kXz2);
    for (size_t i = 0; i < runs.size(); ++i) {
        EXPECT_EQ(runs[i]->run, i);
        EXPECT_EQ(runs[i]->exit_class, ExitClass::ok);
        EXPECT_EQ(runs[i]->exit_code, 0);
        EXPECT_EQ(runs[i]->source, path + ":results[1]");
        EXPECT_FALSE(runs[i]->metrics[0].array);
    }
}

TEST(ImportHyperfine, ParametersBecomeTagsBesideTheUsersTags) {
    ImportOptions options;
    options.tags = {{"mesa", "a1b2c3d"}};
    ResultsFile f;
    import_hyperfine(fixture("hyperfine/scan.json"), options, f);

    ASSERT_EQ(f.environments().size(), 2u);
    const Environment* e1 = f.find_environment(runs_of(f, kXz1)[0]->environment);
    const Environment* e2 = f.find_environment(runs_of(f, kXz2)[0]->environment);
    ASSERT_TRUE(e1 && e2);
    EXPECT_EQ(e1->tags, (std::map<std::string, std::string>{{"mesa", "a1b2c3d"}, {"threads", "1"}}));
    EXPECT_EQ(e2->tags, (std::map<std::string, std::string>{{"mesa", "a1b2c3d"}, {"threads", "2"}}));
    EXPECT_TRUE(e1->fields.empty());
}

TEST(ImportHyperfine, ParameterContradictingATagIsAnError) {
    ImportOptions options;
    options.tags = {{"threads", "1"}};
    const std::string path = fixture("hyperfine/scan.json");
    ResultsFile f;
    EXPECT_EQ(error_of([&] { import_hyperfine(path, options, f); }),
              path + ": results[1].parameters.threads: value \"2\" differs from --tag threads=1");
    // Found before anything was added, though results[0] agreed.
    EXPECT_TRUE(f.runs().empty());
    EXPECT_TRUE(f.metrics().empty());
}

TEST(ImportHyperfine, NonZeroExitCodeIsAFailedRun) {
    ResultsFile f;
    import_hyperfine(fixture("hyperfine/failing.json"), {}, f);
    const auto runs = runs_of(f, "./vkcube --c 600");
    ASSERT_EQ(runs.size(), 4u);
    const std::vector<ExitClass> classes = {ExitClass::ok, ExitClass::ok, ExitClass::fail, ExitClass::ok};
    const std::vector<int> codes = {0, 0, 1, 0};
    for (size_t i = 0; i < runs.size(); ++i) {
        EXPECT_EQ(runs[i]->exit_class, classes[i]) << i;
        EXPECT_EQ(runs[i]->exit_code, codes[i]) << i;
    }
    // The failed run's time is kept all the same.
    EXPECT_EQ(text_of(runs[2]->metrics[0].values[0]), "0.52381130214");
}

TEST(ImportHyperfine, NullExitCodeIsACrashWithoutCode) {
    const std::string path = write_temp("null_exit.json",
                                        R"({"results":[{"command":"a","times":[1.5,2],"exit_codes":[null,0]}]})");
    ResultsFile f;
    import_hyperfine(path, {}, f);
    ASSERT_EQ(f.runs().size(), 2u);
    EXPECT_EQ(f.runs()[0].exit_class, ExitClass::crash);
    EXPECT_FALSE(f.runs()[0].exit_code.has_value());
    EXPECT_EQ(f.runs()[1].exit_class, ExitClass::ok);
    EXPECT_EQ(values(f, "a", "time"), (std::vector<std::string>{"1.5", "2"}));
}

TEST(ImportHyperfine, RunIndicesContinueAcrossFiles) {
    const std::string path = fixture("hyperfine/failing.json");
    ResultsFile f;
    import_hyperfine(path, {}, f);
    import_hyperfine(path, {}, f);
    const auto runs = runs_of(f, "./vkcube --c 600");
    ASSERT_EQ(runs.size(), 8u);
    for (size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(runs[i]->run, i);
}

TEST(ImportHyperfine, LabelOnlyForASingleCommand) {
    ImportOptions options;
    options.label = "vkcube-mesa24";
    ResultsFile f;
    import_hyperfine(fixture("hyperfine/failing.json"), options, f);
    EXPECT_EQ(f.variants(), std::vector<std::string>{"vkcube-mesa24"});

    const std::string scan = fixture("hyperfine/scan.json");
    ResultsFile g;
    const std::string msg = error_of([&] { import_hyperfine(scan, options, g); });
    EXPECT_STARTS_WITH(msg, scan + ": --label names one variant, but this file holds 2 commands");
    EXPECT_CONTAINS(msg, "--command-name");
    EXPECT_TRUE(g.runs().empty());
}

TEST(ImportHyperfine, MetricOptionMustNameTime) {
    ImportOptions options;
    options.metric = "time";
    ResultsFile f;
    import_hyperfine(fixture("hyperfine/failing.json"), options, f);
    EXPECT_EQ(f.runs().size(), 4u);

    options.metric = "mean";
    const std::string path = fixture("hyperfine/failing.json");
    EXPECT_EQ(error_of([&] { import_hyperfine(path, options, f); }),
              path + ": no metric 'mean' in this file; it has: time");
}

TEST(ImportHyperfine, BrokenJsonNamesTheLine) {
    const std::string path = fixture("hyperfine/broken.json");
    ResultsFile f;
    // The comma missing after "min" on line 10 shows where "max" begins.
    EXPECT_STARTS_WITH(error_of([&] { import_hyperfine(path, {}, f); }), path + ":11: invalid JSON: ");
}

TEST(ImportHyperfine, TruncatedJsonNamesTheLastLine) {
    const std::string path = write_temp("truncated.json", "{\n  \"results\": [\n    {\"command\": \"a\",\n");
    ResultsFile f;
    EXPECT_STARTS_WITH(error_of([&] { import_hyperfine(path, {}, f); }), path + ":3: invalid JSON: ");
}

TEST(ImportHyperfine, MissingTimesIsExplained) {
    const std::string path = fixture("hyperfine/no_times.json");
    ResultsFile f;
    const std::string msg = error_of([&] { import_hyperfine(path, {}, f); });
    EXPECT_STARTS_WITH(msg, path + ": results[0].times: missing: this file was exported without per-run times");
    EXPECT_TRUE(f.metrics().empty());
}

TEST(ImportHyperfine, WrongTypesNameTheJsonPath) {
    const std::string a = write_temp("string_time.json", R"({"results":[{"command":"a","times":[1,"2"]}]})");
    const std::string b =
        write_temp("short_codes.json", R"({"results":[{"command":"a","times":[1,2],"exit_codes":[0]}]})");
    const std::string c = write_temp("no_results.json", R"({"commands":[]})");
    const std::string d =
        write_temp("float_code.json", R"({"results":[{"command":"a","times":[1],"exit_codes":[0.5]}]})");
    ResultsFile f;
    EXPECT_EQ(error_of([&] { import_hyperfine(a, {}, f); }),
              a + ": results[0].times[1]: expected a number, found a string");
    EXPECT_EQ(error_of([&] { import_hyperfine(b, {}, f); }),
              b + ": results[0].exit_codes: 1 exit codes for 2 times");
    EXPECT_STARTS_WITH(error_of([&] { import_hyperfine(c, {}, f); }), c + ": results: missing");
    EXPECT_EQ(error_of([&] { import_hyperfine(d, {}, f); }),
              d + ": results[0].exit_codes[0]: expected an integer exit code or null, found a number");
    EXPECT_TRUE(f.runs().empty());
}

// What json::parse would resolve silently is refused, as results files and
// the column readers refuse it: the file, line, JSON path and value.
TEST(ImportHyperfine, UnderflowOverflowAndRepeatedMembersAreRefused) {
    const std::string a = write_temp("underflow.json", "{\"results\": [{\"command\": \"a\",\n"
                                                       "  \"times\": [0.1,\n    1e-400]}]}\n");
    const std::string b = write_temp("overflow.json", "{\"results\": [{\"command\": \"a\", \"times\": [1e400]}]}");
    const std::string c = write_temp("twice.json", "{\"results\": [{\"command\": \"a\",\n"
                                                   "  \"command\": \"b\", \"times\": [1]}]}");
    const std::string d = write_temp("subnormal.json", "{\"results\": [{\"command\": \"a\", \"times\": [5e-324, 0e-400]}]}");
    ResultsFile f;
    EXPECT_EQ(error_of([&] { import_hyperfine(a, {}, f); }),
              a + ":3: results[0].times[1]: \"1e-400\" is too close to 0 for a double (it would be stored as 0)");
    EXPECT_EQ(error_of([&] { import_hyperfine(b, {}, f); }),
              b + ":1: results[0].times[0]: \"1e400\" is beyond the range of a double");
    EXPECT_EQ(error_of([&] { import_hyperfine(c, {}, f); }),
              c + ":2: results[0]: member \"command\" appears twice (which one counts is not defined)");
    EXPECT_TRUE(f.runs().empty());
    import_hyperfine(d, {}, f);
    EXPECT_EQ(values(f, "a", "time"), (std::vector<std::string>{"5e-324", "0"}));
}

// Google Benchmark ----------------------------------------------------------

TEST(ImportGbench, RepetitionsOfEveryBenchmarkAreOneRun) {
    const std::string path = fixture("gbench/repetitions.json");
    ResultsFile f;
    import_gbench(path, {}, f);

    ASSERT_EQ(f.runs().size(), 1u);
    const RunRecord& run = f.runs()[0];
    EXPECT_EQ(run.variant, "repetitions");
    EXPECT_EQ(run.run, 0u);
    EXPECT_EQ(run.source, path);
    EXPECT_EQ(run.start, "2024-03-12T14:05:31+01:00");
    EXPECT_EQ(run.exit_class, ExitClass::ok);

    // Aggregates are not imported; BM_BlitGpu/64 errored every time and
    // has no metric at all.
    std::vector<std::string> names;
    for (const MetricValues& m : run.metrics) names.push_back(m.name);
    EXPECT_EQ(names, (std::vector<std::string>{"BM_Blit/64", "BM_Blit/64:cpu_time", "BM_Blit/4096",
                                               "BM_Blit/4096:cpu_time"}));
    for (const MetricValues& m : run.metrics) EXPECT_TRUE(m.array) << m.name;

    // 17-digit scientific text read back as the shortest decimal of its double.
    EXPECT_EQ(values(f, "repetitions", "BM_Blit/64"),
              (std::vector<std::string>{"161.8173508454321", "162.04418733911376", "161.5529012"}));
    EXPECT_EQ(values(f, "repetitions", "BM_Blit/64:cpu_time"),
              (std::vector<std::string>{"161.702123456789", "161.9934", "161.49987011337103"}));
    // Repetition 1 of BM_Blit/4096 errored: two values remain.
    EXPECT_EQ(values(f, "repetitions", "BM_Blit/4096"),
              (std::vector<std::string>{"12.481900000000001", "12.5127"}));
    EXPECT_EQ(values(f, "repetitions", "BM_Blit/4096:cpu_time"),
              (std::vector<std::string>{"12.4737", "12.502615384615385"}));

    ASSERT_EQ(f.metrics().size(), 4u);
    EXPECT_EQ(f.find_metric("BM_Blit/64")->unit, "ns");
    EXPECT_EQ(f.find_metric("BM_Blit/64:cpu_time")->unit, "ns");
    EXPECT_EQ(f.find_metric("BM_Blit/4096")->unit, "us");
    EXPECT_EQ(f.find_metric("BM_Blit/4096:cpu_time")->direction, Direction::lower_is_better);
    EXPECT_EQ(f.find_metric("BM_BlitGpu/64"), nullptr);
}

TEST(ImportGbench, ContextBecomesEnvironmentFields) {
    ImportOptions options;
    options.tags = {{"commit", "9f8e7d6"}};
    ResultsFile f;
    import_gbench(fixture("gbench/repetitions.json"), options, f);
    const Environment* env = f.find_environment(f.runs().at(0).environment);
    ASSERT_NE(env, nullptr);
    EXPECT_EQ(env->fields, (std::map<std::string, std::string>{{"hostname", "perf-rig-03"},
                                                               {"gbench_num_cpus", "16"},
                                                               {"gbench_mhz_per_cpu", "4950"},
                                                               {"cpu_scaling", "disabled"},
                                                               {"gbench_build_type", "release"}}));
    EXPECT_EQ(env->tags, options.tags);
}

TEST(ImportGbench, LabelAndMetricOptions) {
    const std::string path = fixture("gbench/repetitions.json");
    ImportOptions options;
    options.label = "blit-before";
    options.metric = "BM_Blit/4096:cpu_time";
    ResultsFile f;
    import_gbench(path, options, f);
    import_gbench(path, options, f);
    EXPECT_EQ(f.variants(), std::vector<std::string>{"blit-before"});
    ASSERT_EQ(f.runs().size(), 2u);
    EXPECT_EQ(f.runs()[1].run, 1u);
    ASSERT_EQ(f.runs()[0].metrics.size(), 1u);
    EXPECT_EQ(f.runs()[0].metrics[0].name, "BM_Blit/4096:cpu_time");
    EXPECT_EQ(f.metrics().size(), 1u);

    options.metric = "BM_BlitGpu/64";
    EXPECT_EQ(error_of([&] { import_gbench(path, options, f); }),
              path + ": no metric 'BM_BlitGpu/64' in this file; it has: BM_Blit/64, BM_Blit/64:cpu_time, "
                     "BM_Blit/4096, BM_Blit/4096:cpu_time");
}

TEST(ImportGbench, WrongTypeNamesTheJsonPath) {
    const std::string path = fixture("gbench/bad_type.json");
    ResultsFile f;
    EXPECT_EQ(error_of([&] { import_gbench(path, {}, f); }),
              path + ": benchmarks[1].real_time: expected a number, found a string");
    EXPECT_TRUE(f.runs().empty());
    EXPECT_TRUE(f.metrics().empty());
}

TEST(ImportGbench, OldVersionsWithoutRunTypeAndIntegerTimes) {
    const std::string path = write_temp("old.json", R"({"benchmarks":[
        {"name":"BM_A","iterations":10,"real_time":1234,"cpu_time":1230,"time_unit":"ns"},
        {"name":"BM_A","iterations":10,"real_time":1240,"cpu_time":1236,"time_unit":"ns"}]})");
    ResultsFile f;
    import_gbench(path, {}, f);
    EXPECT_EQ(values(f, "gfxstat_import_structured_old", "BM_A"), (std::vector<std::string>{"1234", "1240"}));
    EXPECT_EQ(f.runs().at(0).environment, "");
    EXPECT_EQ(f.runs().at(0).start, "");
}

TEST(ImportGbench, NothingToImportIsAnError) {
    const std::string path = write_temp("all_errored.json", R"({"benchmarks":[
        {"name":"BM_A","run_type":"iteration","real_time":0,"cpu_time":0,"time_unit":"ns","error_occurred":true},
        {"name":"BM_A_mean","run_type":"aggregate","real_time":0,"cpu_time":0,"time_unit":"ns"}]})");
    ResultsFile f;
    EXPECT_EQ(error_of([&] { import_gbench(path, {}, f); }),
              path + ": no benchmark repetitions to import (1 errored, 1 aggregate entries)");
}

TEST(ImportGbench, InconsistentUnitsAndBrokenJson) {
    const std::string a = write_temp("units.json", R"({"benchmarks":[
        {"name":"BM_A","real_time":1,"cpu_time":1,"time_unit":"ns"},
        {"name":"BM_A","real_time":1,"cpu_time":1,"time_unit":"us"}]})");
    const std::string b = write_temp("broken_gbench.json", "{\n\"benchmarks\": [\n{\"name\": \"BM_A\",}\n]}\n");
    ResultsFile f;
    EXPECT_STARTS_WITH(error_of([&] { import_gbench(a, {}, f); }), a + ": benchmarks[1].time_unit: \"us\"");
    EXPECT_STARTS_WITH(error_of([&] { import_gbench(b, {}, f); }), b + ":3: invalid JSON: ");
}

TEST(ImportGbench, UnderflowAndRepeatedMembersAreRefused) {
    const std::string a = write_temp("gb_underflow.json", R"({"benchmarks":[
        {"name":"BM_A","real_time":1e-330,"cpu_time":1,"time_unit":"ns"}]})");
    const std::string b = write_temp("gb_twice.json", R"({"context":{"host_name":"a","host_name":"b"},
        "benchmarks":[{"name":"BM_A","real_time":1,"cpu_time":1,"time_unit":"ns"}]})");
    ResultsFile f;
    EXPECT_EQ(error_of([&] { import_gbench(a, {}, f); }),
              a + ":2: benchmarks[0].real_time: \"1e-330\" is too close to 0 for a double (it would be stored as 0)");
    EXPECT_EQ(error_of([&] { import_gbench(b, {}, f); }),
              b + ":1: context: member \"host_name\" appears twice (which one counts is not defined)");
    EXPECT_TRUE(f.runs().empty());
}

// Phoronix Test Suite -------------------------------------------------------

const std::string kOld = "Mesa 23.2.1";
const std::string kNew = "Mesa 24.0 & LLVM 17";
const std::string kHeaven = "Unigine Heaven (Resolution: 1920 x 1080 - Mode: Fullscreen - Renderer: OpenGL)";
const std::string kCompile = "Timed Mesa Compilation (Time To Compile)";

TEST(ImportPts, EachSystemIsAVariantAndEachRawValueARun) {
    const std::string path = fixture("pts/composite.xml");
    ResultsFile f;
    import_pts(path, {}, f);

    EXPECT_EQ(f.variants(), (std::vector<std::string>{kOld, kNew}));
    // The PASS_FAIL result holds no samples and is left out.
    ASSERT_EQ(f.metrics().size(), 2u);
    EXPECT_EQ(f.metrics()[0].name, kHeaven);
    EXPECT_EQ(f.metrics()[0].unit, "Frames Per Second");
    EXPECT_EQ(f.metrics()[0].direction, Direction::higher_is_better);
    EXPECT_EQ(f.metrics()[1].name, kCompile);
    EXPECT_EQ(f.metrics()[1].unit, "Seconds");
    EXPECT_EQ(f.metrics()[1].direction, Direction::lower_is_better);

    EXPECT_EQ(values(f, kOld, kHeaven), (std::vector<std::string>{"142.31", "141.87", "142.65"}));
    EXPECT_EQ(values(f, kNew, kHeaven), (std::vector<std::string>{"151.02", "150.77", "151.4"}));
    EXPECT_EQ(values(f, kOld, kCompile), (std::vector<std::string>{"58.412", "58.106", "58.773"}));
    // The newer system's compile entry has no RawString, only an average.
    EXPECT_TRUE(values(f, kNew, kCompile).empty());

    const auto old_runs = runs_of(f, kOld);
    ASSERT_EQ(old_runs.size(), 6u);
    ASSERT_EQ(runs_of(f, kNew).size(), 3u);
    for (size_t i = 0; i < old_runs.size(); ++i) {
        EXPECT_EQ(old_runs[i]->run, i);
        EXPECT_EQ(old_runs[i]->metrics.size(), 1u);
        EXPECT_FALSE(old_runs[i]->metrics[0].array);
        EXPECT_EQ(old_runs[i]->exit_class, ExitClass::ok);
    }
    EXPECT_EQ(old_runs[0]->source, path + ":42");
    EXPECT_EQ(old_runs[5]->source, path + ":65");
}

TEST(ImportPts, SystemDescriptionsBecomeEnvironmentFields) {
    ImportOptions options;
    options.tags = {{"board", "rx7600-a"}};
    ResultsFile f;
    import_pts(fixture("pts/composite.xml"), options, f);
    const Environment* old_env = f.find_environment(runs_of(f, kOld)[0]->environment);
    const Environment* new_env = f.find_environment(runs_of(f, kNew)[0]->environment);
    ASSERT_TRUE(old_env && new_env);
    EXPECT_NE(old_env->id, new_env->id);
    EXPECT_EQ(f.environments().size(), 2u);
    EXPECT_EQ(old_env->fields.at("cpu_model"), "AMD Ryzen 7 7700X 8-Core @ 5.57GHz (8 Cores / 16 Threads)");
    EXPECT_EQ(old_env->fields.at("kernel_release"), "6.5.0-14-generic");
    EXPECT_EQ(new_env->fields.at("kernel_release"), "6.7.4-060704-generic");
    EXPECT_TRUE(old_env->fields.at("pts_hardware").starts_with("Processor: AMD Ryzen 7 7700X"));
    EXPECT_TRUE(old_env->fields.at("pts_hardware").ends_with("Network: Intel I225-V"));
    // &#8211; decoded to U+2013 (en dash) in UTF-8.
    EXPECT_CONTAINS(new_env->fields.at("pts_software"),
                    "OpenGL: 4.6 Mesa 24.0.1 \xE2\x80\x93 kisak (LLVM 17.0.6 DRM 3.56)");
    EXPECT_EQ(old_env->fields.size(), 4u);
    EXPECT_EQ(old_env->tags, options.tags);
    // Every run of a variant shares its system's environment.
    for (const RunRecord* r : runs_of(f, kOld)) EXPECT_EQ(r->environment, old_env->id);
}

TEST(ImportPts, LabelOnlyForASingleSystem) {
    ImportOptions options;
    options.label = "rx7600";
    const std::string path = fixture("pts/composite.xml");
    ResultsFile f;
    const std::string msg = error_of([&] { import_pts(path, options, f); });
    EXPECT_STARTS_WITH(msg, path + ": --label names one variant, but this file holds 2 systems");
    EXPECT_TRUE(f.runs().empty());

    const std::string one = write_temp("one_system.xml", R"(<PhoronixTestSuite>
  <System><Identifier>only</Identifier></System>
  <Result><Title>T</Title><Scale>ms</Scale><Data>
    <Entry><Identifier>only</Identifier><Value>2</Value><RawString>1:3</RawString></Entry>
  </Data></Result>
</PhoronixTestSuite>
)");
    import_pts(one, options, f);
    EXPECT_EQ(f.variants(), std::vector<std::string>{"rx7600"});
    EXPECT_EQ(values(f, "rx7600", "T"), (std::vector<std::string>{"1", "3"}));
    // No Proportion: the direction is unknown unless the user says.
    EXPECT_EQ(f.find_metric("T")->direction, Direction::unknown);
    ImportOptions lower;
    lower.direction = Direction::lower_is_better;
    ResultsFile g;
    import_pts(one, lower, g);
    EXPECT_EQ(g.find_metric("T")->direction, Direction::lower_is_better);
}

TEST(ImportPts, MetricOptionKeepsOneResult) {
    const std::string path = fixture("pts/composite.xml");
    ImportOptions options;
    options.metric = kCompile;
    ResultsFile f;
    import_pts(path, options, f);
    ASSERT_EQ(f.metrics().size(), 1u);
    EXPECT_EQ(f.runs().size(), 3u);
    options.metric = "Unigine Heaven";
    EXPECT_EQ(error_of([&] { import_pts(path, options, f); }),
              path + ": no metric 'Unigine Heaven' in this file; it has: " + kHeaven + ", " + kCompile);
}

TEST(ImportPts, SeveralResultsOfOneTestAreOneMetricEach) {
    // One test profile run with several options gives one <Result> per
    // option set; each is a metric named by its own title and description,
    // declared in the file's order, every raw value of each its own run.
    const std::string path = write_temp("gfxbench.xml", R"(<PhoronixTestSuite>
  <System><Identifier>before</Identifier></System>
  <System><Identifier>after</Identifier></System>
  <Result><Title>GFXBench</Title><Description>Test: Manhattan - Resolution: 1920 x 1080</Description>
    <Scale>Frames Per Second</Scale><Proportion>HIB</Proportion><DisplayFormat>BAR_GRAPH</DisplayFormat><Data>
    <Entry><Identifier>before</Identifier><RawString>1144:1139:1150</RawString></Entry>
    <Entry><Identifier>after</Identifier><RawString>1202:1195:1208</RawString></Entry>
  </Data></Result>
  <Result><Title>GFXBench</Title><Description>Test: T-Rex - Resolution: 1920 x 1080</Description>
    <Scale>Frames Per Second</Scale><Proportion>HIB</Proportion><DisplayFormat>BAR_GRAPH</DisplayFormat><Data>
    <Entry><Identifier>before</Identifier><RawString>2224:2231:2219</RawString></Entry>
    <Entry><Identifier>after</Identifier><RawString>2152:2160:2147</RawString></Entry>
  </Data></Result>
  <Result><Title>GFXBench</Title><Description>Test: ALU 2 - Resolution: 1920 x 1080</Description>
    <Scale>Frames Per Second</Scale><Proportion>HIB</Proportion><DisplayFormat>BAR_GRAPH</DisplayFormat><Data>
    <Entry><Identifier>before</Identifier><RawString>1213</RawString></Entry>
    <Entry><Identifier>after</Identifier><RawString>1154</RawString></Entry>
  </Data></Result>
</PhoronixTestSuite>
)");
    ResultsFile f;
    import_pts(path, {}, f);
    const std::string manhattan = "GFXBench (Test: Manhattan - Resolution: 1920 x 1080)";
    const std::string trex = "GFXBench (Test: T-Rex - Resolution: 1920 x 1080)";
    const std::string alu = "GFXBench (Test: ALU 2 - Resolution: 1920 x 1080)";
    std::vector<std::string> names;
    for (const MetricInfo& m : f.metrics()) names.push_back(m.name);
    EXPECT_EQ(names, (std::vector<std::string>{manhattan, trex, alu}));
    for (const MetricInfo& m : f.metrics()) EXPECT_EQ(m.direction, Direction::higher_is_better);
    EXPECT_EQ(values(f, "before", manhattan), (std::vector<std::string>{"1144", "1139", "1150"}));
    EXPECT_EQ(values(f, "after", trex), (std::vector<std::string>{"2152", "2160", "2147"}));
    EXPECT_EQ(values(f, "after", alu), (std::vector<std::string>{"1154"}));
    // PTS runs one test's repetitions before the next test: each raw value
    // is a run of its own, holding that one metric.
    EXPECT_EQ(runs_of(f, "before").size(), 7u);
    for (const RunRecord& r : f.runs()) EXPECT_EQ(r.metrics.size(), 1u);
}

TEST(ImportPts, UnclosedTagNamesTheLine) {
    const std::string path = fixture("pts/unclosed.xml");
    ResultsFile f;
    EXPECT_EQ(error_of([&] { import_pts(path, {}, f); }),
              path + ":19: expected </Entry> to close <Entry> from line 15, found </Data>");
}

TEST(ImportPts, BadRawStringAndWrongRoot) {
    const std::string a = write_temp("bad_raw.xml", "<PhoronixTestSuite>\n<Result><Title>T</Title><Data><Entry>\n"
                                                    "<Identifier>s</Identifier>\n<RawString>1.5:fast</RawString>\n"
                                                    "</Entry></Data></Result></PhoronixTestSuite>\n");
    const std::string b = write_temp("not_pts.xml", "<?xml version=\"1.0\"?>\n<html></html>\n");
    const std::string c = write_temp("no_samples.xml", "<PhoronixTestSuite><System><Identifier>s</Identifier>"
                                                       "</System></PhoronixTestSuite>");
    ResultsFile f;
    EXPECT_STARTS_WITH(error_of([&] { import_pts(a, {}, f); }),
                       a + ":4: expected numbers separated by ':' in <RawString>, found \"fast\"");
    EXPECT_STARTS_WITH(error_of([&] { import_pts(b, {}, f); }), b + ":2: expected <PhoronixTestSuite>");
    EXPECT_STARTS_WITH(error_of([&] { import_pts(c, {}, f); }), c + ": no samples");
    EXPECT_TRUE(f.runs().empty());
}

// XML reader ----------------------------------------------------------------

TEST(ImportXmlReader, DecodesReferencesCdataAndSkipsComments) {
    const XmlElement root = read_xml("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                     "<!-- generated -->\n"
                                     "<a x='1' y=\"&amp;\">\n"
                                     "  <b>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#xe9;</b>\n"
                                     "  <c><![CDATA[<raw> & ]]>tail<!-- note --></c>\n"
                                     "  <d/>\n"
                                     "  <?pi data?>\n"
                                     "</a>\n<!-- after -->\n",
                                     "t.xml");
    EXPECT_EQ(root.name, "a");
    EXPECT_EQ(root.line, 3u);
    ASSERT_EQ(root.children.size(), 3u);
    EXPECT_EQ(root.child("b")->text, "<>&\"'AB\xC3\xA9");
    EXPECT_EQ(root.child("b")->line, 4u);
    EXPECT_EQ(root.child("c")->text, "<raw> & tail");
    EXPECT_EQ(root.child("d")->line, 6u);
    EXPECT_TRUE(root.child("d")->text.empty());
    EXPECT_EQ(root.child("e"), nullptr);
    EXPECT_EQ(root.children_named("b").size(), 1u);
}

TEST(ImportXmlReader, MalformedInputNamesLineAndExpectation) {
    auto err = [](const std::string& text) { return error_of([&] { read_xml(text, "t.xml"); }); };
    EXPECT_EQ(err("<a>\n<b>\n</a>"), "t.xml:3: expected </b> to close <b> from line 2, found </a>");
    EXPECT_EQ(err("<a>\n<b></b>\n"), "t.xml:3: expected </a> to close <a> from line 1, found end of file");
    EXPECT_STARTS_WITH(err("<a>&nbsp;</a>"), "t.xml:1: unknown entity \"&nbsp;\"");
    EXPECT_STARTS_WITH(err("<a>&#0;</a>"), "t.xml:1: \"&#0;\" is not a character XML allows");
    EXPECT_STARTS_WITH(err("<a>\n&amp</a>"), "t.xml:2: expected a reference like &amp; after '&'");
    EXPECT_STARTS_WITH(err("<a></a>\n<b/>"), "t.xml:2: expected end of file after </a>");
    EXPECT_STARTS_WITH(err("<!DOCTYPE a>\n<a/>"), "t.xml:1: DOCTYPE declarations are not supported");
    EXPECT_STARTS_WITH(err("\n\n"), "t.xml:3: expected the root element, found end of file");
    EXPECT_STARTS_WITH(err("<a x=1/>"), "t.xml:1: expected a quoted value for attribute x");
    EXPECT_STARTS_WITH(err("<a><!-- x -- y --></a>"), "t.xml:1: '--' inside a comment");
    EXPECT_STARTS_WITH(err("<a>\n<![CDATA[x</a>"), "t.xml:2: expected ']]>' to end the CDATA section");
    EXPECT_STARTS_WITH(err("<a/>\n<?xml version=\"1.0\"?>"),
                       "t.xml:2: the <?xml ...?> declaration may only come first");
    std::string deep;
    for (int i = 0; i < 300; ++i) deep += "<e>";
    EXPECT_STARTS_WITH(err(deep), "t.xml:1: elements nested more than 256 deep");
}

}  // namespace
}  // namespace gfxstat::data
