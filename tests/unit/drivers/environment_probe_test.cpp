// SPDX-License-Identifier: MIT
// The environment probe against fake /proc and /sys trees
// (tests/data/probe_root/: "machine" has every source, "garbage" has every
// source unreadable as what it should be), small trees written here, and
// the real machine.
#include "drivers/environment_probe.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

namespace gfxstat::drivers {
namespace {

namespace fs = std::filesystem;
using Fields = std::map<std::string, std::string>;

std::string probe_root(const std::string& name) {
    return std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/probe_root/" + name;
}

Fields probe_tree(const std::string& root) {
    ProbeOptions o;
    o.root = root;
    o.drm = false;  // libdrm sees only this machine's /dev/dri
    return probe_environment(o).fields;
}

// A scratch tree, removed at the end of the test.
class TempTree {
public:
    TempTree() {
        std::string tmpl = (fs::temp_directory_path() / "gfxstat-probe-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp");
        root_ = tmpl;
    }
    ~TempTree() {
        std::error_code ec;
        fs::remove_all(root_, ec);
    }
    void write(const std::string& rel, const std::string& text) const {
        const fs::path p = fs::path(root_) / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text;
    }
    const std::string& root() const { return root_; }

private:
    std::string root_;
};

// Sets or unsets an environment variable for the scope, then restores it.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = getenv(name)) old_ = old;
        if (value) setenv(name, value, 1);
        else unsetenv(name);
    }
    ~ScopedEnv() {
        if (old_) setenv(name_, old_->c_str(), 1);
        else unsetenv(name_);
    }

private:
    const char* name_;
    std::optional<std::string> old_;
};

TEST(EnvironmentProbe, FakeMachineGivesExactFields) {
    const Fields expected = {
        {"hostname", "bdw-nuc"},
        {"kernel_release", "6.9.0-rc3+"},
        {"kernel_cmdline",
         "BOOT_IMAGE=/boot/vmlinuz-6.9.0-rc3+ root=/dev/nvme0n1p2 ro quiet i915.enable_guc=3"},
        {"load_average", "0.12 0.30 0.25"},
        {"cpu_model", "Intel(R) Core(TM) i7-5557U CPU @ 3.10GHz"},
        {"cpu_count", "4"},
        {"cpu_governor", "performance,powersave"},
        {"cpu_turbo", "off"},  // intel_pstate/no_turbo=1 wins over cpufreq/boost=1
        // card0: i915 (card0-eDP-1 is a connector, not a card)
        {"gpu_driver", "i915"},
        {"gpu_pci_id", "8086:162b"},
        {"gpu_min_freq_mhz", "300"},
        {"gpu_max_freq_mhz", "1100"},
        {"gpu_boost_freq_mhz", "1050"},
        {"gpu_cur_freq_mhz", "350"},
        {"gpu_act_freq_mhz", "349"},
        {"gpu_throttle", "pl1,thermal"},
        // card1: amdgpu
        {"gpu1_driver", "amdgpu"},
        {"gpu1_pci_id", "1002:73bf"},
        {"gpu1_sclk_mhz", "1800"},
        {"gpu1_performance_level", "auto"},
        // card2: xe
        {"gpu2_driver", "xe"},
        {"gpu2_pci_id", "8086:e20b"},
        {"gpu2_min_freq_mhz", "400"},
        {"gpu2_max_freq_mhz", "2850"},
        {"gpu2_cur_freq_mhz", "2850"},
        {"gpu2_act_freq_mhz", "0"},
        {"gpu2_throttle", "none"},
        // hwmon0 and hwmon2 are both coretemp: the hottest of them, 47.650 °C;
        // hwmon3 (nvme) reads "N/A"; hwmon4 has no name.
        {"temp_coretemp", "47.7"},
        {"temp_amdgpu", "61.2"},
    };
    EXPECT_EQ(probe_tree(probe_root("machine")), expected);
}

TEST(EnvironmentProbe, ProbeLeavesIdAndTagsEmpty) {
    ProbeOptions o;
    o.root = probe_root("machine");
    o.drm = false;
    const auto env = probe_environment(o);
    EXPECT_TRUE(env.id.empty());
    EXPECT_TRUE(env.tags.empty());
}

TEST(EnvironmentProbe, GarbageContentGivesNoFields) {
    // Every source is there but none reads as what it should be.
    EXPECT_EQ(probe_tree(probe_root("garbage")), Fields{});
}

TEST(EnvironmentProbe, MissingRootGivesNoFields) {
    EXPECT_EQ(probe_tree(probe_root("does-not-exist")), Fields{});
}

