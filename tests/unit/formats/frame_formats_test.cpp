// SPDX-License-Identifier: MIT
// The frame-time formats (formats/mangohud.cpp, presentmon.cpp,
// piglit_replay.cpp, frame_time_metrics.cpp) and vkmark, on the fixtures
// of tests/fixtures/frames (README.md there: the MangoHud logs are the real
// MangoHud 0.6.8's). Reference values were computed apart from gfxstat,
// with Python's fractions and statistics modules on the same files (the
// script is in this file's history: the numbers below are its output).
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <utility>
#include <sstream>
#include <string>

#include "formats/frame_time_metrics.h"
#include "formats/registry.h"
#include "tests/unit/parser_test_support.h"

namespace gfxstat::formats {
namespace {

std::string fixture(const std::string& name) { return test_support::read_fixture("tests/fixtures/frames", name); }

ParseResult parse(const std::string& format, std::string_view text) {
    RunOutput o;
    o.out = text;
    return make_parser(format)->parse(o);
}

const ParsedMetric* find(const ParseResult& r, const std::string& name) { return test_support::find_metric(r, name); }

double one(const ParseResult& r, const std::string& name) {
    const ParsedMetric* m = find(r, name);
    if (!m || m->values.size() != 1) return -1;
    return token_double(m->values[0]);
}

struct Expected {
    size_t frames;
    double fps_mean, median, p99, low1, low01;
    size_t stutters;
};

void expect_summaries(const ParseResult& r, const std::string& prefix, const Expected& e) {
    SCOPED_TRACE(prefix);
    const ParsedMetric* ft = find(r, prefix + "frame_time");
    ASSERT_NE(ft, nullptr) << r.error;
    EXPECT_EQ(ft->per, "frame");
    EXPECT_EQ(ft->unit, "ms");
    EXPECT_EQ(ft->primary, std::optional<bool>(false));
    EXPECT_EQ(ft->values.size(), e.frames);
    EXPECT_EQ(one(r, prefix + "frames"), static_cast<double>(e.frames));
    EXPECT_NEAR(one(r, prefix + "fps_mean"), e.fps_mean, e.fps_mean * 1e-14);
    EXPECT_NEAR(one(r, prefix + "frame_time_median"), e.median, e.median * 1e-14);
    EXPECT_NEAR(one(r, prefix + "frame_time_p99"), e.p99, e.p99 * 1e-14);
    EXPECT_NEAR(one(r, prefix + "fps_1pct_low"), e.low1, e.low1 * 1e-14);
    EXPECT_NEAR(one(r, prefix + "fps_0.1pct_low"), e.low01, e.low01 * 1e-14);
    EXPECT_EQ(one(r, prefix + "stutters"), static_cast<double>(e.stutters));
    const ParsedMetric* fps = find(r, prefix + "fps_mean");
    ASSERT_NE(fps, nullptr);
    EXPECT_EQ(fps->primary, std::optional<bool>(true));
    EXPECT_EQ(fps->per, "");
}

TEST(MangoHud, RealLogOfEveryFrame) {
    const ParseResult r = parse("mangohud", fixture("mangohud_0.6.8_vkcube.csv"));
    ASSERT_EQ(r.error, "");
    // 537 rows, none begun before MangoHud's clock; frametime in µs.
    expect_summaries(r, "", {537, 170.92488185653067, 3.206, 60.381, 13.518354545884675, 9.88972951589774, 98});
    EXPECT_EQ(r.environment.at("mangohud_os"), "Debian GNU/Linux 12 (bookworm)");
    EXPECT_EQ(r.environment.at("mangohud_driver"), "4.5 Mesa 22.3.6");
}

TEST(MangoHud, LogVersioningHeaderAboveThePreamble) {
    // log_versioning=1: MangoHud's logging writes "v1", its version and a
    // rule above the preamble, and a rule above the column names.
    const std::string real = fixture("mangohud_0.6.8_vkcube.csv");
    const size_t cut = real.find('\n', real.find('\n') + 1) + 1;
    const std::string versioned = "v1\n0.6.8\n---------------------SYSTEM INFO---------------------\n" +
                                  real.substr(0, cut) + "--------------------FRAME METRICS--------------------\n" +
                                  real.substr(cut);
    const ParseResult r = parse("mangohud", versioned);
    ASSERT_EQ(r.error, "");
    expect_summaries(r, "", {537, 170.92488185653067, 3.206, 60.381, 13.518354545884675, 9.88972951589774, 98});
    EXPECT_EQ(r.environment.at("mangohud_version"), "0.6.8");
    EXPECT_EQ(r.environment.at("mangohud_os"), "Debian GNU/Linux 12 (bookworm)");
    // Errors name the line of the versioned file.
    EXPECT_EQ(parse("mangohud", "v1\n0.6.8\n---SYSTEM INFO---\nos,cpu\n").error.rfind("line 4: ", 0), 0u);
}

TEST(MangoHud, SummaryFileKeepsMangoHudsOwnFigures) {
    const ParseResult r = parse("mangohud", fixture("mangohud_0.6.8_vkcube_summary.csv"));
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(one(r, "mangohud_fps_mean"), 310.1);  // the mean of per-frame fps: not gfxstat's 170.9
    EXPECT_EQ(one(r, "mangohud_fps_1pct_min"), 14.0);
    EXPECT_EQ(one(r, "mangohud_fps_0.1pct_min"), 9.9);
    EXPECT_EQ(one(r, "mangohud_fps_p97"), 636.9);
    EXPECT_EQ(find(r, "mangohud_fps_mean")->primary, std::optional<bool>(true));
}

// One frame per 100 ms is not the run's frames: refused, with the advice.
TEST(MangoHud, SampledLogIsRefused) {
    const ParseResult r = parse("mangohud", fixture("mangohud_0.6.8_interval100.csv"));
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_NE(r.error.find("log_interval=0"), std::string::npos) << r.error;
    // Its first two rows (a 23486 s frame begun before MangoHud's clock)
    // are no frames: the error names the first row kept, line 6.
    EXPECT_EQ(r.error.rfind("line 6: ", 0), 0u) << r.error;
}

TEST(MangoHud, RowsThatDoNotFitAreErrorsNamingTheLine) {
    const std::string head = "os,cpu,gpu,ram,kernel,driver,cpuscheduler\nDebian,x,,1,6,Mesa,\nfps,frametime,elapsed\n";
    EXPECT_EQ(parse("mangohud", head + "60,16667,100000000\n60,16667\n").error.rfind("line 5: ", 0), 0u);
    EXPECT_EQ(parse("mangohud", head + "60,16667,100000000\nfast,16667,200000000\n").error.rfind("line 5: ", 0), 0u);
    EXPECT_EQ(parse("mangohud", head + "60,0,100000000\n60,16667,200000000\n").error.rfind("line 4: ", 0), 0u)
        << parse("mangohud", head + "60,0,100000000\n").error;
    EXPECT_NE(parse("mangohud", head).error.find("without a frame"), std::string::npos);
    EXPECT_EQ(parse("mangohud", "hello\n").error.rfind("line 1: expected MangoHud's log preamble", 0), 0u);
    // ms logs (later MangoHud versions) are told by fps x frametime.
    const ParseResult ms = parse("mangohud", head + "50,20,20000000\n50,20,40000000\n25,40,80000000\n");
    ASSERT_EQ(ms.error, "");
    EXPECT_NEAR(one(ms, "fps_mean"), 3000.0 / 80, 1e-12);
}

// A preamble value holding a ',' (llvmpipe's GL renderer) leaves the
// fields unpaired: the line is kept whole, never shifted by one.
TEST(MangoHud, PreambleValueWithACommaIsNotShifted) {
    const std::string values = "Debian GNU/Linux 12 (bookworm),Intel Xeon Processor,llvmpipe (LLVM 15.0.6, 256 bits),"
                               "24683584,6.1.0,4.5 Mesa 22.3.6,";
    const ParseResult r = parse("mangohud", "os,cpu,gpu,ram,kernel,driver,cpuscheduler\n" + values +
                                                "\nfps,frametime,elapsed\n60,16667,100000000\n60,16667,200000000\n");
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.environment.count("mangohud_ram"), 0u);
    EXPECT_EQ(r.environment.count("mangohud_kernel"), 0u);
    EXPECT_EQ(r.environment.at("mangohud_system"), values);
}

// A line with ANSI escapes is rebuilt in the line reader's one buffer,
// which the next line reuses: column names and the preamble must be copies
// (the fuzz target found the summary's header read after it was gone).
TEST(MangoHud, LinesWithEscapesKeepTheirNames) {
    const ParseResult s = parse("mangohud", "0.1% Min FPS,Average FPS\x1b[0m\n1.5,\x1b[1m60\x1b[0m\n");
    ASSERT_EQ(s.error, "");
    EXPECT_EQ(one(s, "mangohud_fps_mean"), 60);
    EXPECT_EQ(one(s, "mangohud_fps_0.1pct_min"), 1.5);
    const ParseResult r = parse("mangohud", "os,cpu,gpu\x1b[0m\nDebian\x1b[1m,x,y\x1b[0m\n"
                                            "fps,frametime,elapsed\x1b[0m\n60,16667,100000000\x1b[0m\n"
                                            "50,20000,120000000\x1b[0m\n");
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.environment.at("mangohud_os"), "Debian");
    EXPECT_EQ(r.environment.at("mangohud_gpu"), "y");
    EXPECT_EQ(one(r, "frames"), 2);
}

