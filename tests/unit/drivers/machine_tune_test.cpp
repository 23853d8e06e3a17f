// SPDX-License-Identifier: MIT
// gfxstat tune and the pre-measure check against a fake machine
// (tests/data/probe_root/tunable, copied to a temporary directory before
// anything writes): every finding and its absence once tuned, apply then
// reset leaving every file byte-identical, the min <= max order the kernel
// demands, a refused write putting back what was changed, and a state saved
// in an earlier boot.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "data/input_error.h"
#include "drivers/machine_check.h"
#include "drivers/machine_tune.h"
#include "drivers/system_root.h"
#include "drivers/tune_owner.h"
#include "drivers/tune_state.h"
#include "drivers/tunables.h"

namespace fs = std::filesystem;
using namespace gfxstat::drivers;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void put(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
}

// Every entry under `root`: a file's bytes, a link's target, "<dir>".
std::map<std::string, std::string> snapshot(const fs::path& root) {
    std::map<std::string, std::string> out;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
        const std::string rel = fs::relative(it->path(), root).string();
        if (it->is_symlink()) out[rel] = "-> " + fs::read_symlink(it->path()).string();
        else if (it->is_directory()) out[rel] = "<dir>";
        else out[rel] = slurp(it->path());
    }
    return out;
}

const MachineFinding* find(const std::vector<MachineFinding>& v, const std::string& id) {
    for (const auto& f : v)
        if (f.id == id) return &f;
    return nullptr;
}

DrmClient client(int pid, const std::string& comm, int fd, const std::string& node, const std::string& card) {
    DrmClient c;
    c.pid = pid;
    c.comm = comm;
    c.fd = fd;
    c.node = node;
    c.card = card;
    return c;
}

class TuneTest : public ::testing::Test {
protected:
    void SetUp() override {
        ::unsetenv("GFXSTAT_BOOT_ID_FILE");
        char tmpl[] = "/tmp/gfxstat-tune-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
        root = dir / "root";
        fs::copy(fs::path(GFXSTAT_SOURCE_DIR) / "tests/data/probe_root/tunable", root,
                 fs::copy_options::recursive | fs::copy_options::copy_symlinks);
        set_system_root(root.string());
    }
    void TearDown() override {
        set_system_root("");
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string file(const std::string& rel) { return slurp(root / rel); }
    // The tree without gfxstat's own state directory.
    std::map<std::string, std::string> machine() {
        auto s = snapshot(root);
        for (auto it = s.begin(); it != s.end();)
            it = it->first.rfind("var", 0) == 0 ? s.erase(it) : std::next(it);
        return s;
    }

    fs::path dir, root;
};

// A kernel in front of the fake tree: refuses (EINVAL) a min above the
// current max and a max below the current min, as i915 and xe do, and any
// write to `refused`; records every write.
struct FakeKernel {
    TuneIo base = system_tune_io();
    std::string refused;
    std::vector<std::string> writes;
    TuneIo io() {
        TuneIo io;
        io.read = base.read;
        io.write = [this](const std::string& path, const std::string& bytes) {
            writes.push_back(path + "=" + bytes.substr(0, bytes.find('\n')));
            if (path == refused) return EINVAL;
            const auto num = [&](const std::string& p) { return std::stoul(base.read(p).value_or("0")); };
            if (is_min_frequency_file(path) && std::stoul(bytes) > num(max_sibling_of(path))) return EINVAL;
            for (const char* m : {"/gt_max_freq_mhz", "/freq0/max_freq"}) {
                const std::string suffix = m;
                if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
                    const std::string min = path.substr(0, path.size() - suffix.size()) +
                                            (suffix == "/gt_max_freq_mhz" ? "/gt_min_freq_mhz" : "/freq0/min_freq");
                    if (std::stoul(bytes) < num(min)) return EINVAL;
                }
            }
            return base.write(path, bytes);
        };
        return io;
    }
    size_t index_of(const std::string& w) const {
        for (size_t i = 0; i < writes.size(); ++i)
            if (writes[i] == w) return i;
        return writes.size();
    }
};

}  // namespace