// The machine key. Reference digests computed independently in Python:
// FNV-1a 64 over len(s) + ":" + s for "gfxstat machine", the source
// ("machine-id" or "dmi") and the value (for DMI "product\nserial").
TEST(EnvironmentProbe, MachineFromMachineId) {
    TempTree t;
    t.write("etc/machine-id", "4c4c4544004d3010804bb4c04f384d32\n");
    // The DMI serial is not consulted when machine-id is there.
    t.write("sys/class/dmi/id/product_name", "ThinkPad X1 Carbon Gen 9\n");
    t.write("sys/class/dmi/id/product_serial", "PF2ABCDE\n");
    EXPECT_EQ(probe_tree(t.root()), (Fields{{"machine", "m-53c21c86f9d706ba"}}));
}

TEST(EnvironmentProbe, MachineFromDmiWhenNoMachineId) {
    for (const char* bad : {"uninitialized\n", "00000000000000000000000000000000\n",
                            "4C4C4544004D3010804BB4C04F384D32\n", "4c4c4544004d3010804bb4c04f384d3\n"}) {
        TempTree t;
        t.write("etc/machine-id", bad);
        t.write("sys/class/dmi/id/product_name", "ThinkPad X1 Carbon Gen 9\n");
        t.write("sys/class/dmi/id/product_serial", "PF2ABCDE\n");
        EXPECT_EQ(probe_tree(t.root()), (Fields{{"machine", "m-19edeff2398c2a9b"}})) << bad;
    }
}

TEST(EnvironmentProbe, NoMachineFromAModelOrAPlaceholderSerial) {
    for (const char* serial : {"", "To be filled by O.E.M.\n", "Default string\n"}) {
        TempTree t;
        t.write("sys/class/dmi/id/product_name", "NUC7i5BNH\n");
        if (*serial) t.write("sys/class/dmi/id/product_serial", serial);
        EXPECT_EQ(probe_tree(t.root()), Fields{}) << serial;
    }
}

TEST(EnvironmentProbe, MissingFilesLeaveOnlyTheirFieldsOut) {
    TempTree t;
    t.write("proc/sys/kernel/osrelease", "6.1.0-13-amd64\n");
    t.write("sys/devices/system/cpu/cpufreq/boost", "0\n");
    t.write("sys/class/drm/card3/device/vendor", "0x1002\n");  // no device/device
    t.write("sys/class/drm/card3/gt_max_freq_mhz", "1300\n");  // the others absent
    const Fields expected = {
        {"kernel_release", "6.1.0-13-amd64"},
        {"cpu_turbo", "off"},  // no intel_pstate: cpufreq/boost=0
        {"gpu_max_freq_mhz", "1300"},
    };
    EXPECT_EQ(probe_tree(t.root()), expected);
}

TEST(EnvironmentProbe, BoostOnAndThrottleStatusAlone) {
    TempTree t;
    t.write("sys/devices/system/cpu/intel_pstate/no_turbo", "maybe\n");  // unreadable: boost decides
    t.write("sys/devices/system/cpu/cpufreq/boost", "1\n");
    t.write("sys/class/drm/card0/gt/gt0/throttle_reason_status", "1\n");
    t.write("sys/class/drm/card0/gt/gt0/throttle_reason_pl1", "0\n");
    t.write("sys/class/hwmon/hwmon0/name", "acpitz\n");
    t.write("sys/class/hwmon/hwmon0/temp1_input", "-1250\n");
    t.write("sys/class/hwmon/hwmon1/name", "Foo-Bar\n");
    t.write("sys/class/hwmon/hwmon1/temp7_input", "30049\n");
    const Fields expected = {
        {"cpu_turbo", "on"},
        {"gpu_throttle", "status"},
        {"temp_acpitz", "-1.3"},  // rounded half away from zero
        {"temp_foo_bar", "30.0"},
    };
    EXPECT_EQ(probe_tree(t.root()), expected);
}

