// SPDX-License-Identifier: MIT
// gfxstat tune show's text (report/tune_show.h): the table when it fits
// the width, else an entry per finding (what and state, the advice below)
// with every word kept; what was looked for and not found; JSON as before.
#include "report/tune_show.h"

#include <gtest/gtest.h>

#include <sstream>

namespace gfxstat::report {
namespace {

using drivers::MachineFinding;
using drivers::MissingSource;

std::vector<MachineFinding> findings() {
    return {
        {"governor", "CPU governor", "performance on cpu2; powersave on cpu0-1,3",
         "set it to performance: gfxstat tune apply, or cpupower frequency-set -g performance", true},
        {"turbo", "CPU turbo/boost", "on (intel_pstate no_turbo = 0, cpufreq boost = 1, cpufreq policy0 boost = 1)",
         "turn it off: gfxstat tune apply, or echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo", true},
        {"load", "load average", "0.12 over the last minute, 4 CPUs", "", false},
    };
}

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> lines;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

std::vector<std::string> words_of(const std::string& s) {
    std::vector<std::string> w;
    std::istringstream in(s);
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

TEST(TuneShowText, NarrowWidthGivesEntriesThatKeepEveryWord) {
    for (size_t width : {50u, 60u, 72u}) {
        const std::string out = tune_show_text(findings(), {}, width);
        for (const auto& l : lines_of(out)) {
            EXPECT_LE(l.size(), width) << l;
            EXPECT_EQ(l.find_last_not_of(' ') + 1, l.size()) << "trailing space: " << l;
        }
        // Every word of every cell, in order, and nothing between them.
        std::string expected = "what state advice";
        for (const auto& f : findings()) expected += " " + f.what + " " + f.state + (f.advice.empty() ? "" : " " + f.advice);
        expected += " 2 things may add noise to measurements";
        EXPECT_EQ(words_of(out), words_of(expected)) << out;
    }
    EXPECT_EQ(tune_show_text(findings(), {}, 72),
              "what             state\n"
              "                   advice\n"
              "CPU governor     performance on cpu2; powersave on cpu0-1,3\n"
              "                   set it to performance: gfxstat tune apply, or\n"
              "                   cpupower frequency-set -g performance\n"
              "CPU turbo/boost  on (intel_pstate no_turbo = 0, cpufreq boost = 1,\n"
              "                 cpufreq policy0 boost = 1)\n"
              "                   turn it off: gfxstat tune apply, or echo 1 >\n"
              "                   /sys/devices/system/cpu/intel_pstate/no_turbo\n"
              "load average     0.12 over the last minute, 4 CPUs\n"
              "2 things may add noise to measurements\n");
}

TEST(TuneShowText, NarrowestWidthPutsStateAndAdviceUnderTheName) {
    const std::string out = tune_show_text(findings(), {}, 40);
    EXPECT_EQ(out.substr(0, out.find("CPU turbo")),
              "what\n"
              "  state\n"
              "    advice\n"
              "CPU governor\n"
              "  performance on cpu2; powersave on\n"
              "  cpu0-1,3\n"
              "    set it to performance: gfxstat tune\n"
              "    apply, or cpupower frequency-set -g\n"
              "    performance\n");
    // A path longer than the line is the one word shown over two.
    for (const auto& l : lines_of(out)) EXPECT_LE(l.size(), 40u) << l;
}

TEST(TuneShowText, WideWidthGivesTheTable) {
    const std::string out = tune_show_text(findings(), {}, 200);
    const auto lines = lines_of(out);
    ASSERT_EQ(lines.size(), 5u) << out;
    // The state column as wide as the widest state, turbo's (76 columns).
    EXPECT_EQ(lines[0], "what             state" + std::string(76 - 5, ' ') + "  advice");
    EXPECT_EQ(lines[3], "load average     0.12 over the last minute, 4 CPUs" + std::string(76 - 33, ' ') + "  -");
    EXPECT_GT(lines[2].size(), 120u);
    // The same findings at a width one column short of the table: entries.
    EXPECT_NE(tune_show_text(findings(), {}, lines[2].size() - 1), out);
    EXPECT_EQ(tune_show_text(findings(), {}, lines[2].size()), out);
}

TEST(TuneShowText, SaysWhatItDidNotFind) {
    const std::vector<MissingSource> missing = {
        {"governor", "cpufreq control", "no /sys/devices/system/cpu/cpu0/cpufreq"},
        {"gpu_frequency", "GPU frequency controls", "no i915, xe or amdgpu card under /sys/class/drm"},
        {"battery", "battery", "none"}};
    const std::string out = tune_show_text({findings()[2]}, missing, 72);
    EXPECT_EQ(out,
              "what          state                              advice\n"
              "load average  0.12 over the last minute, 4 CPUs  -\n"
              "not found here: cpufreq control (no\n"
              "  /sys/devices/system/cpu/cpu0/cpufreq), GPU frequency controls (no\n"
              "  i915, xe or amdgpu card under /sys/class/drm), battery (none)\n"
              "nothing found that would add noise\n");
}

TEST(TuneShowJson, HasNoWordOfTheLayout) {
    const std::string j = tune_show_json(findings());
    EXPECT_NE(j.find("\"advice\": \"set it to performance: gfxstat tune apply, or cpupower frequency-set -g "
                     "performance\""),
              std::string::npos)
        << j;
    EXPECT_EQ(j.find("not found"), std::string::npos);
}

}  // namespace
}  // namespace gfxstat::report