TEST_F(TuneTest, EveryFindingOfTheUntunedMachine) {
    const std::vector<DrmClient> clients = {
        client(812, "Xorg", 14, "/dev/dri/card0", "card0"), client(1440, "firefox", 40, "/dev/dri/renderD128", "card0"),
        client(1440, "firefox", 41, "/dev/dri/renderD128", "card0"), client(4242, "gfxstat", 3, "/dev/dri/card0", "card0")};
    const auto f = check_machine(clients, 4242);
    ASSERT_TRUE(find(f, "governor"));
    EXPECT_TRUE(find(f, "governor")->problem);
    EXPECT_EQ(find(f, "governor")->state, "performance on cpu2; powersave on cpu0-1,3");
    EXPECT_NE(find(f, "governor")->advice.find("cpupower frequency-set -g performance"), std::string::npos);
    ASSERT_TRUE(find(f, "turbo"));
    EXPECT_TRUE(find(f, "turbo")->problem);
    EXPECT_NE(find(f, "turbo")->state.find("intel_pstate no_turbo = 0"), std::string::npos);
    ASSERT_TRUE(find(f, "gpu_frequency"));
    EXPECT_TRUE(find(f, "gpu_frequency")->problem);
    EXPECT_EQ(find(f, "gpu_frequency")->state,
              "not pinned: card0 (i915) 300-1150 MHz, card2 tile0/gt0 (xe) 400-2400 MHz, card1 (amdgpu) auto");
    ASSERT_TRUE(find(f, "battery"));
    EXPECT_TRUE(find(f, "battery")->problem);
    EXPECT_EQ(find(f, "battery")->state, "on battery: BAT0 discharging (64%), AC offline");
    ASSERT_TRUE(find(f, "load"));
    EXPECT_TRUE(find(f, "load")->problem);  // 6.50 on 4 CPUs: above 5
    EXPECT_NE(find(f, "load")->state.find("6.50"), std::string::npos);
    EXPECT_NE(find(f, "load")->state.find("above 5.00"), std::string::npos);
    ASSERT_TRUE(find(f, "drm_clients"));
    EXPECT_TRUE(find(f, "drm_clients")->problem);
    EXPECT_EQ(find(f, "drm_clients")->state, "Xorg (pid 812) and firefox (pid 1440) also use card0");
    ASSERT_TRUE(find(f, "swap"));
    EXPECT_TRUE(find(f, "swap")->problem);
    EXPECT_EQ(find(f, "swap")->state, "on: /dev/nvme0n1p3: 128.0 MiB of 8192.0 MiB used");
    EXPECT_FALSE(find(f, "tuned_now"));
    EXPECT_FALSE(find(f, "tuned_earlier"));
    for (const auto& x : f)
        if (x.problem) {
            EXPECT_FALSE(x.advice.empty()) << x.id;
        }
}

TEST_F(TuneTest, TheTreesDrmClientsFromFdinfoAndFromFdLinks) {
    // kwin_wayland's fdinfo has no drm-* keys (a kernel before 5.19): its fd
    // link to /dev/dri/card1 still counts.
    EXPECT_EQ(other_drm_clients_text(list_drm_clients(root.string()), 1),
              "Xorg (pid 812) and firefox (pid 1440) also use card0; kwin_wayland (pid 1600) also uses card1");
    EXPECT_EQ(other_drm_clients_text({client(5, "gfxstat", 3, "/dev/dri/card0", "card0")}, 5), "");
}

