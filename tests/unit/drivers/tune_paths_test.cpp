// SPDX-License-Identifier: MIT
// The small rules of gfxstat tune's safety: which paths a state may name,
// and how a process's start time is read (so a reused pid is not taken
// for the run --tune that tuned).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "drivers/tunables.h"
#include "drivers/tune_owner.h"

using namespace gfxstat::drivers;
namespace fs = std::filesystem;

namespace {

void put(const fs::path& p, const std::string& text) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f << text;
}

}  // namespace

TEST(TunablePaths, OnlyTheFilesTuneWritesSpelledPlainly) {
    for (const char* ok : {"/sys/devices/system/cpu/cpu12/cpufreq/scaling_governor",
                           "/sys/devices/system/cpu/intel_pstate/no_turbo", "/sys/devices/system/cpu/cpufreq/boost",
                           "/sys/devices/system/cpu/cpufreq/policy3/boost", "/sys/class/drm/card0/gt_min_freq_mhz",
                           "/sys/class/drm/card0/gt_max_freq_mhz", "/sys/class/drm/card0/gt_boost_freq_mhz",
                           "/sys/class/drm/card2/device/tile0/gt1/freq0/min_freq",
                           "/sys/class/drm/card2/device/tile0/gt1/freq0/max_freq",
                           "/sys/class/drm/card1/device/power_dpm_force_performance_level"})
        EXPECT_TRUE(is_tunable_path(ok)) << ok;
    for (const char* bad : {"/sys/..", "/sys/../etc/shadow", "/sys/power/state", "/sys/class/drm/card0/device/driver/unbind",
                            "/sys/devices/system/cpu/cpu0/cpufreq/../../../../power/state",
                            "/sys/devices/system/cpu/./cpu0/cpufreq/scaling_governor",
                            "/sys/devices/system/cpu//cpu0/cpufreq/scaling_governor",
                            "/sys/devices/system/cpu/cpux/cpufreq/scaling_governor",
                            "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor/", "sys/class/drm/card0/gt_min_freq_mhz",
                            "/sys/class/drm/card0/gt_RP0_freq_mhz", "/sys/class/drm/card0/gt_min_freq_mhzx", ""})
        EXPECT_FALSE(is_tunable_path(bad)) << bad;
}

TEST(ProcessStartTime, IsField22CountedFromTheLastParenthesis) {
    char tmpl[] = "/tmp/gfxstat-proc-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const fs::path proc = tmpl;
    fs::create_directories(proc / "77");
    // A comm with spaces and parentheses, as prctl(PR_SET_NAME) allows.
    put(proc / "77/stat", "77 (a) b (c) S 1 77 77 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 200 "
                          "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0\n");
    EXPECT_EQ(process_start_time(77, proc.string()), 987654u);
    EXPECT_FALSE(process_start_time(78, proc.string()));
    put(proc / "77/stat", "77 (short) S 1 2\n");
    EXPECT_FALSE(process_start_time(77, proc.string()));
    fs::remove_all(proc);
}