TEST(PresentMon, OneMetricSetPerProcess) {
    const ParseResult r = parse("presentmon", fixture("presentmon.csv"));
    ASSERT_EQ(r.error, "");
    expect_summaries(r, "game.exe.", {319, 61.289673055138415, 15.988, 18.12602, 21.275237750781866,
                                      17.542936336684033, 3});
    expect_summaries(r, "dwm.exe.", {79, 12.003187681994534, 83.294, 83.80632, 11.931608022813235,
                                     11.931608022813235, 0});
    EXPECT_EQ(find(r, "frame_time"), nullptr);
}

TEST(PresentMon, LaterColumnSpellingAndByteOrderMark) {
    // PresentMon's CSV writer names the columns "msBetweenPresents",
    // "msInPresentAPI", ... from 1.6 on, and 2.x files start with a UTF-8
    // byte order mark: the same capture reads the same.
    std::string pm = fixture("presentmon.csv");
    const size_t eol = pm.find('\n');
    std::string header = pm.substr(0, eol);
    for (size_t at = 0; (at = header.find(",Ms", at)) != std::string::npos; ++at) header[at + 1] = 'm';
    ASSERT_NE(header.find(",msBetweenPresents,"), std::string::npos);
    const ParseResult r = parse("presentmon", "\xEF\xBB\xBF" + header + pm.substr(eol));
    ASSERT_EQ(r.error, "");
    expect_summaries(r, "game.exe.", {319, 61.289673055138415, 15.988, 18.12602, 21.275237750781866,
                                      17.542936336684033, 3});
    expect_summaries(r, "dwm.exe.", {79, 12.003187681994534, 83.294, 83.80632, 11.931608022813235,
                                     11.931608022813235, 0});
}