TEST(EnvironmentProbe, SingleGovernorAndCpuList) {
    TempTree t;
    t.write("sys/devices/system/cpu/online", "0-2,4,6-7\n");
    t.write("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "schedutil\n");
    t.write("sys/devices/system/cpu/cpu10/cpufreq/scaling_governor", "schedutil\n");
    t.write("proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD Ryzen 7 7840U");  // no final newline
    const Fields expected = {
        {"cpu_count", "6"},
        {"cpu_governor", "schedutil"},
        {"cpu_model", "AMD Ryzen 7 7840U"},
    };
    EXPECT_EQ(probe_tree(t.root()), expected);
}

TEST(EnvironmentProbe, RealMachineProbe) {
    const auto start = std::chrono::steady_clock::now();
    data::Environment env;
    ASSERT_NO_THROW(env = probe_environment());
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    struct utsname u {};
    ASSERT_EQ(uname(&u), 0);
    ASSERT_TRUE(env.fields.count("kernel_release"));
    EXPECT_EQ(env.fields.at("kernel_release"), u.release);
    EXPECT_EQ(env.fields.at("hostname"), u.nodename);
    // Printed for the record of what this machine offers.
    std::printf("probe took %.2f ms\n", ms);
    for (const auto& [k, v] : env.fields) std::printf("  %s = %s\n", k.c_str(), v.c_str());
    // "/" is the real root too.
    ProbeOptions slash;
    slash.root = "/";
    EXPECT_EQ(probe_environment(slash).fields.at("kernel_release"), u.release);
}

// A loop's probe: what stays is read once per boot and set of devices, the
// rest at every run, and each record is what a fresh probe would give,
// but for what only a reboot or another device could change.
TEST(EnvironmentProbe, ALoopReadsWhatStaysOncePerBootAndSetOfDevices) {
    TempTree t;
    fs::copy(probe_root("machine"), t.root(), fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    ProbeOptions o;
    o.root = t.root();
    o.drm = false;
    EnvironmentProbe loop(o);
    EXPECT_EQ(loop.probe("boot-a").fields, probe_tree(t.root()));
    EXPECT_EQ(loop.static_probes(), 1u);

    // Between runs: the load, a governor, a clock and a temperature move
    // (read again), and so, in this fake tree only, do the command line
    // and the CPU model, which a real kernel keeps until the next boot.
    const std::map<std::string, std::string> moved = {
        {"proc/loadavg", "1.50 0.75 0.25 2/300 4242\n"},
        {"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "schedutil\n"},
        {"sys/class/drm/card0/gt_act_freq_mhz", "1000\n"},
        {"sys/class/hwmon/hwmon0/temp1_input", "80000\n"},
        {"proc/cmdline", "quiet\n"},
        {"proc/cpuinfo", "model name\t: Another CPU\n"},
    };
    for (const auto& [file, text] : moved) t.write(file, text);
    Fields fresh = probe_tree(t.root());
    Fields next = loop.probe("boot-a").fields;
    EXPECT_EQ(next.at("load_average"), "1.50 0.75 0.25");
    EXPECT_EQ(next.at("gpu_act_freq_mhz"), "1000");
    EXPECT_EQ(next.at("temp_coretemp"), "80.0");
    EXPECT_EQ(next.at("cpu_model"), "Intel(R) Core(TM) i7-5557U CPU @ 3.10GHz");
    EXPECT_EQ(loop.static_probes(), 1u);
    fresh.erase("kernel_cmdline");
    fresh.erase("cpu_model");
    next.erase("kernel_cmdline");
    next.erase("cpu_model");
    EXPECT_EQ(next, fresh);

    // Another boot reads everything again.
    EXPECT_EQ(loop.probe("boot-b").fields, probe_tree(t.root()));
    EXPECT_EQ(loop.static_probes(), 2u);
    EXPECT_EQ(loop.probe("boot-b").fields, probe_tree(t.root()));
    EXPECT_EQ(loop.static_probes(), 2u);

    // So does a device that comes (a driver loaded), and one that goes.
    t.write("sys/class/drm/card3/device/vendor", "0x8086\n");
    t.write("sys/class/drm/card3/device/device", "0x56a0\n");
    EXPECT_EQ(loop.probe("boot-b").fields.at("gpu3_pci_id"), "8086:56a0");
    EXPECT_EQ(loop.static_probes(), 3u);
    fs::remove_all(fs::path(t.root()) / "sys/class/hwmon/hwmon0");
    EXPECT_EQ(loop.probe("boot-b").fields, probe_tree(t.root()));
    EXPECT_EQ(loop.static_probes(), 4u);
}

TEST(EnvironmentProbeBootId, EnvironmentVariableNamesTheFile) {
    {
        ScopedEnv e("GFXSTAT_BOOT_ID_FILE",
                    (probe_root("machine") + "/proc/sys/kernel/random/boot_id").c_str());
        EXPECT_EQ(current_boot_id(), "5d1c0b2e-7f43-4a51-9d0e-3c8a6b1f2e90");
    }
    {
        TempTree t;
        t.write("boot", "  second-boot \n\n");
        ScopedEnv e("GFXSTAT_BOOT_ID_FILE", (t.root() + "/boot").c_str());
        EXPECT_EQ(current_boot_id(), "second-boot");
    }
    {
        ScopedEnv e("GFXSTAT_BOOT_ID_FILE", probe_root("does-not-exist").c_str());
        EXPECT_EQ(current_boot_id(), "");
    }
}

TEST(EnvironmentProbeBootId, RealBootId) {
    ScopedEnv e("GFXSTAT_BOOT_ID_FILE", nullptr);
    std::ifstream in("/proc/sys/kernel/random/boot_id");
    std::string expected;
    in >> expected;  // "" when unreadable
    const std::string id = current_boot_id();
    EXPECT_EQ(id, expected);
    if (!expected.empty()) {
        EXPECT_EQ(id.size(), 36u);
    }
    EXPECT_EQ(current_boot_id(), id);  // stable within a boot
}

}  // namespace
}  // namespace gfxstat::drivers