TEST_F(TuneTest, ApplySetsEverythingAndResetLeavesEveryFileByteIdentical) {
    const auto before = machine();
    const TuneReport r = apply_tune(TuneRequest{});
    EXPECT_TRUE(r.saved_now);
    EXPECT_FALSE(r.changes.empty());
    for (int c = 0; c < 4; ++c)
        EXPECT_EQ(file("sys/devices/system/cpu/cpu" + std::to_string(c) + "/cpufreq/scaling_governor"), "performance\n");
    EXPECT_EQ(file("sys/devices/system/cpu/intel_pstate/no_turbo"), "1\n");
    EXPECT_EQ(file("sys/devices/system/cpu/cpufreq/boost"), "0\n");
    EXPECT_EQ(file("sys/devices/system/cpu/cpufreq/policy0/boost"), "0\n");
    for (const char* f : {"gt_min_freq_mhz", "gt_max_freq_mhz", "gt_boost_freq_mhz"})
        EXPECT_EQ(file(std::string("sys/class/drm/card0/") + f), "700\n") << f;  // RP1
    EXPECT_EQ(file("sys/class/drm/card2/device/tile0/gt0/freq0/min_freq"), "1600\n");  // rpe
    EXPECT_EQ(file("sys/class/drm/card2/device/tile0/gt0/freq0/max_freq"), "1600\n");
    EXPECT_EQ(file("sys/class/drm/card1/device/power_dpm_force_performance_level"), "profile_standard\n");

    struct stat st {};
    ASSERT_EQ(::lstat((root / "var/lib/gfxstat").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0755u);  // every user's check reads it
    ASSERT_EQ(::lstat((root / "var/lib/gfxstat/tune.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);
    const auto state = load_tune_state();
    ASSERT_TRUE(state);
    EXPECT_EQ(state->boot_id, "6f1c2a52-3b7e-4a8e-9d62-1f0e4c7b2a90");
    ASSERT_TRUE(state->find("/sys/class/drm/card0/gt_min_freq_mhz"));
    EXPECT_EQ(state->find("/sys/class/drm/card0/gt_min_freq_mhz")->original, "300\n");

    // Tuned: the tunable findings are fine now, and the tuning is said.
    const auto f = check_machine({}, 1);
    EXPECT_FALSE(find(f, "governor")->problem);
    EXPECT_FALSE(find(f, "turbo")->problem);
    EXPECT_FALSE(find(f, "gpu_frequency")->problem);
    EXPECT_EQ(find(f, "gpu_frequency")->state,
              "pinned: card0 (i915) 700 MHz, card2 tile0/gt0 (xe) 1600 MHz, card1 (amdgpu) profile_standard");
    ASSERT_TRUE(find(f, "tuned_now"));
    EXPECT_FALSE(find(f, "tuned_now")->problem);
    EXPECT_NE(find(f, "tuned_now")->state.find("tuned by gfxstat tune apply at " + state->time), std::string::npos);

    reset_tune();
    EXPECT_EQ(machine(), before);
    EXPECT_FALSE(fs::exists(root / "var/lib/gfxstat/tune.json"));
    EXPECT_FALSE(load_tune_state());
}

TEST_F(TuneTest, OriginalsWithoutATrailingNewlineComeBackWithout) {
    put(root / "sys/class/drm/card1/device/power_dpm_force_performance_level", "auto");
    put(root / "sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "schedutil\n\n");
    const auto before = machine();
    apply_tune(TuneRequest{});
    reset_tune();
    EXPECT_EQ(machine(), before);
}

TEST_F(TuneTest, ASecondApplyKeepsTheFirstOriginals) {
    const auto before = machine();
    apply_tune(TuneRequest{});
    TuneRequest again;
    again.gpu = *parse_gpu_frequency("1000");
    again.amdgpu_level = "manual";
    const TuneReport r = apply_tune(again);
    EXPECT_FALSE(r.saved_now);
    EXPECT_EQ(file("sys/class/drm/card0/gt_max_freq_mhz"), "1000\n");
    EXPECT_EQ(file("sys/class/drm/card1/device/power_dpm_force_performance_level"), "manual\n");
    EXPECT_EQ(load_tune_state()->find("/sys/class/drm/card0/gt_max_freq_mhz")->original, "1150\n");
    reset_tune();
    EXPECT_EQ(machine(), before);
}

TEST_F(TuneTest, MinAndMaxAreWrittenSoThatMinNeverExceedsMax) {
    // Up: from 300-500 to RP0 (1150): max first. Down again on reset: min first.
    put(root / "sys/class/drm/card0/gt_max_freq_mhz", "500\n");
    put(root / "sys/class/drm/card2/device/tile0/gt0/freq0/max_freq", "800\n");
    const auto before = machine();
    FakeKernel k;
    // The fake refuses the naive order.
    EXPECT_EQ(k.io().write("/sys/class/drm/card0/gt_min_freq_mhz", "1150\n"), EINVAL);
    k.writes.clear();
    TuneRequest rp0;
    rp0.gpu = *parse_gpu_frequency("rp0");
    apply_tune(rp0, k.io());
    EXPECT_EQ(file("sys/class/drm/card0/gt_min_freq_mhz"), "1150\n");
    EXPECT_EQ(file("sys/class/drm/card2/device/tile0/gt0/freq0/min_freq"), "2400\n");
    EXPECT_LT(k.index_of("/sys/class/drm/card0/gt_max_freq_mhz=1150"), k.index_of("/sys/class/drm/card0/gt_min_freq_mhz=1150"));
    EXPECT_LT(k.index_of("/sys/class/drm/card2/device/tile0/gt0/freq0/max_freq=2400"),
              k.index_of("/sys/class/drm/card2/device/tile0/gt0/freq0/min_freq=2400"));
    k.writes.clear();
    reset_tune(k.io());
    EXPECT_EQ(machine(), before);
    EXPECT_LT(k.index_of("/sys/class/drm/card0/gt_min_freq_mhz=300"), k.index_of("/sys/class/drm/card0/gt_max_freq_mhz=500"));

    // Down: from 800-1150 to 400, below the current min: min first, then max.
    put(root / "sys/class/drm/card0/gt_min_freq_mhz", "800\n");
    put(root / "sys/class/drm/card0/gt_max_freq_mhz", "1150\n");
    k.writes.clear();
    TuneRequest low;
    low.gpu = *parse_gpu_frequency("400");
    apply_tune(low, k.io());
    EXPECT_LT(k.index_of("/sys/class/drm/card0/gt_min_freq_mhz=400"), k.index_of("/sys/class/drm/card0/gt_max_freq_mhz=400"));
    EXPECT_EQ(file("sys/class/drm/card0/gt_max_freq_mhz"), "400\n");
    reset_tune(k.io());
}

TEST_F(TuneTest, ARefusedWritePutsBackWhatWasChanged) {
    const auto before = snapshot(root);
    FakeKernel k;
    k.refused = "/sys/class/drm/card2/device/tile0/gt0/freq0/max_freq";
    try {
        apply_tune(TuneRequest{}, k.io());
        FAIL() << "apply went through a refused write";
    } catch (const TuneError& e) {
        EXPECT_EQ(e.exit_code(), 1);
        const std::string m = e.what();
        EXPECT_NE(m.find(k.refused), std::string::npos) << m;
        EXPECT_NE(m.find("EINVAL"), std::string::npos) << m;
        EXPECT_NE(m.find("put back"), std::string::npos) << m;
    }
    EXPECT_GT(k.writes.size(), 3u);  // governors and turbo had been written
    // Every file as it was, the state file gone (its directory stays, with
    // the empty lock file).
    auto after = snapshot(root);
    EXPECT_EQ(after.erase("var/lib/gfxstat/lock"), 1u);
    EXPECT_EQ(after.erase("var/lib/gfxstat"), 1u);
    after.erase("var/lib");
    after.erase("var");
    EXPECT_EQ(after, before);
}

TEST_F(TuneTest, AStateFromAnEarlierBootIsReportedAndForgotten) {
    apply_tune(TuneRequest{});
    put(root / "proc/sys/kernel/random/boot_id", "0b7e1d34-5c1a-4f7e-8d1b-2a3c4d5e6f70\n");  // a reboot
    const auto f = check_machine({}, 1);
    ASSERT_TRUE(find(f, "tuned_earlier"));
    EXPECT_TRUE(find(f, "tuned_earlier")->problem);
    EXPECT_NE(find(f, "tuned_earlier")->state.find("earlier boot"), std::string::npos);
    EXPECT_NE(find(f, "tuned_earlier")->advice.find("gfxstat tune reset"), std::string::npos);
    EXPECT_FALSE(find(f, "tuned_now"));
    const auto tuned = machine();
    const TuneReport r = reset_tune();
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("earlier boot"), std::string::npos);
    EXPECT_TRUE(r.changes.empty());
    EXPECT_EQ(machine(), tuned);  // nothing written: the kernel's values stand
    EXPECT_FALSE(load_tune_state());
}

TEST_F(TuneTest, ATunedQuietMachineHasNoFindings) {
    apply_tune(TuneRequest{});
    put(root / "sys/class/power_supply/AC/online", "1\n");
    put(root / "sys/class/power_supply/BAT0/status", "Charging\n");
    put(root / "proc/loadavg", "0.10 0.20 0.30 1/300 999\n");
    put(root / "proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
    for (const auto& f : check_machine({}, 1)) EXPECT_FALSE(f.problem) << f.id << ": " << f.state;
}

TEST_F(TuneTest, NoSourceNoFinding) {
    fs::remove_all(root / "sys");
    fs::remove_all(root / "proc");
    const auto f = check_machine({}, 1);
    EXPECT_FALSE(find(f, "governor"));
    EXPECT_FALSE(find(f, "turbo"));
    EXPECT_FALSE(find(f, "gpu_frequency"));
    EXPECT_FALSE(find(f, "battery"));
    EXPECT_FALSE(find(f, "load"));
    EXPECT_FALSE(find(f, "swap"));
    EXPECT_FALSE(find(f, "drm_clients")->problem);
    const TuneReport r = apply_tune(TuneRequest{});
    EXPECT_TRUE(r.changes.empty());
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("nothing to tune"), std::string::npos);
    EXPECT_FALSE(fs::exists(root / "var/lib/gfxstat/tune.json"));
}

// A runner without an i915 or xe GPU (a CI container on llvmpipe): a
// --gpu-freq the user gave is said to be left unused, the CPUs are tuned
// all the same; without --gpu-freq (run --tune's default) nothing is said.
TEST_F(TuneTest, AGpuFrequencyWithoutSuchAGpuIsSaidAndTheRestTuned) {
    fs::remove_all(root / "sys/class/drm");
    TuneRequest asked;
    asked.gpu_freq_given = true;
    const TuneReport r = apply_tune(asked);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_EQ(r.notes[0], "--gpu-freq left unused: no i915 or xe GPU frequency control in " +
                              (root / "sys/class/drm").string() + "; the rest is tuned");
    EXPECT_EQ(slurp(root / "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"), "performance\n");
    EXPECT_TRUE(fs::exists(root / "var/lib/gfxstat/tune.json"));
    reset_tune();
    EXPECT_EQ(slurp(root / "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"), "powersave\n");
    EXPECT_TRUE(apply_tune(TuneRequest{}).notes.empty());
}

TEST_F(TuneTest, AFrequencyOutsideTheHardwaresRangeChangesNothing) {
    const auto before = snapshot(root);
    TuneRequest r;
    r.gpu = *parse_gpu_frequency("2000");  // xe allows it, i915's RP0 is 1150
    try {
        apply_tune(r);
        FAIL();
    } catch (const TuneError& e) {
        EXPECT_EQ(e.exit_code(), 2);
        EXPECT_NE(std::string(e.what()).find("card0 (i915) runs at 300 to 1150 MHz"), std::string::npos) << e.what();
    }
    EXPECT_EQ(snapshot(root), before);
}

TEST_F(TuneTest, APlantedLinkAsTheStateFileIsRefused) {
    fs::create_directories(root / "var/lib/gfxstat");
    fs::permissions(root / "var/lib/gfxstat", fs::perms::owner_all, fs::perm_options::replace);
    put(dir / "elsewhere.json", "{}");
    fs::create_symlink(dir / "elsewhere.json", root / "var/lib/gfxstat/tune.json");
    const auto before = machine();
    try {
        apply_tune(TuneRequest{});
        FAIL();
    } catch (const TuneError& e) {
        EXPECT_EQ(e.exit_code(), 2);
        EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
    }
    EXPECT_EQ(machine(), before);
    EXPECT_EQ(slurp(dir / "elsewhere.json"), "{}");
}

TEST_F(TuneTest, NotRootOnTheRealMachineIsRefusedBeforeAnyWrite) {
    FakeKernel k;
    TuneIo io = k.io();
    io.needs_root = true;
    io.euid = 1000;
    try {
        apply_tune(TuneRequest{}, io);
        FAIL();
    } catch (const TuneError& e) {
        EXPECT_EQ(e.exit_code(), 1);
        EXPECT_NE(std::string(e.what()).find("root"), std::string::npos);
    }
    EXPECT_TRUE(k.writes.empty());
    EXPECT_FALSE(fs::exists(root / "var/lib/gfxstat/tune.json"));
}

TEST(TuneRules, GpuFrequencySpecs) {
    EXPECT_EQ(parse_gpu_frequency("rp0")->kind, GpuFrequencyTarget::Kind::rp0);
    EXPECT_EQ(parse_gpu_frequency("rp1")->kind, GpuFrequencyTarget::Kind::rp1);
    EXPECT_EQ(parse_gpu_frequency("850")->mhz, 850u);
    for (const char* bad : {"", "0", "-5", "85o", "1e3", "100001", "rp2", " 850"}) EXPECT_FALSE(parse_gpu_frequency(bad)) << bad;
}

TEST(TuneRules, HighLoadIsOnePerCpuPlusTheRunsOwn) {
    EXPECT_DOUBLE_EQ(high_load_threshold(0), 2.0);  // CPUs unknown: one
    EXPECT_DOUBLE_EQ(high_load_threshold(1), 2.0);
    EXPECT_DOUBLE_EQ(high_load_threshold(2), 3.0);
    EXPECT_DOUBLE_EQ(high_load_threshold(4), 5.0);
    EXPECT_DOUBLE_EQ(high_load_threshold(64), 65.0);
}

// A 2-core box: its usual background (a desktop, a CI agent: 1.66 over
// the last minute) is no finding; a competing job that keeps both CPUs
// busy beside the run's own share (3.40) is. The CPUs are counted from
// the fake /sys, not from this machine.
TEST_F(TuneTest, LoadOnTwoCoresSpeaksOnlyForACompetingJob) {
    put(root / "sys/devices/system/cpu/online", "0-1\n");
    put(root / "proc/loadavg", "1.66 1.56 0.77 2/300 999\n");
    auto f = check_machine({}, 1);
    ASSERT_TRUE(find(f, "load"));
    EXPECT_FALSE(find(f, "load")->problem) << find(f, "load")->state;
    EXPECT_EQ(find(f, "load")->state, "1.66 over the last minute, 2 CPUs");
    put(root / "proc/loadavg", "2.99 2.50 1.00 3/300 999\n");
    f = check_machine({}, 1);
    EXPECT_FALSE(find(f, "load")->problem) << find(f, "load")->state;
    put(root / "proc/loadavg", "3.40 2.90 1.80 4/300 999\n");
    f = check_machine({}, 1);
    ASSERT_TRUE(find(f, "load"));
    EXPECT_TRUE(find(f, "load")->problem);
    EXPECT_EQ(find(f, "load")->state, "3.40 over the last minute, 2 CPUs (above 3.00)");
    EXPECT_FALSE(find(f, "load")->advice.empty());
}

TEST_F(TuneTest, TheStateFileKeepsEveryByte) {
    TuneState s;
    s.boot_id = "b";
    s.time = "2026-12-01T21:30:00Z";
    s.files.push_back({"/sys/class/drm/card0/gt_min_freq_mhz", std::string("\xff\x80 a\0b\n", 7)});
    save_tune_state(s);
    const auto back = load_tune_state();
    ASSERT_TRUE(back);
    EXPECT_EQ(back->files.at(0).original, s.files[0].original);
    // Only the files gfxstat tune writes are ever written back.
    put(root / "var/lib/gfxstat/tune.json",
        R"({"format": "gfxstat-tune", "version": 1, "boot_id": "b", "time": "t", "files": [{"path": "/etc/passwd", "original": "x"}]})");
    EXPECT_THROW(load_tune_state(), gfxstat::data::InputError);
}

// A link inside the tree that points out of it (a planted
// ROOT/.../cpu0/cpufreq -> /victim, ROOT/var/lib -> /victim-lib) is
// resolved inside the tree: gfxstat, often run as root, neither writes,
// creates nor removes anything outside it.
TEST_F(TuneTest, LinksInsideTheRootNeverLeadOutOfIt) {
    const fs::path victim = dir / "victim";
    fs::create_directories(victim / "cpufreq");
    put(victim / "cpufreq/scaling_governor", "powersave\n");
    put(victim / "cpufreq/scaling_available_governors", "performance powersave\n");
    const fs::path cpufreq = root / "sys/devices/system/cpu/cpu0/cpufreq";
    fs::remove_all(cpufreq);
    fs::create_directory_symlink(victim / "cpufreq", cpufreq);
    fs::create_directories(victim / "lib/gfxstat");
    put(victim / "lib/gfxstat/tune.json", "the real machine's state\n");
    fs::remove_all(root / "var/lib");
    fs::create_directories(root / "var");
    fs::create_directory_symlink(victim / "lib", root / "var/lib");

    // Nothing to load: the link resolves to ROOT/<victim>/lib, which is not there.
    EXPECT_FALSE(load_tune_state());
    EXPECT_NO_THROW(reset_tune());
    EXPECT_THROW(apply_tune(TuneRequest{}), TuneError);
    EXPECT_EQ(slurp(victim / "cpufreq/scaling_governor"), "powersave\n");
    EXPECT_EQ(slurp(victim / "lib/gfxstat/tune.json"), "the real machine's state\n");
    EXPECT_FALSE(fs::exists(victim / ("lib/gfxstat/tune.json.tmp." + std::to_string(::getpid()))));

    // A relative link that stays inside the tree, as copied sysfs trees
    // have them (cpuN/cpufreq -> ../cpufreq/policyN), is followed.
    fs::remove(cpufreq);
    fs::create_directories(root / "sys/devices/system/cpu/cpufreq/policy0");
    put(root / "sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "powersave\n");
    put(root / "sys/devices/system/cpu/cpufreq/policy0/scaling_available_governors", "performance powersave\n");
    fs::create_directory_symlink("../cpufreq/policy0", cpufreq);
    fs::remove(root / "var/lib");
    fs::create_directories(root / "tmp-lib");
    fs::create_directory_symlink("../tmp-lib", root / "var/lib");  // inside the tree
    apply_tune(TuneRequest{});
    EXPECT_EQ(file("sys/devices/system/cpu/cpufreq/policy0/scaling_governor"), "performance\n");
    EXPECT_TRUE(fs::exists(root / "tmp-lib/gfxstat/tune.json"));
    reset_tune();
    EXPECT_EQ(file("sys/devices/system/cpu/cpufreq/policy0/scaling_governor"), "powersave\n");
    EXPECT_FALSE(fs::exists(root / "tmp-lib/gfxstat/tune.json"));
    EXPECT_EQ(slurp(victim / "lib/gfxstat/tune.json"), "the real machine's state\n");
}

// The state says who tuned: run --tune with its pid and start time, so that
// a killed run (its pid gone, or reused by a process started later) is told
// from a live one.
TEST_F(TuneTest, TheStateSaysWhoTunedAndAKilledRunIsALeftOver) {
    TuneRequest by_run;
    by_run.by = kTunedByRun;
    apply_tune(by_run);
    auto s = load_tune_state();
    ASSERT_TRUE(s);
    EXPECT_EQ(s->by, "run --tune");
    EXPECT_EQ(s->pid, static_cast<long>(::getpid()));
    ASSERT_TRUE(process_start_time(::getpid()));
    EXPECT_EQ(s->start_time, *process_start_time(::getpid()));
    EXPECT_EQ(tune_owner(*s), TuneOwner::live_run);
    auto f = check_machine({}, 1);
    ASSERT_TRUE(find(f, "tuned_now"));
    EXPECT_NE(find(f, "tuned_now")->state.find("tuned by gfxstat run --tune (pid " + std::to_string(::getpid()) + ") at "),
              std::string::npos);

    // The same pid, started at another time: not the process that tuned.
    s->start_time += 1;
    save_tune_state(*s);
    EXPECT_EQ(tune_owner(*load_tune_state()), TuneOwner::dead_run);
    f = check_machine({}, 1);
    EXPECT_FALSE(find(f, "tuned_now"));
    ASSERT_TRUE(find(f, "tuned_left_over"));
    EXPECT_TRUE(find(f, "tuned_left_over")->problem);
    EXPECT_NE(find(f, "tuned_left_over")->state.find("which ended without restoring it"), std::string::npos);

    // tune apply over it keeps the originals and becomes the owner.
    apply_tune(TuneRequest{});
    s = load_tune_state();
    EXPECT_EQ(s->by, "apply");
    EXPECT_EQ(tune_owner(*s), TuneOwner::apply);
    EXPECT_EQ(s->find("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")->original, "powersave\n");
}

// Whether another descriptor could take the state's lock now (flock locks
// of one process on two descriptors conflict, as two processes' do).
bool lock_is_free(const fs::path& root) {
    const int fd = ::open((root / "var/lib/gfxstat/lock").c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return true;
    const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    ::close(fd);
    return free;
}

TEST_F(TuneTest, ApplyAndResetHoldTheLockFromTheStateToTheLastWrite) {
    FakeKernel k;
    TuneIo io = k.io();
    std::vector<bool> free_at_write;
    const auto write = io.write;
    io.write = [&](const std::string& p, const std::string& b) {
        free_at_write.push_back(lock_is_free(root));
        return write(p, b);
    };
    apply_tune(TuneRequest{}, io);
    reset_tune(io);
    ASSERT_FALSE(free_at_write.empty());
    for (const bool f : free_at_write) EXPECT_FALSE(f);
    EXPECT_TRUE(lock_is_free(root));  // released at the end
    struct stat st {};
    ASSERT_EQ(::lstat((root / "var/lib/gfxstat/lock").c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
}

TEST_F(TuneTest, ASecondTunerGivesUpWhenTheLockIsNotFreedAndChangesNothing) {
    apply_tune(TuneRequest{});
    reset_tune();
    const auto before = machine();
    const int held = ::open((root / "var/lib/gfxstat/lock").c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(held, 0);
    ASSERT_EQ(::flock(held, LOCK_EX), 0);
    TuneIo io = system_tune_io();
    io.lock_wait_ms = 0;
    try {
        apply_tune(TuneRequest{}, io);
        ADD_FAILURE() << "apply went on without the lock";
    } catch (const TuneError& e) {
        EXPECT_EQ(e.exit_code(), 1);
        EXPECT_NE(std::string(e.what()).find("another gfxstat tune apply, tune reset or run --tune is changing the machine"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(reset_tune(io), TuneError);
    EXPECT_EQ(machine(), before);
    EXPECT_FALSE(fs::exists(root / "var/lib/gfxstat/tune.json"));
    ::close(held);
    EXPECT_NO_THROW(apply_tune(TuneRequest{}, io));  // free again
}

// A planted link in place of the lock file is not followed.
TEST_F(TuneTest, ALinkInPlaceOfTheLockIsRefused) {
    fs::create_directories(root / "var/lib/gfxstat");
    fs::permissions(root / "var/lib/gfxstat", fs::perms::owner_all);
    put(dir / "elsewhere", "x");
    fs::create_symlink(dir / "elsewhere", root / "var/lib/gfxstat/lock");
    EXPECT_THROW(apply_tune(TuneRequest{}), TuneError);
    EXPECT_EQ(slurp(dir / "elsewhere"), "x");
}

// A CPU taken offline (its cpufreq directory gone) between apply and reset:
// reset warns, restores the rest and forgets the state; another refusal
// still keeps it.
TEST_F(TuneTest, ResetRestoresTheRestWhenASavedFileIsGone) {
    const auto before = machine();
    apply_tune(TuneRequest{});
    fs::remove_all(root / "sys/devices/system/cpu/cpu3/cpufreq");
    const TuneReport r = reset_tune();
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0], "cpu3's governor is gone; nothing to restore");
    EXPECT_FALSE(fs::exists(root / "var/lib/gfxstat/tune.json"));
    auto now = machine();
    for (auto it = before.begin(); it != before.end(); ++it) {
        if (it->first.rfind("sys/devices/system/cpu/cpu3/cpufreq", 0) != 0) {
            EXPECT_EQ(now[it->first], it->second) << it->first;
        }
    }

    apply_tune(TuneRequest{});
    FakeKernel k;
    k.refused = "/sys/class/drm/card1/device/power_dpm_force_performance_level";
    EXPECT_THROW(reset_tune(k.io()), TuneError);
    EXPECT_TRUE(fs::exists(root / "var/lib/gfxstat/tune.json"));
}

// A daemon (power-profiles-daemon, TLP) set governors back after apply:
// the check says so instead of "tuned".
TEST_F(TuneTest, TheCheckSaysWhenGovernorsWereSetBackAfterTuning) {
    apply_tune(TuneRequest{});
    put(root / "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
    put(root / "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
    const auto f = check_machine({}, 1);
    EXPECT_FALSE(find(f, "tuned_now"));
    ASSERT_TRUE(find(f, "tuned_undone"));
    EXPECT_TRUE(find(f, "tuned_undone")->problem);
    const std::string& state = find(f, "tuned_undone")->state;
    EXPECT_EQ(state.substr(0, 31), "tuned by gfxstat tune apply at ");
    EXPECT_NE(state.find(", but cpu0-1 are back to powersave"), std::string::npos) << state;
}

// Not root on the real machine: reset and apply say so (exit 1) before
// they look at the state, whatever it holds.
TEST_F(TuneTest, NotRootIsSaidBeforeTheStateIsRead) {
    fs::create_directories(root / "var/lib/gfxstat");
    put(root / "var/lib/gfxstat/tune.json", "not a state\n");
    TuneIo io = system_tune_io();
    io.needs_root = true;
    io.euid = 1000;
    for (const bool reset : {true, false}) {
        try {
            if (reset) reset_tune(io);
            else apply_tune(TuneRequest{}, io);
            ADD_FAILURE() << "went on without root";
        } catch (const TuneError& e) {
            EXPECT_EQ(e.exit_code(), 1) << e.what();
            EXPECT_NE(std::string(e.what()).find("needs root"), std::string::npos) << e.what();
        }
    }
}

// A state directory made 0700 (an older gfxstat, a tight umask) is opened
// up to 0755 when gfxstat next writes the state.
TEST_F(TuneTest, AStateDirectoryMadePrivateIsOpenedUpOnTheNextWrite) {
    fs::create_directories(root / "var/lib/gfxstat");
    fs::permissions(root / "var/lib/gfxstat", fs::perms::owner_all);
    const mode_t old = ::umask(077);
    apply_tune(TuneRequest{});
    ::umask(old);
    struct stat st {};
    ASSERT_EQ(::lstat((root / "var/lib/gfxstat").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0755u);
    ASSERT_EQ(::lstat((root / "var/lib/gfxstat/tune.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);
}

// A FIFO or a huge file in place of tune.json, or a FIFO in the tree's
// proc: clear errors at once, never a hang.
TEST_F(TuneTest, AFifoOrAHugeFileInPlaceOfTheStateIsRefusedAtOnce) {
    fs::create_directories(root / "var/lib/gfxstat");
    ASSERT_EQ(::mkfifo((root / "var/lib/gfxstat/tune.json").c_str(), 0644), 0);
    try {
        load_tune_state();
        ADD_FAILURE() << "a FIFO was read as a state";
    } catch (const gfxstat::data::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(find(check_machine({}, 1), "tune_state"));
    fs::remove(root / "var/lib/gfxstat/tune.json");
    put(root / "var/lib/gfxstat/tune.json", std::string(1024 * 1024 + 1, ' '));
    try {
        load_tune_state();
        ADD_FAILURE() << "a 1 MiB + 1 file was read as a state";
    } catch (const gfxstat::data::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("more than the 1048576"), std::string::npos) << e.what();
    }
}

TEST_F(TuneTest, AFifoInTheTreesProcDoesNotHangTheDrmClientCheck) {
    const fs::path fdinfo = root / "proc/1440/fdinfo/40", comm = root / "proc/1440/comm";
    fs::remove(fdinfo);
    fs::remove(comm);
    ASSERT_EQ(::mkfifo(fdinfo.c_str(), 0644), 0);
    ASSERT_EQ(::mkfifo(comm.c_str(), 0644), 0);
    const auto clients = list_drm_clients(root.string());  // returns: the FIFOs read as empty
    EXPECT_FALSE(clients.empty());
}

TEST_F(TuneTest, AStateNamingAnotherSysFileIsRefused) {
    fs::create_directories(root / "var/lib/gfxstat");
    put(root / "var/lib/gfxstat/tune.json",
        "{\"format\": \"gfxstat-tune\", \"version\": 1, \"boot_id\": \"6f1c2a52-3b7e-4a8e-9d62-1f0e4c7b2a90\", "
        "\"time\": \"2026-12-01T21:30:00Z\", \"files\": [{\"path\": \"/sys/power/state\", \"original\": \"mem\\n\"}]}\n");
    try {
        load_tune_state();
        ADD_FAILURE() << "/sys/power/state accepted";
    } catch (const gfxstat::data::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("is not a file gfxstat tune writes"), std::string::npos) << e.what();
    }
    try {
        reset_tune();
        ADD_FAILURE() << "reset used the state";
    } catch (const TuneError& e) {
        EXPECT_EQ(e.exit_code(), 2);
    }
}