TEST(PresentMon, Errors) {
    const std::string head = "Application,ProcessID,SwapChainAddress,MsBetweenPresents\n";
    EXPECT_EQ(parse("presentmon", head + "a.exe,1,0x1,0\na.exe,1,0x1,16.6,9\n").error.rfind("line 3: ", 0), 0u);
    EXPECT_EQ(parse("presentmon", head + "a.exe,1,0x1,0\na.exe,1,0x1,NA\n").error.rfind("line 3: ", 0), 0u);
    // A 0 after the first present of a swap chain is a frame of no time.
    EXPECT_EQ(parse("presentmon", head + "a.exe,1,0x1,16\na.exe,1,0x1,0\n").error.rfind("line 3: ", 0), 0u);
    EXPECT_NE(parse("presentmon", "Application,ProcessID\n").error.find("MsBetweenPresents"), std::string::npos);
    // A PresentMon 2.x default header: the hint names the option that
    // brings the column back.
    EXPECT_NE(parse("presentmon", "Application,ProcessID,SwapChainAddress,CPUStartTime,FrameTime,MsCPUBusy\n")
                  .error.find("with --v1_metrics"),
              std::string::npos);
    // "a b.exe" and "a_b.exe" would share metric names.
    EXPECT_NE(parse("presentmon", head + "a b.exe,1,0x1,16\na_b.exe,2,0x2,16\n").error.find("would both be named"),
              std::string::npos);
}

