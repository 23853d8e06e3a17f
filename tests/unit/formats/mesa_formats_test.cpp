// SPDX-License-Identifier: MIT
// The Mesa world's formats (formats/glmark2.cpp, apitrace.cpp,
// gfxrecon.cpp, glxgears.cpp) against real outputs of the programs on
// llvmpipe and lavapipe (tests/fixtures/mesa/, its README.md says how each
// was made). Lines written here by hand are marked "printf": the
// programs' own format strings, for what Debian 12's versions cannot print
// (newer gfxreconstruct) or for malformed input. Values are compared as
// the exact decimals printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/registry.h"
#include "tests/unit/parser_test_support.h"

namespace gfxstat::formats {
namespace {

using data::Direction;
using data::NumberToken;
using data::TokenStatus;
using Texts = std::vector<std::string>;

std::string fixture(const std::string& name) { return test_support::read_fixture("tests/fixtures/mesa", name); }

std::string text(const NumberToken& t) { return test_support::token_text(t); }

ParseResult parse(const std::string& format, std::string_view out, std::string_view err = "") {
    RunOutput o;
    o.out = out;
    o.err = err;
    return make_parser(format)->parse(o);
}

const ParsedMetric* find(const ParseResult& r, const std::string& name) { return test_support::find_metric(r, name); }

Texts values(const ParseResult& r, const std::string& name) {
    Texts out;
    if (const ParsedMetric* m = find(r, name))
        for (const auto& t : m->values) out.push_back(text(t));
    return out;
}

Texts names(const ParseResult& r) {
    Texts out;
    for (const auto& m : r.metrics) out.push_back(m.name);
    return out;
}

void expect_decl(const ParseResult& r, const std::string& name, const std::string& unit, Direction d, bool primary) {
    const ParsedMetric* m = find(r, name);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_EQ(m->unit, unit) << name;
    EXPECT_EQ(m->direction, d) << name;
    EXPECT_EQ(m->primary, primary) << name;
}

// Sums exact decimals with six fractional digits (the ms apitrace gives).
long long micro_sum(const Texts& v) {
    long long s = 0;
    for (const std::string& t : v) {
        const size_t dot = t.find('.');
        EXPECT_EQ(t.size() - dot, 7u) << t;
        s += std::stoll(t.substr(0, dot)) * 1000000 + std::stoll(t.substr(dot + 1));
    }
    return s;
}

std::vector<std::string_view> sections_of(const std::string& format, std::string_view text) {
    const Format* f = find_format(format);
    EXPECT_NE(f, nullptr);
    EXPECT_NE(f->sections, nullptr);
    return f->sections(text);
}

// Every prefix of a real output, and bytes flipped in it: no throw, and
// either metrics with valid names and usable values or a reason.
void survives_damage(const std::string& format, const std::string& real) {
    const auto check = [&](std::string_view s) {
        ParseResult r;
        ASSERT_NO_THROW(r = parse(format, s));
        if (r.metrics.empty()) {
            EXPECT_FALSE(r.error.empty());
        }
        for (const auto& m : r.metrics) {
            EXPECT_TRUE(valid_metric_name(m.name)) << m.name;
            EXPECT_FALSE(m.values.empty());
            for (const auto& t : m.values)
                EXPECT_TRUE(t.status == TokenStatus::decimal || t.status == TokenStatus::binary);
        }
    };
    for (size_t cut = 0; cut <= real.size(); cut += 7) check(std::string_view(real).substr(0, cut));
    std::mt19937 rng(20261201);
    for (int round = 0; round < 200; ++round) {
        std::string s = real;
        for (int k = 0; k < 4; ++k) s[rng() % s.size()] = static_cast<char>(rng() % 256);
        check(s);
    }
}

// ------------------------------------------------------------------ glmark2

TEST(MesaGlmark2, Es2TwoScenesOnLlvmpipe) {
    const ParseResult r = parse("glmark2", fixture("glmark2-es2-two-scenes.stdout"));
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(names(r), (Texts{"build.duration_0.5.fps", "build.duration_0.5.frame_time",
                               "shading.duration_0.5.shading_phong.fps", "shading.duration_0.5.shading_phong.frame_time",
                               "score"}));
    EXPECT_EQ(values(r, "build.duration_0.5.fps"), Texts{"425"});
    EXPECT_EQ(values(r, "build.duration_0.5.frame_time"), Texts{"2.357"});
    EXPECT_EQ(values(r, "shading.duration_0.5.shading_phong.fps"), Texts{"132"});
    EXPECT_EQ(values(r, "shading.duration_0.5.shading_phong.frame_time"), Texts{"7.623"});
    EXPECT_EQ(values(r, "score"), Texts{"277"});
    expect_decl(r, "build.duration_0.5.fps", "fps", Direction::higher_is_better, false);
    expect_decl(r, "build.duration_0.5.frame_time", "ms", Direction::lower_is_better, true);
    expect_decl(r, "score", "", Direction::higher_is_better, true);
    EXPECT_EQ(r.environment, (std::map<std::string, std::string>{
                                 {"gl_renderer", "llvmpipe (LLVM 15.0.6, 256 bits)"},
                                 {"gl_vendor", "Mesa/X.org"},
                                 {"gl_version", "OpenGL ES 3.2 Mesa 22.3.6"},
                                 {"glmark2_surface_config", "buf=32 r=8 g=8 b=8 a=8 depth=32 stencil=0 samples=0"},
                                 {"glmark2_surface_size", "320x240 windowed"},
                                 {"glmark2_version", "2023.01"}}));
    const auto decl = make_parser("glmark2")->metrics();
    ASSERT_EQ(decl.size(), 1u);
    EXPECT_EQ(decl[0].name, "score");
}

TEST(MesaGlmark2, DesktopGlWithGlxWarningsOnStdout) {
    const ParseResult r = parse("glmark2", fixture("glmark2-gl-three-scenes.stdout"));
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(names(r), (Texts{"build.duration_0.3.fps", "build.duration_0.3.frame_time",
                               "build.duration_0.3.use-vbo_true.fps", "build.duration_0.3.use-vbo_true.frame_time",
                               "texture.duration_0.3.texture-filter_linear.fps",
                               "texture.duration_0.3.texture-filter_linear.frame_time", "score"}));
    EXPECT_EQ(values(r, "build.duration_0.3.fps"), Texts{"312"});
    EXPECT_EQ(values(r, "build.duration_0.3.frame_time"), Texts{"3.212"});
    EXPECT_EQ(values(r, "build.duration_0.3.use-vbo_true.fps"), Texts{"439"});
    EXPECT_EQ(values(r, "build.duration_0.3.use-vbo_true.frame_time"), Texts{"2.280"});
    EXPECT_EQ(values(r, "texture.duration_0.3.texture-filter_linear.fps"), Texts{"1198"});
    EXPECT_EQ(values(r, "texture.duration_0.3.texture-filter_linear.frame_time"), Texts{"0.835"});
    EXPECT_EQ(values(r, "score"), Texts{"648"});
    EXPECT_EQ(r.environment.at("gl_version"), "4.5 (Compatibility Profile) Mesa 22.3.6");
}

TEST(MesaGlmark2, CpuAndShaderResults) {
    const ParseResult r = parse("glmark2", fixture("glmark2-es2-results-cpu-shader.stdout"));
    ASSERT_TRUE(r.error.empty()) << r.error;
    const std::string b = "build.duration_0.3.";
    const std::string e = "effect2d.duration_0.3.kernel_0_2C1_2C0_3B1_2C-4_2C1_3B0_2C1_2C0_3B.";
    EXPECT_EQ(values(r, b + "fps"), Texts{"624"});
    EXPECT_EQ(values(r, b + "frame_time"), Texts{"1.603"});
    EXPECT_EQ(values(r, b + "user_time"), Texts{"0.914"});
    EXPECT_EQ(values(r, b + "system_time"), Texts{"0.614"});
    EXPECT_EQ(values(r, b + "cpu_busy"), Texts{"100"});
    EXPECT_EQ(values(r, b + "shader_compile_time"), Texts{"6.538"});
    EXPECT_EQ(values(r, e + "fps"), Texts{"1453"});
    EXPECT_EQ(values(r, e + "frame_time"), Texts{"0.688"});
    EXPECT_EQ(values(r, e + "user_time"), Texts{"0.510"});
    EXPECT_EQ(values(r, e + "system_time"), Texts{"0.005"});
    EXPECT_EQ(values(r, e + "cpu_busy"), Texts{"100"});
    EXPECT_EQ(values(r, e + "shader_compile_time"), Texts{"10.707"});
    EXPECT_EQ(values(r, "score"), Texts{"1037"});
    EXPECT_EQ(r.metrics.size(), 13u);
    expect_decl(r, b + "user_time", "ms", Direction::lower_is_better, false);
    expect_decl(r, b + "cpu_busy", "%", Direction::unknown, false);
    expect_decl(r, b + "shader_compile_time", "ms", Direction::lower_is_better, false);

    const ParseResult cpu = parse("glmark2", fixture("glmark2-es2-results-cpu.stdout"));
    EXPECT_EQ(names(cpu), (Texts{b + "frame_time", b + "user_time", b + "system_time", b + "cpu_busy", "score"}));
    EXPECT_EQ(values(cpu, b + "frame_time"), Texts{"1.694"});
    EXPECT_EQ(values(cpu, b + "user_time"), Texts{"0.835"});
    EXPECT_EQ(values(cpu, b + "system_time"), Texts{"0.390"});
    EXPECT_EQ(values(cpu, b + "cpu_busy"), Texts{"100"});
    EXPECT_EQ(values(cpu, "score"), Texts{"590"});
    const ParseResult shader = parse("glmark2", fixture("glmark2-es2-results-shader.stdout"));
    EXPECT_EQ(names(shader), (Texts{b + "shader_compile_time", "score"}));
    EXPECT_EQ(values(shader, b + "shader_compile_time"), Texts{"6.826"});
    EXPECT_EQ(values(shader, "score"), Texts{"327"});
}

TEST(MesaGlmark2, DefaultSceneAndDebugPrefix) {
    const ParseResult r = parse("glmark2", fixture("glmark2-es2-off-screen.stdout"));
    EXPECT_EQ(names(r), (Texts{"build.duration_0.3.fps", "build.duration_0.3.frame_time", "clear.fps",
                               "clear.frame_time", "score"}));
    EXPECT_EQ(values(r, "build.duration_0.3.fps"), Texts{"759"});
    EXPECT_EQ(values(r, "build.duration_0.3.frame_time"), Texts{"1.318"});
    EXPECT_EQ(values(r, "clear.fps"), Texts{"31490"});
    EXPECT_EQ(values(r, "clear.frame_time"), Texts{"0.032"});
    EXPECT_EQ(values(r, "score"), Texts{"16123"});

    const ParseResult d = parse("glmark2", fixture("glmark2-es2-debug.stdout"));
    ASSERT_TRUE(d.error.empty()) << d.error;
    EXPECT_EQ(names(d), (Texts{"build.duration_0.2.fps", "build.duration_0.2.frame_time", "score"}));
    EXPECT_EQ(values(d, "build.duration_0.2.fps"), Texts{"980"});
    EXPECT_EQ(values(d, "build.duration_0.2.frame_time"), Texts{"1.021"});
    EXPECT_EQ(values(d, "score"), Texts{"979"});
    EXPECT_EQ(d.environment.at("gl_renderer"), "llvmpipe (LLVM 15.0.6, 256 bits)");
}

// glmark2's whole default list: 33 scene lines, 33 different stems.
TEST(MesaGlmark2, DefaultBenchmarksGiveDistinctNames) {
    const std::string out = fixture("glmark2-es2-default-benchmarks.stdout");
    const ParseResult r = parse("glmark2", out);
    ASSERT_TRUE(r.error.empty()) << r.error;
    std::set<std::string> stems;
    size_t fps = 0;
    for (const auto& m : r.metrics) {
        EXPECT_TRUE(valid_metric_name(m.name)) << m.name;
        if (m.name.ends_with(".fps")) {
            ++fps;
            stems.insert(m.name.substr(0, m.name.size() - 4));
        }
    }
    EXPECT_EQ(fps, 33u);
    EXPECT_EQ(stems.size(), 33u);
    EXPECT_EQ(values(r, "effect2d.kernel_1_2C1_2C1_2C1_2C1_3B1_2C1_2C1_2C1_2C1_3B1_2C1_2C1_2C1_2C1_3B.fps"),
              Texts{"1118"});
    EXPECT_EQ(values(r, "desktop.blur-radius_5.effect_blur.passes_1.separable_true.windows_4.frame_time"),
              Texts{"2.474"});
    EXPECT_EQ(values(r, "buffer.columns_200.interleave_false.update-dispersion_0.9.update-fraction_0.5."
                        "update-method_subdata.fps"),
              Texts{"260"});
    EXPECT_EQ(values(r, "terrain.frame_time"), Texts{"102.694"});
    EXPECT_EQ(values(r, "ideas.speed_duration.fps"), Texts{"713"});
    EXPECT_EQ(values(r, "score"), Texts{"761"});
}

// printf: option strings that a naive mapping would confuse.
TEST(MesaGlmark2, NamesAreOneToOne) {
    const Texts lines = {
        "[s] a=1:b=2: FPS: 1 FrameTime: 1.000 ms",   "[s] a=1.b=2: FPS: 1 FrameTime: 1.000 ms",
        "[s] a=1_b=2: FPS: 1 FrameTime: 1.000 ms",   "[s] a=1:b=2:c=3: FPS: 1 FrameTime: 1.000 ms",
        "[s] a=_: FPS: 1 FrameTime: 1.000 ms",       "[s] a=__: FPS: 1 FrameTime: 1.000 ms",
        "[s] a=_5F: FPS: 1 FrameTime: 1.000 ms",     "[s] a=x y: FPS: 1 FrameTime: 1.000 ms",
        "[s] a=x_20y: FPS: 1 FrameTime: 1.000 ms",   "[s] a=.5: FPS: 1 FrameTime: 1.000 ms",
        "[s] a=5.: FPS: 1 FrameTime: 1.000 ms",      "[s] a=5.x: FPS: 1 FrameTime: 1.000 ms",
        "[s] a=frame_time: FPS: 1 FrameTime: 1.000 ms", "[s] <default>: FPS: 1 FrameTime: 1.000 ms",
        "[s-t] <default>: FPS: 1 FrameTime: 1.000 ms", "[s] t=: FPS: 1 FrameTime: 1.000 ms",
    };
    std::set<std::string> seen;
    for (const std::string& l : lines) {
        const ParseResult r = parse("glmark2", l);
        ASSERT_EQ(r.metrics.size(), 2u) << l << ": " << r.error;
        for (const auto& m : r.metrics) {
            EXPECT_TRUE(valid_metric_name(m.name)) << m.name;
            EXPECT_TRUE(seen.insert(m.name).second) << l << " reuses " << m.name;
        }
    }
    EXPECT_EQ(names(parse("glmark2", lines[1]))[0], "s.a_1_2Eb_3D2.fps");
    EXPECT_EQ(names(parse("glmark2", lines[7]))[0], "s.a_x_20y.fps");
    EXPECT_EQ(names(parse("glmark2", lines[8]))[0], "s.a_x__20y.fps");
}

TEST(MesaGlmark2, MalformedLinesAreErrorsNamingTheLine) {
    // The real banner, lines 1 to 10, then the line under test.
    const std::string real = fixture("glmark2-es2-two-scenes.stdout");
    size_t cut = 0;
    for (int k = 0; k < 10; ++k) cut = real.find('\n', cut) + 1;
    const std::string banner = real.substr(0, cut);
    ASSERT_TRUE(banner.ends_with("=\n"));
    struct Case {
        std::string line, where;
    };
    const std::vector<Case> cases = {
        {"[build] use-vbo=false: FPS: many FrameTime: 1.466 ms", "line 11: expected '[scene] option=value:...: FPS: N FrameTime: X ms', found \"many FrameTime: 1.466 ms\" at column 29"},
        {"[build] use-vbo=false: FPS: 683", "line 11: expected"},
        {"[build] use-vbo=false: FPS: 683 FrameTime: 1.466", "line 11: expected"},
        {"[build] use-vbo=false: FPS: 683 FrameTime: 1.466 ms trailing", "line 11: expected"},
        {"[build] use-vbo=false:", "line 11: expected"},
        {"[build] use-vbo=false: (User: 1 ms, System: x ms) CpuBusy: 1%", "line 11: expected"},
        {"[build] use-vbo: FPS: 683 FrameTime: 1.466 ms", "line 11: expected"},
        {"glmark2 Score: lots", "line 11: expected 'glmark2 Score: N'"},
        {"[build] use-vbo=false: Set up failed", "line 11: glmark2 could not set up scene"},
    };
    for (const Case& c : cases) {
        const ParseResult r = parse("glmark2", banner + c.line + "\n");
        EXPECT_TRUE(r.metrics.empty()) << c.line;
        EXPECT_NE(r.error.find(c.where), std::string::npos) << c.line << " -> " << r.error;
    }
    // Unsupported: the scene is left out, the others stay.
    const ParseResult u = parse("glmark2", banner +
                                               "[terrain] <default>: Unsupported\n"
                                               "[build] <default>: FPS: 10 FrameTime: 100.000 ms\n");
    EXPECT_EQ(names(u), (Texts{"build.fps", "build.frame_time"}));
    const ParseResult v = parse("glmark2", fixture("glmark2-es2-validate.stdout"));
    EXPECT_NE(v.error.find("--validate"), std::string::npos) << v.error;
    EXPECT_NE(parse("glmark2", "").error.find("stdout is empty"), std::string::npos);
    // Other bracketed chatter is not a scene line.
    EXPECT_EQ(names(parse("glmark2", "[gfxrecon] INFO - x: y\n[build] <default>: FPS: 1 FrameTime: 1.000 ms\n")),
              (Texts{"build.fps", "build.frame_time"}));
}

TEST(MesaGlmark2, ZeroFpsSceneKeepsItsFpsWithoutAnInfiniteFrameTime) {
    // printf(" FPS: %u FrameTime: %.3f ms", 0, 1000.0 / 0): a scene too slow
    // for one frame in two seconds on llvmpipe.
    const ParseResult r = parse("glmark2", "[terrain] <default>: FPS: 0 FrameTime: inf ms\n"
                                           "[build] <default>: FPS: 10 FrameTime: 100.000 ms\n"
                                           "glmark2 Score: 5\n");
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(names(r), (Texts{"terrain.fps", "build.fps", "build.frame_time", "score"}));
    EXPECT_EQ(values(r, "terrain.fps"), (Texts{"0"}));
    // Only 1000.0 / 0 prints "inf": after a positive FPS it is an error.
    EXPECT_EQ(parse("glmark2", "[build] <default>: FPS: 3 FrameTime: inf ms\n").error.rfind("line 1: expected", 0), 0u);
}

TEST(MesaGlmark2, SavedRunsSplitAtEachBanner) {
    const std::string text = fixture("glmark2-es2-saved-two-runs.stdout");
    const ParseResult whole = parse("glmark2", text);
    EXPECT_NE(whole.error.find("line 16: a second glmark2 banner"), std::string::npos) << whole.error;
    const auto parts = sections_of("glmark2", text);
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_TRUE(parts[1].starts_with("=====")) << parts[1].substr(0, 60);
    EXPECT_EQ(parts[0].size() + parts[1].size(), text.size());
    EXPECT_EQ(values(parse("glmark2", parts[0]), "score"), Texts{"494"});
    EXPECT_EQ(values(parse("glmark2", parts[0]), "build.duration_0.2.frame_time"), Texts{"2.023"});
    EXPECT_EQ(values(parse("glmark2", parts[1]), "score"), Texts{"279"});
    EXPECT_EQ(values(parse("glmark2", parts[1]), "build.duration_0.2.frame_time"), Texts{"3.579"});
    // A shell prompt before the first banner goes with no run.
    const std::string with_prompt = "$ glmark2-es2 -b build\n" + text;
    const auto prompted = sections_of("glmark2", with_prompt);
    ASSERT_EQ(prompted.size(), 2u);
    EXPECT_TRUE(prompted[0].starts_with("=====")) << prompted[0].substr(0, 60);
    EXPECT_EQ(sections_of("glmark2", fixture("glmark2-es2-two-scenes.stdout")).size(), 1u);
}

TEST(MesaGlmark2, SurvivesDamage) { survives_damage("glmark2", fixture("glmark2-es2-results-cpu-shader.stdout")); }

// ----------------------------------------------------------------- apitrace

TEST(MesaApitrace, BenchmarkReplays) {
    const ParseResult e = parse("apitrace", fixture("eglretrace-b.stdout"), fixture("eglretrace-b.stderr"));
    ASSERT_TRUE(e.error.empty()) << e.error;
    EXPECT_EQ(names(e), (Texts{"frames", "seconds", "fps"}));
    EXPECT_EQ(values(e, "fps"), Texts{"408.206"});
    EXPECT_EQ(values(e, "frames"), Texts{"79"});
    EXPECT_EQ(values(e, "seconds"), Texts{"0.19353"});
    expect_decl(e, "fps", "fps", Direction::higher_is_better, true);
    expect_decl(e, "seconds", "s", Direction::lower_is_better, false);
    expect_decl(e, "frames", "", Direction::unknown, false);
    const ParseResult g = parse("apitrace", fixture("glretrace-b.stdout"));
    EXPECT_EQ(values(g, "fps"), Texts{"335.309"});
    EXPECT_EQ(values(g, "frames"), Texts{"47"});
    EXPECT_EQ(values(g, "seconds"), Texts{"0.140169"});
    // printf: ostream's exponent form, and a trace that never swaps.
    const ParseResult big = parse("apitrace", "Rendered 5000000 frames in 2.5 secs, average of 2e+06 fps\n");
    EXPECT_EQ(values(big, "fps"), Texts{"2000000"});
    const ParseResult none = parse("apitrace", "Rendered 0 frames in 0.01 secs, average of 0 fps\n");
    EXPECT_EQ(names(none), (Texts{"frames", "seconds"}));
}

TEST(MesaApitrace, LlvmpipeGlesCannotProfileGpu) {
    const ParseResult r = parse("apitrace", fixture("eglretrace-pgpu-cannot-profile.stdout"));
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_NE(r.error.find("line 2: the driver cannot be profiled: \"GL_ARB_timer_query or GL_EXT_timer_query "
                           "extensions are not supported.\""),
              std::string::npos)
        << r.error;
}

TEST(MesaApitrace, LlvmpipeDesktopGpuTimerIsRefused) {
    const ParseResult r = parse("apitrace", fixture("glretrace-pgpu.stdout"));
    EXPECT_TRUE(r.metrics.empty());
    EXPECT_NE(r.error.find("line 21: call 2454 (\"glClear\"), the longest, took 23831897664242 ns on the GPU, longer "
                           "than the whole replay (0.140994 s)"),
              std::string::npos)
        << r.error;
    // The call's name is the trace's text: quoted, never raw bytes or a
    // whole long line in the error.
    std::string odd = fixture("glretrace-pgpu.stdout");
    const size_t at = odd.find(" glClear", odd.find("call 2454 "));
    ASSERT_NE(at, std::string::npos);
    odd.replace(at + 1, 7, "glClear\x1b[31m\r" + std::string(100000, 'x'));
    const ParseResult q = parse("apitrace", odd);
    EXPECT_NE(q.error.find("call 2454 (\"glClear"), std::string::npos) << q.error;
    EXPECT_LT(q.error.size(), 400u);
    EXPECT_EQ(q.error.find_first_of("\x1b\r\n"), std::string::npos);
}

// The real profile without llvmpipe's two first-query calls (1852, 2454),
// which is what a driver with a working timer gives: per-frame sums of
// the GPU column, checked against awk over the same lines.
std::string without_bogus_calls(const std::string& text) {
    std::string out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        if (!l.starts_with("call 1852 ") && !l.starts_with("call 2454 ")) out += l + "\n";
    return out;
}

TEST(MesaApitrace, PerFrameGpuTime) {
    const ParseResult r = parse("apitrace", without_bogus_calls(fixture("glretrace-pgpu.stdout")));
    ASSERT_TRUE(r.error.empty()) << r.error;
    const Texts gpu = values(r, "frame_gpu_time");
    ASSERT_EQ(gpu.size(), 47u);
    EXPECT_EQ(gpu[0], "0.001394");
    EXPECT_EQ(gpu[1], "0.001528");
    EXPECT_EQ(gpu[2], "0.001510");
    EXPECT_EQ(gpu[46], "0.001449");
    EXPECT_EQ(micro_sum(gpu), 70221);
    EXPECT_EQ(find(r, "frame_cpu_time"), nullptr);  // --pgpu alone: the CPU columns are 0
    expect_decl(r, "frame_gpu_time", "ms", Direction::lower_is_better, false);
    EXPECT_EQ(values(r, "fps"), Texts{"333.347"});
    // Frames are within-run data: declared per frame, with the per-run
    // summaries compare compares beside them.
    EXPECT_EQ(find(r, "frame_gpu_time")->per, "frame");
    for (const char* s : {"frame_gpu_time_mean", "frame_gpu_time_median", "frame_gpu_time_p99"}) {
        expect_decl(r, s, "ms", Direction::lower_is_better, false);
        EXPECT_EQ(find(r, s)->per, "") << s;
        EXPECT_EQ(values(r, s).size(), 1u) << s;
    }
    EXPECT_NEAR(std::stod(values(r, "frame_gpu_time_mean")[0]), 0.070221 / 47, 1e-15);
    const double median = std::stod(values(r, "frame_gpu_time_median")[0]);
    const double p99 = std::stod(values(r, "frame_gpu_time_p99")[0]);
    EXPECT_GE(median, 0.001394 - 1e-12);  // gpu[0] and gpu[46] bracket a typical frame here
    EXPECT_LE(median, 0.001528 + 1e-12);
    EXPECT_GE(p99, median);

    const ParseResult both = parse("apitrace", without_bogus_calls(fixture("glretrace-pgpu-pcpu.stdout")));
    const Texts g = values(both, "frame_gpu_time"), c = values(both, "frame_cpu_time");
    ASSERT_EQ(g.size(), 47u);
    ASSERT_EQ(c.size(), 47u);
    EXPECT_EQ((Texts{g[0], g[1], g[2], g[46]}), (Texts{"0.001396", "0.001969", "0.003682", "0.001403"}));
    EXPECT_EQ((Texts{c[0], c[1], c[2], c[46]}), (Texts{"23.561097", "0.615822", "0.586857", "0.548040"}));
}

TEST(MesaApitrace, PerFrameCpuTimeOnGles) {
    const ParseResult r = parse("apitrace", fixture("eglretrace-pcpu.stdout"));
    ASSERT_TRUE(r.error.empty()) << r.error;
    const Texts cpu = values(r, "frame_cpu_time");
    ASSERT_EQ(cpu.size(), 79u);
    EXPECT_EQ(cpu[0], "24.424374");
    EXPECT_EQ(cpu[1], "0.671177");
    EXPECT_EQ(cpu[2], "0.518006");
    EXPECT_EQ(cpu[78], "0.590277");
    EXPECT_EQ(micro_sum(cpu), 68499922);
    EXPECT_EQ(find(r, "frame_gpu_time"), nullptr);
    EXPECT_EQ(values(r, "frames"), Texts{"79"});
}

TEST(MesaApitrace, FrameTimes) {
    const ParseResult g = parse("apitrace", fixture("glretrace-pframe-times.stdout"));
    ASSERT_TRUE(g.error.empty()) << g.error;
    const Texts ft = values(g, "frame_time");
    ASSERT_EQ(ft.size(), 46u);  // 47 frames, 46 gaps between them
    EXPECT_EQ(ft[0], "1.155325");
    EXPECT_EQ(ft[1], "3.252273");
    EXPECT_EQ(ft[45], "0.961298");
    EXPECT_EQ(micro_sum(ft), 93444953);
    EXPECT_EQ(find(g, "frame_gpu_time"), nullptr);
    EXPECT_EQ(find(g, "frame_cpu_time"), nullptr);
    // The frame times are the run's frames; fps_mean over them is 1000 * n
    // / sum, and the Rendered line's fps stays the one primary metric.
    EXPECT_EQ(find(g, "frame_time")->per, "frame");
    EXPECT_NEAR(std::stod(values(g, "fps_mean")[0]), 1000.0 * 46 / 93.444953, 1e-9);
    expect_decl(g, "fps_mean", "frames/s", Direction::higher_is_better, false);
    expect_decl(g, "fps", "fps", Direction::higher_is_better, true);
    size_t frames_metrics = 0;
    for (const ParsedMetric& m : g.metrics) frames_metrics += m.name == "frames";
    EXPECT_EQ(frames_metrics, 1u);
    EXPECT_EQ(values(g, "frames"), Texts{"47"});
    const ParseResult e = parse("apitrace", fixture("eglretrace-pframe-times.stdout"));
    const Texts eft = values(e, "frame_time");
    ASSERT_EQ(eft.size(), 78u);
    EXPECT_EQ(micro_sum(eft), 146130598);
}

TEST(MesaApitrace, MalformedLinesAreErrorsNamingTheLine) {
    struct Case {
        std::string out, where;
    };
    const std::vector<Case> cases = {
        {"Rendered 79 frames in soon secs, average of 1 fps\n", "line 1: expected 'Rendered N frames in S secs, average of F fps', found \"soon secs, average of 1 fps\" at column 23"},
        {"Rendered 79 frames in 1 secs, average of inf fps\n", "line 1: expected 'Rendered"},
        {"x\nRendered 1 frames in 1 secs\n", "line 2: expected 'Rendered"},
        {"call 1 2 3\nRendered 1 frames in 1 secs, average of 1 fps\n", "line 1: expected 'call NO"},
        {"call 1 0 0 0 0 0 0 0 0 0 0\n", "line 1: expected 'call NO"},
        {"call 1 0 0 0 0 0 0 0 0 0 0 \n", "line 1: expected 'call NO"},
        {"call 1 0 0 0 0 0 0 0 0 0 x glClear\n", "line 1: expected 'call NO"},
        {"call 1 0 -5 0 0 0 0 0 0 0 0 glClear\n", "line 1: call 1 has a negative duration"},
        {"call 1 0 99999999999999999999 0 0 0 0 0 0 0 0 glClear\n", "line 1: expected 'call NO"},
        {"rendering_finished soon\n", "line 1: expected 'rendering_finished NS'"},
        {"rendering_finished 20\nrendering_finished 10\n", "line 2: the retracer's clock went backwards"},
        {"call 1 0 0 5 5 0 0 0 0 0 0 glClear\nframe_end\n", "the replay did not finish"},
        {"Rendered 1 frames in 1 secs, average of 1 fps\nRendered 1 frames in 1 secs, average of 1 fps\n",
         "line 2: a second 'Rendered' line"},
    };
    for (const Case& c : cases) {
        const ParseResult r = parse("apitrace", c.out);
        EXPECT_TRUE(r.metrics.empty()) << c.out;
        EXPECT_NE(r.error.find(c.where), std::string::npos) << c.out << " -> " << r.error;
    }
}

TEST(MesaApitrace, SavedReplaysSplitAfterEachRenderedLine) {
    const std::string a = fixture("eglretrace-b.stdout"), b = fixture("glretrace-pframe-times.stdout");
    const std::string both = a + b + "$ \n";
    const auto parts = sections_of("apitrace", both);
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(values(parse("apitrace", parts[0]), "fps"), Texts{"408.206"});
    EXPECT_EQ(values(parse("apitrace", parts[1]), "frame_time").size(), 46u);
    // A replay cut short after the last complete one is a section of its
    // own, which then fails to read.
    const std::string short_tail = a + "call 1 0 0 5 5 0 0 0 0 0 0 glClear\n";
    const auto cut = sections_of("apitrace", short_tail);
    ASSERT_EQ(cut.size(), 2u);
    EXPECT_FALSE(parse("apitrace", cut[1]).error.empty());
}

TEST(MesaApitrace, SurvivesDamage) { survives_damage("apitrace", fixture("glretrace-pgpu-pcpu.stdout").substr(0, 3000) + fixture("glretrace-b.stdout")); }

// ----------------------------------------------------------------- gfxrecon

TEST(MesaGfxrecon, ReplayOnLavapipe) {
    const ParseResult r = parse("gfxrecon", fixture("gfxrecon-replay.stdout"));
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(names(r), (Texts{"total_time", "fps", "seconds", "frames"}));
    EXPECT_EQ(values(r, "total_time"), Texts{"0.280444"});
    EXPECT_EQ(values(r, "fps"), Texts{"213.946361"});
    EXPECT_EQ(values(r, "seconds"), Texts{"0.280444"});
    EXPECT_EQ(values(r, "frames"), Texts{"60"});
    expect_decl(r, "fps", "fps", Direction::higher_is_better, true);
    expect_decl(r, "seconds", "s", Direction::lower_is_better, false);
    expect_decl(r, "total_time", "s", Direction::lower_is_better, false);

    const ParseResult t = parse("gfxrecon", fixture("gfxrecon-replay-trimmed.stdout"));
    EXPECT_EQ(names(t), (Texts{"load_time", "total_time", "fps", "seconds", "frames"}));
    EXPECT_EQ(values(t, "load_time"), Texts{"0.293753"});
    EXPECT_EQ(values(t, "total_time"), Texts{"0.303299"});
    EXPECT_EQ(values(t, "fps"), Texts{"628.568699"});
    EXPECT_EQ(values(t, "seconds"), Texts{"0.009545"});
    EXPECT_EQ(values(t, "frames"), Texts{"6"});

    const ParseResult m = parse("gfxrecon", fixture("gfxrecon-replay-measurement-range.stdout"));
    EXPECT_EQ(names(m), (Texts{"fps", "seconds", "frames"}));
    EXPECT_EQ(values(m, "fps"), Texts{"2159.335961"});
    EXPECT_EQ(values(m, "seconds"), Texts{"0.013893"});
    EXPECT_EQ(values(m, "frames"), Texts{"30"});
}

// printf: what later versions print (fps_info.cpp's LogMeasurements).
TEST(MesaGfxrecon, LaterVersionsMeasuredLine) {
    const ParseResult r = parse("gfxrecon",
                                "================== Start timer (Frame: 2) ==================\n"
                                "================== End timer (Frame: 61) ==================\n"
                                "Load time:  0.012000 seconds (frame 1)\n"
                                "Total time: 0.300000 seconds\n"
                                "Measured FPS: 200.000000 fps, 0.295000 seconds, 59 frames, 1 loop, framerange [2-61)\n");
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(values(r, "load_time"), Texts{"0.012000"});
    EXPECT_EQ(values(r, "total_time"), Texts{"0.300000"});
    EXPECT_EQ(values(r, "fps"), Texts{"200.000000"});
    EXPECT_EQ(values(r, "seconds"), Texts{"0.295000"});
    EXPECT_EQ(values(r, "frames"), Texts{"59"});
    EXPECT_EQ(values(parse("gfxrecon", "Replay FPS: 5.000000 fps, 0.200000 seconds, 1 frame, framerange 1-1\n"),
                     "frames"),
              Texts{"1"});
}

TEST(MesaGfxrecon, FailuresQuoteTheReplayer) {
    const ParseResult h = parse("gfxrecon", fixture("gfxrecon-replay-headless-fails.stdout"),
                                fixture("gfxrecon-replay-headless-fails.stderr"));
    EXPECT_NE(h.error.find("gfxrecon-replay said \"Replay has encountered a fatal error and cannot continue: the "
                           "specified extension does not exist\""),
              std::string::npos)
        << h.error;
    const ParseResult m = parse("gfxrecon", fixture("gfxrecon-replay-missing-file.stdout"),
                                fixture("gfxrecon-replay-missing-file.stderr"));
    EXPECT_NE(m.error.find("\"[gfxrecon] ERROR - Failed to open file nonexist.gfxr\""), std::string::npos)
        << m.error;
    struct Case {
        std::string out, where;
    };
    const std::vector<Case> cases = {
        {"Replay FPS: fast fps, 0.2 seconds, 60 frames, framerange 1-60\n", "line 1: expected 'Replay FPS: F fps, S seconds, N frames, framerange A-B', found \"fast fps"},
        {"Replay FPS: 1.0 fps, 0.2 seconds, 60 frames\n", "line 1: expected 'Replay FPS"},
        {"x\nMeasurement range FPS: 1.0 fps, 0.2 seconds, 6 frames, 1 loop, framerange [1-7]\n", "line 2: expected 'Measured FPS"},
        {"Total time: a while\n", "line 1: expected 'Total time: S seconds'"},
        {"Load time:  0.2 seconds (frame x)\n", "line 1: expected 'Load time:  S seconds (frame N)'"},
        {"Replay FPS: 1.0 fps, 0.2 seconds, 6 frames, framerange 1-6\nReplay FPS: 1.0 fps, 0.2 seconds, 6 frames, framerange 1-6\n", "line 2: a second FPS line"},
    };
    for (const Case& c : cases) {
        const ParseResult r = parse("gfxrecon", c.out);
        EXPECT_TRUE(r.metrics.empty()) << c.out;
        EXPECT_NE(r.error.find(c.where), std::string::npos) << c.out << " -> " << r.error;
    }
}

TEST(MesaGfxrecon, SavedReplaysSplitAfterEachFpsLine) {
    const std::string a = fixture("gfxrecon-replay.stdout"), b = fixture("gfxrecon-replay-trimmed.stdout");
    const std::string both = a + b;
    const auto parts = sections_of("gfxrecon", both);
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(values(parse("gfxrecon", parts[0]), "fps"), Texts{"213.946361"});
    EXPECT_EQ(values(parse("gfxrecon", parts[1]), "load_time"), Texts{"0.293753"});
    EXPECT_NE(parse("gfxrecon", a + b).error.find("line 7: a second FPS line"), std::string::npos);
}

TEST(MesaGfxrecon, SurvivesDamage) { survives_damage("gfxrecon", fixture("gfxrecon-replay-trimmed.stdout")); }

// ----------------------------------------------------------------- glxgears

TEST(MesaGlxgears, RatesAndRenderer) {
    const ParseResult r = parse("glxgears", fixture("glxgears-info.stdout"));
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(names(r), Texts{"fps"});
    EXPECT_EQ(values(r, "fps"), (Texts{"1103.785", "1734.386"}));
    expect_decl(r, "fps", "fps", Direction::higher_is_better, true);
    EXPECT_EQ(r.environment, (std::map<std::string, std::string>{
                                 {"gl_renderer", "llvmpipe (LLVM 15.0.6, 256 bits)"},
                                 {"gl_vendor", "Mesa/X.org"},
                                 {"gl_version", "4.5 (Compatibility Profile) Mesa 22.3.6"}}));
    // printf: "%6.3f" pads slow rates; old builds add the frame usage.
    EXPECT_EQ(values(parse("glxgears", "47 frames in 5.0 seconds =  9.400 FPS\n"), "fps"), Texts{"9.400"});
    EXPECT_EQ(values(parse("glxgears", "300 frames in 5.0 seconds = 60.000 FPS (12.5% usage)\n"), "fps"),
              Texts{"60.000"});
    const ParseResult bad = parse("glxgears", "GL_RENDERER = x\n300 frames in 5.0 seconds = sixty FPS\n");
    EXPECT_NE(bad.error.find("line 2: expected 'N frames in S seconds = F FPS', found \"sixty FPS\" at column 29"),
              std::string::npos)
        << bad.error;
    EXPECT_NE(parse("glxgears", "VisualID 975, 0x3cf\n").error.find("no line of the form"), std::string::npos);
}

TEST(MesaGlxgears, SurvivesDamage) { survives_damage("glxgears", fixture("glxgears-info.stdout").substr(0, 400) + "5519 frames in 5.0 seconds = 1103.785 FPS\n"); }

// ---------------------------------------------------------------- registry

TEST(MesaFormats, RegisteredForRunAndImport) {
    const auto p = parser_names(), i = import_names();
    for (const std::string n : {"glmark2", "apitrace", "gfxrecon", "glxgears"}) {
        EXPECT_NE(std::find(p.begin(), p.end(), n), p.end()) << n;
        EXPECT_NE(std::find(i.begin(), i.end(), n), i.end()) << n;
    }
    ParserOptions named;
    named.metric_name = "x";
    EXPECT_THROW(make_parser("glmark2", named), std::invalid_argument);
}

}  // namespace
}  // namespace gfxstat::formats
