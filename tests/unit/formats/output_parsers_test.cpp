// SPDX-License-Identifier: MIT
// The output parsers (formats/ and drivers/run_parsers.h) against real outputs
// (tests/data/run_outputs/, see its README.md: runs of Debian's
// intel-gpu-tools 1.27.1 and outputs quoted in the seed mailing-list
// threads) and against lines written with the programs' own printf format
// strings where no real output exists (gem_latency, gem_wsim and newer
// gem_exec_nop need a GPU); those are marked "printf" below. Values are
// compared as the exact decimals printed ("2.400", not 2.4).
#include <gtest/gtest.h>

#include <charconv>
#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/import_support.h"
#include "drivers/run_parsers.h"
#include "tests/unit/parser_test_support.h"

namespace gfxstat::drivers {
namespace {

using data::Direction;
using data::NumberToken;
using data::TokenStatus;
using Texts = std::vector<std::string>;

std::string fixture(const std::string& name) { return test_support::read_fixture("tests/data/run_outputs", name); }

std::string text(const NumberToken& t) { return test_support::token_text(t); }

ParseResult run(const std::string& parser, std::string_view out, std::string_view err = "") {
    RunOutput o;
    o.out = out;
    o.err = err;
    return make_parser(parser)->parse(o);
}

const ParsedMetric* find(const ParseResult& r, const std::string& name) { return test_support::find_metric(r, name); }

Texts values(const ParseResult& r, const std::string& name) {
    const ParsedMetric* m = find(r, name);
    if (!m) return {"(no metric " + name + "; error: " + r.error + ")"};
    Texts out;
    for (const NumberToken& t : m->values) out.push_back(text(t));
    return out;
}

Texts names(const ParseResult& r) {
    Texts out;
    for (const ParsedMetric& m : r.metrics) out.push_back(m.name);
    return out;
}

// ------------------------------------------------------------------ lines

TEST(OutputParserLines, GemSyslatencyFormatFlagPrintsOneNumber) {
    // Real runs of `gem_syslatency -n -t 1 -f 0|1|2` (cycles, mean, max).
    EXPECT_EQ(values(run("lines", fixture("gem_syslatency.n_t1_f0.txt")), "value"), Texts{"0"});
    EXPECT_EQ(values(run("lines", fixture("gem_syslatency.n_t1_f1.txt")), "value"), Texts{"39.015"});
    EXPECT_EQ(values(run("lines", fixture("gem_syslatency.n_t1_f2.txt")), "value"), Texts{"126"});
}

TEST(OutputParserLines, PaddedRepetitionsAreOneArray) {
    // printf "%7.3f\n" per repetition (benchmarks/gem_exec_nop -r 3).
    const ParseResult r = run("lines", "  3.366\n  2.715\n 12.400\n\n");
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(values(r, "value"), (Texts{"3.366", "2.715", "12.400"}));
    ASSERT_EQ(r.metrics.size(), 1u);
    EXPECT_EQ(r.metrics[0].unit, "");
    EXPECT_EQ(r.metrics[0].direction, Direction::unknown);
}

TEST(OutputParserLines, SkipsIgtHarnessLinesAndColour) {
    // lib/igt_core.c: "IGT-Version: ...", "Starting subtest: %s",
    // "Subtest %s: %s (%.3fs)" in ANSI bold on a terminal; CRLF endings.
    const std::string out =
        "IGT-Version: 1.27.1-g1234 (x86_64) (Linux: 6.1.0 x86_64)\r\n"
        "Starting subtest: basic\r\n"
        "\x1b[1m  1.250\x1b[0m\r\n"
        "2e-3\r\n"
        "\x1b[1mSubtest basic: SUCCESS (1.001s)\x1b[0m\r\n"
        "Dynamic subtest rcs0: SUCCESS (0.500s)\n";
    const ParseResult r = run("lines", out);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(values(r, "value"), (Texts{"1.250", "0.002"}));
}

TEST(OutputParserLines, MetricNameRenames) {
    RunOutput o;
    o.out = "1\n2\n";
    const auto p = make_parser("lines", "creates_per_s");
    ASSERT_EQ(p->metrics().size(), 1u);
    EXPECT_EQ(p->metrics()[0].name, "creates_per_s");
    EXPECT_EQ(values(p->parse(o), "creates_per_s"), (Texts{"1", "2"}));
    EXPECT_THROW(make_parser("lines", "two words"), std::invalid_argument);
    EXPECT_THROW(make_parser("igt-syslatency", "x"), std::invalid_argument);
}

// glmark2 run without --parser glmark2: the error names the parser that
// reads it; output no parser recognises gets no hint.
TEST(OutputParserLines, OutputAnotherParserReadsNamesThatParser) {
    const std::string glmark2 =
        "=======================================================\n"
        "    glmark2 2023.01\n"
        "=======================================================\n"
        "    OpenGL Information\n"
        "    GL_VENDOR:      Mesa/X.org\n"
        "=======================================================\n"
        "[build] use-vbo=false: FPS: 839 FrameTime: 1.193 ms\n"
        "=======================================================\n"
        "                                  glmark2 Score: 839\n"
        "=======================================================\n";
    ParseResult r = run("lines", glmark2);
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_NE(r.error.find("line 1: expected one number"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("--parser glmark2"), std::string::npos) << r.error;
    r = run("lines", "1.5\nhello\n");
    EXPECT_EQ(r.error.find("--parser"), std::string::npos) << r.error;
}

TEST(OutputParserLines, OtherLinesAreErrorsNamingTheLine) {
    ParseResult r = run("lines", "1.5\n\n3 4\n");
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_EQ(r.error, "line 3: expected one number, found \"3 4\"");
    r = run("lines", "1\n-inf\n");
    EXPECT_EQ(r.error, "line 2: \"-inf\" is not a finite number");
    r = run("lines", "1e999\n");
    EXPECT_EQ(r.error, "line 1: \"1e999\" is beyond the range of a double");
}

TEST(OutputParserLines, SkipBlockIsAnErrorWithTheReason) {
    // Real: `gem_exec_nop -r 1` (benchmark) on a machine without a GPU, exit 77.
    const ParseResult r = run("lines", fixture("gem_exec_nop_benchmark.r1.no_gpu.stdout.txt"),
                              fixture("gem_exec_nop_benchmark.r1.no_gpu.stderr.txt"));
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_EQ(r.error,
              "line 1: expected one number, found \"Test requirement not met in function drm...\" "
              "(the program skipped: \"No known gpu found for chipset flags 0x1...\")");
}

TEST(OutputParserLines, EmptyOutputSaysSoAndQuotesStderr) {
    EXPECT_EQ(run("lines", "").error,
              "no numbers in the output: expected one number per line (stdout is empty); to time the command "
              "itself, use --parser time");
    EXPECT_EQ(run("lines", "\n \n", "oops\n").error,
              "no numbers in the output: expected one number per line (stdout is empty; stderr: \"oops\"); to time "
              "the command itself, use --parser time");
}

// --------------------------------------------------------- igt-syslatency

TEST(OutputParserSyslatency, RealRunWithoutGpuLoad) {
    // Real: `gem_syslatency -n -t 1` on this machine.
    const ParseResult r = run("igt-syslatency", fixture("gem_syslatency.n_t1.txt"));
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(names(r), (Texts{"cycles", "latency_mean", "latency_max"}));
    EXPECT_EQ(values(r, "cycles"), Texts{"0"});
    EXPECT_EQ(values(r, "latency_mean"), Texts{"33.156"});
    EXPECT_EQ(values(r, "latency_max"), Texts{"568"});
    EXPECT_EQ(find(r, "latency_mean")->unit, "us");
    EXPECT_EQ(find(r, "latency_mean")->direction, Direction::lower_is_better);
    EXPECT_EQ(find(r, "cycles")->direction, Direction::higher_is_better);
}

TEST(OutputParserSyslatency, IgtFormatsExample) {
    const ParseResult r = run("igt-syslatency", "gem_syslatency: cycles=0, latency mean=23.205us max=2417us\n");
    EXPECT_EQ(values(r, "latency_mean"), Texts{"23.205"});
    EXPECT_EQ(values(r, "latency_max"), Texts{"2417"});
}

TEST(OutputParserSyslatency, SeedThreadLinesAreValuesInOrder) {
    // context/001: five runs on bdw before tasklets, pasted together.
    ParseResult r = run("igt-syslatency", fixture("gem_syslatency.bdw_before_tasklets.txt"));
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(values(r, "cycles"), (Texts{"20849458", "22964600", "21404190", "22779405", "22021655"}));
    EXPECT_EQ(values(r, "latency_mean"), (Texts{"678.892", "1583.312", "1766.220", "1698.282", "1921.855"}));
    EXPECT_EQ(values(r, "latency_max"), (Texts{"8308500", "5991894", "12423925", "9110117", "7193398"}));
    // The same thread, indented by the mail, after a soft lockup.
    r = run("igt-syslatency", fixture("gem_syslatency.bdw_soft_lockup.txt"));
    EXPECT_EQ(r.error, "");
    ASSERT_EQ(values(r, "latency_mean").size(), 12u);
    EXPECT_EQ(values(r, "latency_mean")[0], "1711.088");
    EXPECT_EQ(values(r, "latency_max")[11], "7080445");
    EXPECT_EQ(values(r, "cycles")[9], "20976620");
}

TEST(OutputParserSyslatency, MalformedAndMissing) {
    ParseResult r = run("igt-syslatency", "x\ngem_syslatency: cycles=0, latency mean=-nanus max=0us\n");
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_EQ(r.error,
              "line 2: expected 'gem_syslatency: cycles=N, latency mean=Xus max=Yus', found \"-nanus max=0us\" "
              "at column 40");
    r = run("igt-syslatency", "gem_syslatency: cycles=1, latency mean=1.000us max=2us extra\n");
    EXPECT_NE(r.error.find("line 1: "), std::string::npos);
    // -f 1 prints only the mean: the lines parser's job.
    r = run("igt-syslatency", fixture("gem_syslatency.n_t1_f1.txt"));
    EXPECT_EQ(r.error,
              "no line of the form 'gem_syslatency: cycles=N, latency mean=Xus max=Yus' in the output");
    r = run("igt-syslatency", fixture("gem_latency.t1.no_gpu.stdout.txt"));
    EXPECT_EQ(r.error,
              "no line of the form 'gem_syslatency: cycles=N, latency mean=Xus max=Yus' in the output "
              "(the program skipped: \"No known gpu found for chipset flags 0x1...\")");
}

// ------------------------------------------------------------ igt-latency

TEST(OutputParserLatency, Columns) {
    // printf "%d/%d: %7.3fus %7.3fus %7.3fus %7.3fus\n" 1024 1 2.345 10.123 9.876 1.5
    const ParseResult r = run("igt-latency", "1024/1:   2.345us  10.123us   9.876us   1.500us\n");
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(names(r), (Texts{"dispatch", "latency", "producer_latency", "cpu_time"}));
    EXPECT_EQ(values(r, "dispatch"), Texts{"2.345"});
    EXPECT_EQ(values(r, "latency"), Texts{"10.123"});
    EXPECT_EQ(values(r, "producer_latency"), Texts{"9.876"});
    EXPECT_EQ(values(r, "cpu_time"), Texts{"1.500"});
    for (const ParsedMetric& m : r.metrics) {
        EXPECT_EQ(m.unit, "us");
        EXPECT_EQ(m.direction, Direction::lower_is_better);
    }
}

TEST(OutputParserLatency, MalformedSkipAndOtherSlashLines) {
    ParseResult r = run("igt-latency", "1/1:   2.345us  10.123us\n");
    EXPECT_EQ(r.error, "line 1: expected 'C/R: Xus Xus Xus Xus', found \"\" at column 25");
    // A fence-upload line "B/S: Upload ..." is not gem_latency's.
    r = run("igt-latency", "4/4096: Upload rate for 2 linear surfaces:\t651.042MiB/s\n");
    EXPECT_NE(r.error.find("no line of the form"), std::string::npos);
    r = run("igt-latency", fixture("gem_latency.t1.no_gpu.stdout.txt"));
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_NE(r.error.find("(the program skipped: \"No known gpu found"), std::string::npos);
}

// --------------------------------------------------------------- igt-wsim

TEST(OutputParserWsim, ClientAndTotalLines) {
    // printf with gem_wsim's format strings: two clients (-v), the first
    // periodic (time statistics), then the total line.
    const std::string out =
        "*0: 10.012s elapsed (100 cycles, 9.988 workloads/s). Time avg/min/max=1234/1000/2500us; 3 missed.\n"
        " 1: 10.015s elapsed (100 cycles, 9.985 workloads/s).\n"
        "10.016s elapsed (19.968 workloads/s)\n";
    const ParseResult r = run("igt-wsim", out);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(values(r, "elapsed"), Texts{"10.016"});
    EXPECT_EQ(values(r, "workloads_per_s"), Texts{"19.968"});
    EXPECT_EQ(values(r, "client_elapsed"), (Texts{"10.012", "10.015"}));
    EXPECT_EQ(values(r, "client_workloads_per_s"), (Texts{"9.988", "9.985"}));
    EXPECT_EQ(values(r, "time_avg"), Texts{"1234"});
    EXPECT_EQ(values(r, "time_min"), Texts{"1000"});
    EXPECT_EQ(values(r, "time_max"), Texts{"2500"});
    EXPECT_EQ(values(r, "missed"), Texts{"3"});
    EXPECT_EQ(find(r, "workloads_per_s")->unit, "workloads/s");
    EXPECT_EQ(find(r, "workloads_per_s")->direction, Direction::higher_is_better);
    EXPECT_EQ(find(r, "elapsed")->unit, "s");
    EXPECT_EQ(find(r, "missed")->direction, Direction::lower_is_better);
}

TEST(OutputParserWsim, TotalOnlyAndOlderBalancerText) {
    // Default verbosity prints the total only; older versions append VCS
    // balancer counts to client lines.
    ParseResult r = run("igt-wsim", "5.001s elapsed (199.960 workloads/s)\n");
    EXPECT_EQ(names(r), (Texts{"elapsed", "workloads_per_s"}));
    r = run("igt-wsim",
            "*0: 5.000s elapsed (1000 cycles, 200.000 workloads/s). 2000 (1000 + 1000) total VCS batches.\n"
            "5.001s elapsed (199.960 workloads/s)\n");
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(values(r, "client_workloads_per_s"), Texts{"200.000"});
    EXPECT_EQ(find(r, "time_avg"), nullptr);
}

TEST(OutputParserWsim, ErrorsNameLineOrStderr) {
    ParseResult r = run("igt-wsim", "5.001s elapsed (fast workloads/s)\n");
    EXPECT_EQ(r.error,
              "line 1: expected 'Xs elapsed (Y workloads/s)', found \"fast workloads/s)\" at column 17");
    r = run("igt-wsim", "*0: 1.000s elapsed (10 cycles, 10.000 workloads/s). Time avg/min/max=1/2us; 0 missed.\n");
    EXPECT_NE(r.error.find("line 1: expected '*N: Xs elapsed"), std::string::npos);
    // Real: gem_wsim on a machine without a GPU prints only to stderr, exit 1.
    r = run("igt-wsim", "", "No device filter specified and no i915 devices found!\n");
    EXPECT_EQ(r.error,
              "no line of the form 'Xs elapsed (Y workloads/s)' (gem_wsim prints it unless -q) in the output "
              "(stdout is empty; stderr: \"No device filter specified and no i915 d...\")");
}

// ----------------------------------------------------------- igt-exec-nop

TEST(OutputParserExecNop, SeedThreadGuc61) {
    // context/000: gem_exec_nop --run-subtest basic, SKL, GuC 6.1, with the
    // thread's patch (us/batch, parallel/64); the mail wrapped two lines.
    const ParseResult r = run("igt-exec-nop", fixture("gem_exec_nop.basic.skl_guc6.1.txt"));
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(names(r), (Texts{"render", "bsd", "blt", "vebox", "all_parallel_64"}));
    EXPECT_EQ(values(r, "render"), Texts{"3.366"});
    EXPECT_EQ(values(r, "bsd"), Texts{"2.715"});
    EXPECT_EQ(values(r, "blt"), Texts{"2.400"});
    EXPECT_EQ(values(r, "vebox"), Texts{"2.818"});
    EXPECT_EQ(values(r, "all_parallel_64"), Texts{"1.878"});
    for (const ParsedMetric& m : r.metrics) {
        EXPECT_EQ(m.unit, "us");
        EXPECT_EQ(m.direction, Direction::lower_is_better);
    }
}

TEST(OutputParserExecNop, SeedThreadGuc811) {
    const ParseResult r = run("igt-exec-nop", fixture("gem_exec_nop.basic.skl_guc8.11.txt"));
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(values(r, "render"), Texts{"3.418"});
    EXPECT_EQ(values(r, "bsd"), Texts{"2.151"});
    EXPECT_EQ(values(r, "blt"), Texts{"2.150"});
    EXPECT_EQ(values(r, "vebox"), Texts{"2.150"});
    EXPECT_EQ(values(r, "all_parallel_64"), Texts{"1.765"});
}

TEST(OutputParserExecNop, UnwrappedParallelLineGivesOverlap) {
    // The seed's line as the program prints it, on one line.
    const ParseResult r = run(
        "igt-exec-nop", "All 4 engines (parallel/64): 5,324,800 cycles, average 1.878us/batch, overlap 90.1%\n");
    EXPECT_EQ(values(r, "all_parallel_64"), Texts{"1.878"});
    EXPECT_EQ(values(r, "all_parallel_64_overlap"), Texts{"90.1"});
    EXPECT_EQ(find(r, "all_parallel_64_overlap")->unit, "%");
    EXPECT_EQ(find(r, "all_parallel_64_overlap")->direction, Direction::higher_is_better);
}

TEST(OutputParserExecNop, IgtFormatsLines) {
    // printf with tests/i915/gem_exec_nop.c's format strings, grouped
    // (terminal) and plain (IGT_PLAIN_OUTPUT / a pipe).
    const std::string out =
        "IGT-Version: 1.27.1 (x86_64) (Linux: 6.1.0 x86_64)\n"
        "Starting subtest: single\n"
        "rcs0: 1,234,567 cycles: 3.456us\n"
        "bcs0: 987654 cycles: 2.100us\n"
        "\x1b[1mSubtest single: SUCCESS (20.001s)\x1b[0m\n"
        "All (4 engines): 5,324,800 cycles, average 1.878us per cycle [expected 2.100us]\n"
        "Sequential (4 engines, 8 processes): average 2.500us per cycle [expected 3.000us]\n"
        "Signal rcs0: 123,456 cycles (120,000 signals): 4.567us\n"
        "Signal all: 654,321 cycles (600,000 signals): 1.234us\n"
        "vcs0: 12345 cycles, 5.678us\n";
    const ParseResult r = run("igt-exec-nop", out);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(names(r), (Texts{"rcs0", "bcs0", "all", "all_expected", "sequential", "sequential_expected",
                               "signal_rcs0", "signal_all", "vcs0"}));
    EXPECT_EQ(values(r, "rcs0"), Texts{"3.456"});
    EXPECT_EQ(values(r, "bcs0"), Texts{"2.100"});
    EXPECT_EQ(values(r, "all"), Texts{"1.878"});
    EXPECT_EQ(values(r, "all_expected"), Texts{"2.100"});
    EXPECT_EQ(values(r, "sequential"), Texts{"2.500"});
    EXPECT_EQ(values(r, "sequential_expected"), Texts{"3.000"});
    EXPECT_EQ(values(r, "signal_rcs0"), Texts{"4.567"});
    EXPECT_EQ(values(r, "signal_all"), Texts{"1.234"});
    EXPECT_EQ(values(r, "vcs0"), Texts{"5.678"});
}

TEST(OutputParserExecNop, OlderFormatsSuffixesLocalesAndRepeats) {
    const std::string out =
        "All (4 engines): 1,000 cycles, average 1.500us per cycle\n"  // before [expected]
        "render: 1,000 cycles: 3.366us per cycle\n"
        "render: 1.000.000 cycles: 3.300us\n"        // de_DE grouping
        "render: 1\xE2\x80\xAF" "000 cycles: 3.200us\n"  // fr_FR narrow no-break space
        "\x1b[32mbsd: 2\xC2\xA0" "000 cycles: 2.000us/batch\x1b[0m\n";
    const ParseResult r = run("igt-exec-nop", out);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(values(r, "all"), Texts{"1.500"});
    EXPECT_EQ(find(r, "all_expected"), nullptr);
    EXPECT_EQ(values(r, "render"), (Texts{"3.366", "3.300", "3.200"}));
    EXPECT_EQ(values(r, "bsd"), Texts{"2.000"});
}

TEST(OutputParserExecNop, DerivedSummaryLinesAreNotMetrics) {
    const std::string out =
        "Slowest engine was render, 3.366us/batch\n"
        "Total for all 4 engines is 11.300us per cycle, average 2.825us/batch\n"
        "Maximum execution latency on rcs0, 3.000us, min 1.000us, total 8.000us per cycle, average 2.000us\n"
        "Total (individual) execution latency 8.000us per cycle\n"
        "average (individually): 2.000us\n";
    const ParseResult r = run("igt-exec-nop", out);
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_NE(r.error.find("no line of the form 'ENGINE: N cycles: Xus'"), std::string::npos);
}

TEST(OutputParserExecNop, MalformedLinesAreErrors) {
    ParseResult r = run("igt-exec-nop", "rcs0: 1,234 cycles: fastus\n");
    EXPECT_EQ(r.error, "line 1: expected 'ENGINE: N cycles: Xus', found \"fastus\" at column 21");
    r = run("igt-exec-nop", "rcs0: 1 cycles: 1.000us\nAll (4 engines): lots\n");
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_NE(r.error.find("line 2: expected 'All (E engines): N cycles"), std::string::npos);
    r = run("igt-exec-nop", "Sequential (4 engines, 8 processes): average 2.500us per cycle [expected 3us\n");
    EXPECT_NE(r.error.find("line 1: expected 'Sequential ("), std::string::npos);
}

TEST(OutputParserExecNop, SkipBlockHasNoMetric) {
    // Real: benchmarks/gem_exec_nop -r 1 without a GPU (exit 77).
    const ParseResult r = run("igt-exec-nop", fixture("gem_exec_nop_benchmark.r1.no_gpu.stdout.txt"),
                              fixture("gem_exec_nop_benchmark.r1.no_gpu.stderr.txt"));
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_NE(r.error.find("(the program skipped: \"No known gpu found for chipset flags 0x1...\")"),
              std::string::npos);
    EXPECT_EQ(igt_skip_reason(fixture("gem_exec_nop_benchmark.r1.no_gpu.stdout.txt")),
              "No known gpu found for chipset flags 0x1 (intel)");
    EXPECT_EQ(igt_skip_reason("Test requirement not met in function f, file x.c:1:\n"
                              "Test requirement: gem_has_ring(fd, ring)\nLast errno: 22, Invalid argument\n"),
              "Test requirement: gem_has_ring(fd, ring)");
    EXPECT_EQ(igt_skip_reason("render: 1 cycles: 1.000us\n"), "");
}

// -------------------------------------------------------- igt-fence-upload

TEST(OutputParserFenceUpload, SeedThreadWriteSizes) {
    // context/003: the patched test with "BYTES/SIZE: " prefixes, four
    // subtests of twelve lines each, interleaved with assertion failures.
    const ParseResult r = run("igt-fence-upload", fixture("gem_fence_upload.ivb_write_sizes.txt"));
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.metrics.size(), 48u);
    EXPECT_EQ(r.metrics.front().name, "linear_2_bytes_4_size_4096");
    EXPECT_EQ(values(r, "linear_2_bytes_4_size_4096"), Texts{"651.042"});
    EXPECT_EQ(values(r, "tiled_2_bytes_4_size_4096"), Texts{"1302.083"});
    EXPECT_EQ(values(r, "linear_16_bytes_4_size_4096"), Texts{"57.710"});
    EXPECT_EQ(values(r, "tiled_64_bytes_4_size_4096"), Texts{"2.021"});
    EXPECT_EQ(values(r, "linear_2_bytes_4096_size_4096"), Texts{"9259.259"});
    EXPECT_EQ(values(r, "tiled_64_bytes_4_size_1048576"), Texts{"0.107"});
    EXPECT_EQ(values(r, "tiled_64_bytes_1048576_size_1048576"), Texts{"4522.448"});
    for (const ParsedMetric& m : r.metrics) {
        EXPECT_EQ(m.unit, "MiB/s");
        EXPECT_EQ(m.direction, Direction::higher_is_better);
        EXPECT_EQ(m.values.size(), 1u) << m.name;
    }
}

TEST(OutputParserFenceUpload, IgtFormatsLines) {
    // printf with tests/i915/gem_fence_upload.c's format strings.
    const std::string out =
        "Upload rate for 2 linear surfaces:\t8127.123MiB/s\n"
        "Upload rate for 2 tiled surfaces:\t 57.710MiB/s\n"
        "Upload rate for 2 linear surfaces, 4 threads:\t9000.000MiB/s\n"
        "Download rate for 4 tiled surfaces, 8 threads:\t 123.456MiB/s\n"
        "Combined rate for 2 linear surfaces, 4 threads:\t 12.000MiB/s\n"
        "Contended upload rate for 1 threads:\t100.000MiB/s\n"
        "Contended upload rate for 1 threads:\t 90.000MiB/s\n";
    const ParseResult r = run("igt-fence-upload", out);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(names(r), (Texts{"linear_2", "tiled_2", "linear_2_threads_4", "download_tiled_4_threads_8",
                               "combined_linear_2_threads_4", "contended_linear_threads_1",
                               "contended_tiled_threads_1"}));
    EXPECT_EQ(values(r, "linear_2"), Texts{"8127.123"});
    EXPECT_EQ(values(r, "tiled_2"), Texts{"57.710"});
    EXPECT_EQ(values(r, "download_tiled_4_threads_8"), Texts{"123.456"});
    EXPECT_EQ(values(r, "contended_tiled_threads_1"), Texts{"90.000"});
}

TEST(OutputParserFenceUpload, SeedComparisonLineIsMalformed) {
    // context/003 quotes a before/after comparison, not program output.
    const ParseResult r = run("igt-fence-upload", "Upload rate for 2 linear surfaces:\t8127MiB/s -> 8134MiB/s\n");
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_EQ(r.error,
              "line 1: expected 'Upload rate for N linear|tiled surfaces[, T threads]:\tX MiB/s', "
              "found \" -> 8134MiB/s\" at column 45");
    EXPECT_NE(run("igt-fence-upload", "Upload rate for 2 square surfaces:\t1MiB/s\n").error.find("line 1: "),
              std::string::npos);
    EXPECT_NE(run("igt-fence-upload", "").error.find("(stdout is empty)"), std::string::npos);
}

// ----------------------------------------------------------------- ezbench

TEST(OutputParserEzbench, AgreesWithTheImporter) {
    // tests/data/import/ezbench/completed.txt, the importer's own fixture.
    const std::string path = std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/import/ezbench/completed.txt";
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    const ParseResult r = run("ezbench", s.str());
    EXPECT_EQ(r.error, "");
    data::ResultsFile imported;
    formats::import_ezbench(path, {}, imported);
    ASSERT_EQ(imported.runs().size(), 1u);
    const data::RunRecord& run0 = imported.runs()[0];
    ASSERT_EQ(run0.metrics.size(), r.metrics.size());
    for (size_t k = 0; k < r.metrics.size(); ++k) {
        EXPECT_EQ(r.metrics[k].name, run0.metrics[k].name);
        const data::MetricInfo* decl = imported.find_metric(r.metrics[k].name);
        ASSERT_NE(decl, nullptr);
        EXPECT_EQ(r.metrics[k].unit, decl->unit) << r.metrics[k].name;
        EXPECT_EQ(r.metrics[k].direction, decl->direction) << r.metrics[k].name;
        ASSERT_EQ(r.metrics[k].values.size(), run0.metrics[k].values.size());
        for (size_t j = 0; j < r.metrics[k].values.size(); ++j)
            EXPECT_EQ(text(r.metrics[k].values[j]), text(run0.metrics[k].values[j]));
    }
    EXPECT_EQ(values(r, "frame time"), (Texts{"0.657", "0.662", "0.649"}));
    EXPECT_EQ(find(r, "frame time")->unit, "ms");
    EXPECT_EQ(find(r, "glmark2 build")->direction, Direction::higher_is_better);
}

TEST(OutputParserEzbench, StatusChatterAndErrors) {
    // IGT_FORMATS "Other formats": "SubTestName: float(0.09) s" ... ": str(completed)".
    ParseResult r = run("ezbench", "starting the test\nSubTestName: float(0.09) s\n: str(completed)\nafter: float(1) s\n");
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(names(r), Texts{"SubTestName"});
    EXPECT_EQ(values(r, "SubTestName"), Texts{"0.09"});
    r = run("ezbench", "render: float(16.7) ms\n: str(failed)\n");
    EXPECT_EQ(r.error, "line 2: the test reports status \"failed\"");
    r = run("ezbench", "render: float(fast) ms\n");
    EXPECT_EQ(r.error, "line 1: expected a number in float(), found \"fast\"");
    r = run("ezbench", "draw calls: int(1.5e3)\n");
    EXPECT_EQ(r.error, "line 1: expected an integer in int(), found \"1.5e3\"");
    r = run("ezbench", "render: float(16.7) ms\nrender: float(0.0169) s\n");
    EXPECT_EQ(r.error, "line 2: subtest 'render' has unit \"s\" here but \"ms\" on line 1");
    EXPECT_EQ(run("ezbench", ": float(33.72) s\n").metrics[0].name, "value");
    EXPECT_NE(run("ezbench", "nothing here\n").error.find("no line of the form 'SubTest: float(value) unit'"),
              std::string::npos);
}

// ---------------------------------------------------------- wakeup-latency

TEST(OutputParserWakeup, Report) {
    // The lines drivers/wakeup_latency.h documents print_wakeup_report writing.
    const std::string out =
        "latency_mean_us=52.123\nlatency_median_us=50.000\nlatency_p99_us=80.500\nlatency_max_us=120.250\n"
        "wakeups=1000\n";
    const ParseResult r = run("wakeup-latency", out);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(names(r), (Texts{"latency_mean", "latency_median", "latency_p99", "latency_max", "wakeups"}));
    EXPECT_EQ(values(r, "latency_median"), Texts{"50.000"});
    EXPECT_EQ(values(r, "wakeups"), Texts{"1000"});
    EXPECT_EQ(find(r, "latency_p99")->unit, "us");
    EXPECT_EQ(find(r, "wakeups")->direction, Direction::unknown);
    EXPECT_EQ(run("wakeup-latency", "latency_mean_us=abc\n").error,
              "line 1: expected 'latency_mean_us=X', found \"abc\" at column 17");
    EXPECT_NE(run("wakeup-latency", "").error.find("no line of the form 'latency_mean_us=X'"), std::string::npos);
}

// -------------------------------------------------------------------- time

TEST(OutputParserTime, FromRunUsage) {
    RunUsage p;
    p.wall_s = 0.0123;
    p.user_s = 0.004;
    p.sys_s = 1e-05;
    p.max_rss_kib = 3456;
    RunOutput o;
    o.usage = &p;
    const ParseResult r = make_parser("time")->parse(o);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(names(r), (Texts{"wall", "user", "sys", "max_rss"}));
    EXPECT_EQ(values(r, "wall"), Texts{"0.0123"});
    EXPECT_EQ(values(r, "user"), Texts{"0.004"});
    EXPECT_EQ(values(r, "sys"), Texts{"0.00001"});
    EXPECT_EQ(values(r, "max_rss"), Texts{"3456"});
    EXPECT_EQ(find(r, "wall")->unit, "s");
    EXPECT_EQ(find(r, "max_rss")->unit, "KiB");
    for (const ParsedMetric& m : r.metrics) EXPECT_EQ(m.direction, Direction::lower_is_better);
    // A time that is not short in decimal keeps its shortest round trip.
    p.wall_s = 0.1 + 0.2;
    EXPECT_EQ(values(make_parser("time")->parse(o), "wall"), Texts{"0.30000000000000004"});
}

TEST(OutputParserTime, NeedsAStartedProcess) {
    RunOutput o;
    EXPECT_EQ(make_parser("time")->parse(o).error,
              "the time parser needs the run's resource usage; a saved output has none");
    RunUsage p;
    p.started = false;
    p.error = "gem_exec_nop: No such file or directory";
    o.usage = &p;
    EXPECT_EQ(make_parser("time")->parse(o).error,
              "the command did not start: gem_exec_nop: No such file or directory");
}

// ------------------------------------------------------------------- regex

TEST(OutputParserRegex, MatchesEveryLine) {
    const auto p = make_regex_parser({"fps=(\\d+(?:\\.\\d+)?) fps", "draw=draws: (\\S+)"});
    ASSERT_EQ(p->metrics().size(), 2u);
    EXPECT_EQ(p->metrics()[0].name, "fps");
    EXPECT_EQ(p->metrics()[0].direction, Direction::unknown);
    RunOutput o;
    o.out = "frame: 59.940 fps, again 60 fps\nnothing\n\x1b[1mframe: 60.01 fps\x1b[0m\r\n";
    ParseResult r = p->parse(o);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(names(r), Texts{"fps"});  // draw never matched
    EXPECT_EQ(values(r, "fps"), (Texts{"59.940", "60", "60.01"}));
    o.out = "draws: many\n";
    r = p->parse(o);
    EXPECT_EQ(r.error, "line 1: --metric draw captured \"many\", not a number");
    o.out = "nothing\n";
    EXPECT_EQ(p->parse(o).error,
              "no line of the output matches a --metric regex (fps=(\\d+(?:\\.\\d+)?) fps, draw=draws: (\\S+))");
}

TEST(OutputParserRegex, BadSpecs) {
    const auto message = [](const std::vector<std::string>& specs) {
        try {
            make_regex_parser(specs);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    EXPECT_EQ(message({"x=\\d+"}),
              "--metric x: the regex \"\\\\d+\" must have exactly one capture group, the number; it has 0 "
              "(write other groups as (?:...))");
    EXPECT_NE(message({"x=(\\d+) (\\d+)"}).find("it has 2"), std::string::npos);
    EXPECT_NE(message({"x=(\\d+"}).find("--metric x: bad regex \"(\\\\d+\""), std::string::npos);
    EXPECT_EQ(message({"(\\d+)"}), "--metric \"(\\\\d+)\": expected NAME=REGEX, or a regex with the groups "
                                    "(?<name>...) and (?<value>...)");
    EXPECT_NE(message({"a b=(\\d+)"}).find("invalid metric name \"a b\""), std::string::npos);
    EXPECT_NE(message({"=(\\d+)"}).find("invalid metric name"), std::string::npos);
    EXPECT_EQ(message({"x=(\\d+)", "x=(\\d)"}), "--metric x is given twice");
    EXPECT_EQ(message({}), "no --metric NAME=REGEX given");
    // Split at the first '=': the regex may hold '='.
    RunOutput o;
    o.out = "a=b=7\n";
    EXPECT_EQ(values(make_regex_parser({"v=b=(\\d)"})->parse(o), "v"), Texts{"7"});
}

TEST(OutputParserRegex, UnmatchedGroupAndLongLines) {
    RunOutput o;
    o.out = "x=\n";
    EXPECT_EQ(make_regex_parser({"v=x=(\\d+)?"})->parse(o).error,
              "line 1: the capture group of --metric v took no part in the match");
    std::string line(60000, 'a');
    line += "x=5\n";
    o.out = line;
    EXPECT_EQ(make_regex_parser({"v=(.*)x=5"})->parse(o).error,
              "line 1: --metric v captured \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\", not a number");
    // No line limit any more: the matcher is linear and does not recurse.
    const std::string long_line = "1\n" + std::string(70000, 'x') + " 42\n";
    o.out = long_line;
    ParseResult r = make_regex_parser({"v=(\\d+)"})->parse(o);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(values(r, "v"), (Texts{"1", "42"}));
}

// std::regex backtracked: `fps=(.*) fps` on "fps=fps=..." without a
// " fps" after is quadratic, 18 s on one line of 64 KiB. On 1 MiB, sixteen
// times the old limit, the absence of a match is found and so is the
// value; the point is the shape, not a time: the old matcher refused the
// line, and when allowed it did not finish.
TEST(OutputParserRegex, MegabyteLine) {
    const auto p = make_regex_parser({"fps=fps=(.*) fps"});
    RunOutput o;
    std::string out;
    for (int i = 0; i < (1 << 18); ++i) out += "fps=";
    o.out = out;
    EXPECT_EQ(p->parse(o).error, "no line of the output matches a --metric regex (fps=fps=(.*) fps)");
    out = std::string(1 << 20, 'f') + " fps=12.5 fps\n";
    o.out = out;
    ParseResult r = p->parse(o);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(values(r, "fps"), Texts{"12.5"});
    // Every match of a line, left to right.
    o.out = "a=1 a=2 a=3\n";
    EXPECT_EQ(values(make_regex_parser({"a=a=(\\d)"})->parse(o), "a"), (Texts{"1", "2", "3"}));
    // Bytes, not UTF-8: invalid sequences are matched like any byte.
    o.out = "\xff\xfe t=4\n";
    EXPECT_EQ(values(make_regex_parser({"t=.. t=(\\d)"})->parse(o), "t"), Texts{"4"});
}

// What RE2 cannot match in linear time is refused at option parsing,
// by name, rather than with RE2's "invalid escape sequence".
TEST(OutputParserRegex, RefusesBackreferencesAndLookaround) {
    const auto message = [](const std::string& spec) {
        try {
            make_regex_parser({spec});
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    EXPECT_EQ(message("v=(a)\\1"),
              "--metric v: the regex \"(a)\\\\1\" uses a backreference (\\1), which RE2 syntax does not have: "
              "--metric regexes are matched in linear time (docs/run.md)");
    EXPECT_NE(message("v=(\\d+)(?= fps)").find("uses a lookahead ((?=...)"), std::string::npos);
    EXPECT_NE(message("v=(?!x)(\\d+)").find("uses a lookahead ((?!...)"), std::string::npos);
    EXPECT_NE(message("v=(?<=fps )(\\d+)").find("uses a lookbehind ((?<=...)"), std::string::npos);
    EXPECT_NE(message("v=(?<!x)(\\d+)").find("uses a lookbehind ((?<!...)"), std::string::npos);
    // Escaped or bracketed, they are plain characters, and RE2 takes them.
    EXPECT_EQ(message("v=\\(?=(\\d)"), "(no error)");
    EXPECT_EQ(message("v=[(?=](\\d)"), "(no error)");
    EXPECT_EQ(message("v=[]\\\\1](\\d)"), "(no error)");
    // RE2's own errors keep the bad-regex wording.
    EXPECT_NE(message("v=(\\d+").find("--metric v: bad regex"), std::string::npos);
}

// --timeout covers parsing: past the deadline the parser stops and says so.
TEST(OutputParserRegex, StopsAtTheDeadline) {
    const auto p = make_regex_parser({"v=v=(\\d+)"});
    std::string out;
    for (int i = 0; i < 5000; ++i) out += "v=" + std::to_string(i) + "\n";
    RunOutput o;
    o.out = out;
    o.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    ParseResult r = p->parse(o);
    EXPECT_TRUE(r.timed_out);
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_EQ(r.error, "the --timeout ran out while matching --metric regexes, at line 1024");
    o.deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
    r = p->parse(o);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(values(r, "v").size(), 5000u);
}

// ---------------------------------------------------------- names, robustness

TEST(OutputParserNames, KnownAndUnknown) {
    const std::vector<std::string> known = parser_names();
    EXPECT_EQ(known, (std::vector<std::string>{"lines", "igt-syslatency", "igt-latency", "igt-wsim", "igt-exec-nop",
                                               "igt-fence-upload", "ezbench", "glmark2", "apitrace", "gfxrecon",
                                               "glxgears", "time", "gbench", "gotest", "vkmark", "piglit-replay",
                                               "mangohud", "presentmon", "wakeup-latency", "drm-ioctl", "drm-gem",
                                               "i915-exec-nop"}));
    for (const std::string& n : known) EXPECT_NE(make_parser(n), nullptr) << n;
    try {
        make_parser("igt-nop");
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()),
                  "unknown parser \"igt-nop\"; known parsers: lines, igt-syslatency, igt-latency, igt-wsim, "
                  "igt-exec-nop, igt-fence-upload, ezbench, glmark2, apitrace, gfxrecon, glxgears, time, gbench, "
                  "gotest, vkmark, piglit-replay, mangohud, presentmon, wakeup-latency, drm-ioctl, drm-gem, "
                  "i915-exec-nop");
    }
    EXPECT_TRUE(valid_metric_name("latency_p99.rcs0-x"));
    EXPECT_FALSE(valid_metric_name(""));
    EXPECT_FALSE(valid_metric_name("a/b"));
}

TEST(OutputParserNames, DeclarationsMatchWhatRunsGive) {
    // Every metric a parser declares up front has the unit, direction and
    // primary flag its runs carry.
    const auto check = [](const std::string& parser, const std::string& out) {
        const auto p = make_parser(parser);
        RunOutput o;
        o.out = out;
        const ParseResult r = p->parse(o);
        ASSERT_EQ(r.error, "") << parser;
        for (const ParsedMetric& m : r.metrics) {
            bool declared = false;
            for (const data::MetricInfo& d : p->metrics())
                if (d.name == m.name) {
                    declared = true;
                    EXPECT_EQ(d.unit, m.unit) << m.name;
                    EXPECT_EQ(d.direction, m.direction) << m.name;
                    EXPECT_EQ(d.primary, m.primary) << m.name;
                    EXPECT_EQ(d.per, m.per) << m.name;
                }
            EXPECT_TRUE(declared) << parser << ": " << m.name;
        }
    };
    check("igt-syslatency", fixture("gem_syslatency.n_t1.txt"));
    check("igt-latency", "1/1: 1.000us 2.000us 3.000us 4.000us\n");
    check("igt-wsim",
          "*0: 1.000s elapsed (1 cycles, 1.000 workloads/s). Time avg/min/max=1/1/1us; 0 missed.\n"
          "1.000s elapsed (1.000 workloads/s)\n");
    check("wakeup-latency", "latency_mean_us=1\nlatency_median_us=1\nlatency_p99_us=1\nlatency_max_us=1\nwakeups=1\n");
    check("lines", "1\n");
    check("piglit-replay", "PIGLIT: {\"images\": [{\"frame_times\": [16000000, 17000000]}], \"result\": \"pass\"}\n");
    check("mangohud", "os,cpu,gpu,ram,kernel,driver\nDebian,x,,1,6,Mesa\nfps,frametime,elapsed\n"
                      "60,16667,100000000\n50,20000,120000000\n");
    check("vkmark", "  vkmark Score: 10\n");
    EXPECT_TRUE(make_parser("presentmon")->metrics().empty());  // names from the capture
    EXPECT_TRUE(make_parser("igt-exec-nop")->metrics().empty());
    EXPECT_TRUE(make_parser("igt-fence-upload")->metrics().empty());
    EXPECT_TRUE(make_parser("ezbench")->metrics().empty());
}

TEST(OutputParserRobustness, AnyBytesNoCrashLinearTime) {
    std::vector<std::string> inputs;
    inputs.push_back(std::string("rcs0: 1,2\0 cycles: 3.0us\n\xff\xfe\x80 gem_syslatency: cycles=\0\n", 52));
    inputs.push_back(std::string(4 << 20, '7'));                        // one 4 MiB number
    inputs.push_back("rcs0: " + std::string(2 << 20, '1') + " cycles: 1us\n");
    std::string groups = "rcs0: 1";
    for (int k = 0; k < (1 << 19); ++k) groups += ",000";
    inputs.push_back(groups + " cycles: 2.000us\n");
    inputs.push_back(std::string(1 << 20, '\x1b'));                  // broken escapes
    std::string csi = "\x1b[";
    inputs.push_back(csi + std::string(1 << 20, '1'));               // unterminated CSI
    inputs.push_back(std::string(1 << 20, '\n'));                    // a million blank lines
    inputs.push_back("gem_syslatency: cycles=" + std::string(1 << 20, '9') + ".5, latency mean=1us max=1us\n");
    inputs.push_back("*0: 1s elapsed (" + std::string(1 << 20, '1'));
    inputs.push_back("4/4096: Upload rate for " + std::string(1 << 20, '2'));
    inputs.push_back("a: float(" + std::string(1 << 20, '(') + ")");
    inputs.push_back("latency_mean_us=" + std::string(1 << 20, '.'));
    std::string lines;
    for (int k = 0; k < 200000; ++k) lines += "  1.250\n";
    inputs.push_back(lines);
    const auto start = std::chrono::steady_clock::now();
    for (const std::string& n : parser_names()) {
        if (n == "time") continue;
        for (const std::string& in : inputs) {
            const ParseResult r = run(n, in, in);
            EXPECT_TRUE(r.metrics.empty() != r.error.empty()) << n;
            EXPECT_EQ(r.error.find('\n'), std::string::npos) << n;
            EXPECT_LT(r.error.size(), 600u) << n;
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // About 0.6 s in a release build, 3 s with sanitizers, 20 s with
    // sanitizers on a loaded machine; anything quadratic in these megabyte
    // lines would take hours (10^12 steps), so the bound is far from both.
    EXPECT_LT(seconds, 300.0);
    // The huge number is refused for what it is.
    EXPECT_NE(run("lines", inputs[1]).error.find("is beyond the range of a double"), std::string::npos);
}

}  // namespace
}  // namespace gfxstat::drivers