TEST(PiglitReplay, FrameTimesInNanoseconds) {
    const ParseResult r = parse("piglit-replay", fixture("piglit_replay_profile.txt"));
    ASSERT_EQ(r.error, "");
    expect_summaries(r, "", {150, 45.02651690376867, 22.028429, 23.80986957, 23.56588954375354,
                             16.39344262295082, 1});
    // ns to ms by moving the decimal point: exact.
    const ParsedMetric* ft = find(r, "frame_time");
    EXPECT_EQ(ft->values[77].significand, 61000000u);
    EXPECT_EQ(ft->values[77].exponent, -6);
}

TEST(PiglitReplay, Errors) {
    EXPECT_NE(parse("piglit-replay", "PIGLIT: {\"images\": [{\"image_desc\": \"t\", \"frame_times\": null}], "
                                     "\"result\": \"crash\"}\n")
                  .error.find("\"crash\""),
              std::string::npos);
    EXPECT_EQ(parse("piglit-replay", "x\nPIGLIT: {\"images\": [\n").error.rfind("line 2: ", 0), 0u);
    EXPECT_NE(parse("piglit-replay", "[frame_times] 3\nPIGLIT: {\"images\": [{\"frame_times\": [1, 2]}], "
                                     "\"result\": \"pass\"}\n")
                  .error.find("announced 3"),
              std::string::npos);
    const std::string good = "PIGLIT: {\"images\": [{\"frame_times\": [1000000]}], \"result\": \"pass\"}\n";
    EXPECT_NE(parse("piglit-replay", good + good).error.find("one trace per run"), std::string::npos);
    EXPECT_NE(parse("piglit-replay", "[frame_times] error\n").error.find("could not replay"), std::string::npos);
    // What piglit prints when the replayer fails: its own words first.
    const ParseResult failed = parse("piglit-replay",
                                     "[frame_times] Trace /db/x.trace couldn't be replayed. See above logs for more "
                                     "information.\n[frame_times] error\nPIGLIT: {\"images\": [{\"image_desc\": "
                                     "\"x.trace\", \"frame_times\": null}], \"result\": \"crash\"}\n");
    EXPECT_EQ(failed.error.rfind("line 1: piglit could not replay the trace (\"Trace /db/x.trace", 0), 0u) << failed.error;
    EXPECT_NE(parse("piglit-replay", "nothing\n").error.find("no line of the form"), std::string::npos);
}

TEST(Vkmark, ScenesAndScoreBothLayouts) {
    for (const char* file : {"vkmark.txt", "vkmark_split_lines.txt"}) {
        SCOPED_TRACE(file);
        const ParseResult r = parse("vkmark", fixture(file));
        ASSERT_EQ(r.error, "");
        EXPECT_EQ(r.metrics.size(), 14u);
        EXPECT_EQ(one(r, "vertex.device-local_true"), 1422);
        EXPECT_EQ(one(r, "effect2d.kernel_blur"), 301);
        EXPECT_EQ(one(r, "cube"), 1510);  // <default>: the scene alone
        EXPECT_EQ(one(r, "score"), 1094);
        EXPECT_EQ(find(r, "score")->primary, std::optional<bool>(true));
        EXPECT_EQ(find(r, "cube")->unit, "frames/s");
        for (const ParsedMetric& m : r.metrics) EXPECT_EQ(m.per, "");  // averages, not frames
    }
}

TEST(Vkmark, DebugPrefixAndZeroFps) {
    // vkmark --debug starts its own lines with "Info: "; the FPS goes on
    // the scene's line (or the next) without it. FPS 0 prints 1000.0 / 0.
    const ParseResult r = parse("vkmark", "Debug: Using window system plugin\n"
                                          "Info: [vertex] device-local=true: FPS: 1422 FrameTime: 0.703 ms\n"
                                          "Info: [cube] <default>:\n"
                                          " FPS: 0 FrameTime: inf ms\n"
                                          "Info:                                    vkmark Score: 711\n");
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(one(r, "vertex.device-local_true"), 1422);
    EXPECT_EQ(one(r, "cube"), 0);
    EXPECT_EQ(one(r, "score"), 711);
    EXPECT_EQ(parse("vkmark", "[cube] <default>: FPS: 2 FrameTime: inf ms\n").error.rfind("line 1: ", 0), 0u);
}

TEST(Vkmark, Errors) {
    EXPECT_EQ(parse("vkmark", "[vertex] device-local=true: FPS: many FrameTime: 1 ms\n").error.rfind("line 1: ", 0), 0u);
    EXPECT_EQ(parse("vkmark", "[vertex] device-local=true:\nsomething else\n").error.rfind("line 2: ", 0), 0u);
    EXPECT_NE(parse("vkmark", "[vertex] device-local=true:\n Failed with exception: no memory\n").error.find("failed"),
              std::string::npos);
    EXPECT_NE(parse("vkmark", "[cube] <default>:\n").error.find("no FPS line"), std::string::npos);
    // The reason may be empty, at the very end of the line (found by the fuzz target).
    EXPECT_NE(parse("vkmark", "[clear] <default>: Failed with exception:").error.find("scene \"clear\" failed"),
              std::string::npos);
    EXPECT_EQ(parse("vkmark", "  vkmark Score: lots\n").error.rfind("line 1: ", 0), 0u);
    // " Setup failed" ends no line: the next scene's FPS is not this scene's.
    const ParseResult glued = parse("vkmark", "[vertex] device-local=true: Setup failed[cube] <default>: FPS: 1510 "
                                              "FrameTime: 0.662 ms\n");
    EXPECT_TRUE(glued.metrics.empty());
    EXPECT_NE(glued.error.find("line 1: scene \"vertex.device-local_true\" failed"), std::string::npos) << glued.error;
    EXPECT_NE(parse("vkmark", "[cube] <default>:\n Setup failed\n").error.find("scene \"cube\" failed"),
              std::string::npos);
}

// Any bytes: an error or metrics, never a crash (the fuzz target does more).
TEST(FrameFormats, NeverCrashOnOddBytes) {
    const std::string odd[] = {"", "\n", std::string(1, '\0'), "os,cpu,gpu\n\xff\xfe\n", "fps,frametime\n1,1\n",
                               "Application,MsBetweenPresents\n,\n", "PIGLIT: {\"images\": 5}\n", "[\n", "[]:\n",
                               "PIGLIT: {\"images\": [{\"frame_times\": [1e999]}], \"result\": \"pass\"}\n"};
    for (const char* f : {"mangohud", "presentmon", "piglit-replay", "vkmark"})
        for (const std::string& s : odd) {
            const ParseResult r = parse(f, s);
            EXPECT_TRUE(!r.metrics.empty() || !r.error.empty()) << f;
        }
}

// What the fuzz target (tests/fuzz/fuzz_output_parsers.cpp, every parser
// by name) checks, here on mutations of each fixture, so that it runs in
// every build: metrics with valid names and usable values, or a reason.
TEST(FrameFormats, MutatedFixturesKeepTheParserContract) {
    const std::pair<const char*, const char*> cases[] = {
        {"mangohud", "mangohud_0.6.8_vkcube.csv"}, {"mangohud", "mangohud_0.6.8_vkcube_summary.csv"},
        {"presentmon", "presentmon.csv"},         {"piglit-replay", "piglit_replay_profile.txt"},
        {"vkmark", "vkmark_split_lines.txt"}};
    std::mt19937_64 rng(20261201);
    const char bytes[] = {',', '\n', '0', '9', '.', '-', 'e', '[', ']', '"', ':', ' ', '\0', '\xff'};
    for (const auto& [format, file] : cases) {
        SCOPED_TRACE(format);
        const std::string base = fixture(file);
        ASSERT_FALSE(base.empty());
        const auto parser = make_parser(format);
        for (int k = 0; k < 300; ++k) {
            std::string s = base;
            const int edits = 1 + static_cast<int>(rng() % 4);
            for (int e = 0; e < edits; ++e) {
                const size_t at = rng() % s.size();
                switch (rng() % 3) {
                    case 0: s[at] = bytes[rng() % sizeof bytes]; break;
                    case 1: s.erase(at, 1 + rng() % 8); break;
                    default: s.resize(at); break;
                }
                if (s.empty()) s = "x";
            }
            RunOutput o;
            o.out = s;
            const ParseResult r = parser->parse(o);
            ASSERT_TRUE(!r.metrics.empty() || !r.error.empty());
            for (const ParsedMetric& m : r.metrics) {
                ASSERT_TRUE(valid_metric_name(m.name)) << m.name;
                ASSERT_FALSE(m.values.empty()) << m.name;
                for (const auto& t : m.values) ASSERT_TRUE(t.status == data::TokenStatus::decimal ||
                                                           t.status == data::TokenStatus::binary);
            }
        }
    }
}

}  // namespace
}  // namespace gfxstat::formats
