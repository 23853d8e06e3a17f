// SPDX-License-Identifier: MIT
// The GPU clock sampler against fake sysfs trees (tests/data/probe_root/
// throttling/): which files it finds per driver, what a tick reads, the
// summary of a run (share throttled, reasons, frequencies, package
// temperature), the thread's first and last ticks, and the run record's
// "throttle" object in and out of JSON.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <cstdint>
#include <cstring>

#include "data/json_cursor.h"
#include "data/results_json.h"
#include "data/throttle_json.h"
#include "drivers/amdgpu_gpu_metrics.h"
#include "drivers/gpu_clock_sampler.h"
#include "drivers/gpu_clock_sources.h"

namespace fs = std::filesystem;
using namespace gfxstat;
using namespace gfxstat::drivers;

namespace {

const std::string kTrees = std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/probe_root/throttling";

// A writable copy of one tree, removed at the end of the test.
class TreeCopy {
public:
    explicit TreeCopy(const std::string& name) {
        char tmpl[] = "/tmp/gfxstat-clock-XXXXXX";
        root_ = ::mkdtemp(tmpl);
        fs::copy(kTrees + "/" + name, root_, fs::copy_options::recursive);
    }
    ~TreeCopy() {
        std::error_code ec;
        fs::remove_all(root_, ec);
    }
    const std::string& root() const { return root_; }
    // Rewrites a file in place (the same inode, as sysfs keeps it).
    void write(const std::string& rel, const std::string& text) const {
        std::ofstream f(root_ + "/" + rel, std::ios::trunc);
        f << text;
    }

private:
    std::string root_;
};

const std::string kI915 = "sys/class/drm/card0/";
const std::string kXe = "sys/class/drm/card0/device/tile0/gt0/freq0/";

}  // namespace

TEST(GpuClockSources, I915FilesAndCoretempPackage) {
    TreeCopy t("i915");
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    EXPECT_EQ(s.driver, GpuClockDriver::i915);
    EXPECT_EQ(s.gpu, "card0");
    EXPECT_EQ(s.actual_freq, t.root() + "/" + kI915 + "gt_act_freq_mhz");
    EXPECT_EQ(s.requested_freq, t.root() + "/" + kI915 + "gt_cur_freq_mhz");
    EXPECT_EQ(s.throttle_status, t.root() + "/" + kI915 + "gt/gt0/throttle_reason_status");
    ASSERT_EQ(s.reasons.size(), 8u);  // every reason file but the status, sorted
    EXPECT_EQ(s.reasons[0].first, "pl1");
    EXPECT_EQ(s.reasons[3].first, "prochot");
    EXPECT_EQ(s.reasons[5].first, "thermal");
    // The package sensor, not the hotter core nor the other chip.
    EXPECT_EQ(s.cpu_package_temp, t.root() + "/sys/class/hwmon/hwmon1/temp1_input");
}

TEST(GpuClockSources, XeFilesAndThermalZonePackage) {
    TreeCopy t("xe");
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    EXPECT_EQ(s.driver, GpuClockDriver::xe);
    EXPECT_EQ(s.actual_freq, t.root() + "/" + kXe + "act_freq");
    EXPECT_EQ(s.requested_freq, t.root() + "/" + kXe + "cur_freq");
    EXPECT_EQ(s.throttle_status, t.root() + "/" + kXe + "throttle/status");
    EXPECT_EQ(s.reasons.size(), 8u);
    EXPECT_EQ(s.cpu_package_temp, t.root() + "/sys/class/thermal/thermal_zone1/temp");
}

TEST(GpuClockSources, AmdgpuSclkOnTheFirstCardWithClocksAndTctl) {
    TreeCopy t("amdgpu");
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    EXPECT_EQ(s.driver, GpuClockDriver::amdgpu);
    EXPECT_EQ(s.gpu, "card1");  // card0 has no clock files
    EXPECT_EQ(s.actual_freq, t.root() + "/sys/class/drm/card1/device/pp_dpm_sclk");
    EXPECT_TRUE(s.requested_freq.empty());
    EXPECT_TRUE(s.reasons.empty());
    EXPECT_TRUE(s.throttle_status.empty());
    EXPECT_EQ(s.cpu_package_temp, t.root() + "/sys/class/hwmon/hwmon1/temp1_input");
}

TEST(GpuClockSources, NoneOnAMachineWithoutThem) {
    TreeCopy t("none");
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    EXPECT_TRUE(s.empty());
    EXPECT_EQ(s.driver, GpuClockDriver::none);
    EXPECT_EQ(s.gpu, "");
    EXPECT_TRUE(find_gpu_clock_sources(t.root() + "/does-not-exist").empty());
}

TEST(GpuClockSources, UnreadableFilesAreLeftOut) {
    TreeCopy t("i915");
    t.write(kI915 + "gt_act_freq_mhz", "not a number\n");
    t.write("sys/class/hwmon/hwmon1/temp1_input", "");
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    EXPECT_EQ(s.driver, GpuClockDriver::i915);
    EXPECT_TRUE(s.actual_freq.empty());
    EXPECT_FALSE(s.requested_freq.empty());
    EXPECT_TRUE(s.cpu_package_temp.empty());
}

TEST(GpuClockReader, TicksFollowTheFiles) {
    TreeCopy t("i915");
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    GpuClockReader reader(s);
    ASSERT_FALSE(reader.empty());
    GpuClockTick a = reader.read();
    EXPECT_EQ(a.actual_mhz, 1100.0);
    EXPECT_EQ(a.requested_mhz, 1100.0);
    EXPECT_EQ(a.throttled, false);
    EXPECT_EQ(a.cpu_package_temp_c, 45.0);
    // The same descriptors see the new contents.
    t.write(kI915 + "gt_act_freq_mhz", "650\n");
    t.write(kI915 + "gt/gt0/throttle_reason_pl1", "1\n");
    t.write(kI915 + "gt/gt0/throttle_reason_status", "1\n");
    t.write("sys/class/hwmon/hwmon1/temp1_input", "78500\n");
    GpuClockTick b = reader.read();
    EXPECT_EQ(b.actual_mhz, 650.0);
    EXPECT_EQ(b.throttled, true);
    EXPECT_EQ(b.reason_bits, 1u);  // pl1 is reason 0
    EXPECT_FALSE(b.status_only);
    EXPECT_EQ(b.cpu_package_temp_c, 78.5);
    // The status alone.
    t.write(kI915 + "gt/gt0/throttle_reason_pl1", "0\n");
    GpuClockTick c = reader.read();
    EXPECT_EQ(c.throttled, true);
    EXPECT_TRUE(c.status_only);
    // A file that stops reading cleanly is absent from that tick only.
    t.write(kI915 + "gt_act_freq_mhz", "garbage");
    EXPECT_FALSE(reader.read().actual_mhz.has_value());
}

TEST(ThrottleSummary, ShareReasonsAndFrequencies) {
    TreeCopy t("i915");
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    GpuClockReader reader(s);
    ThrottleSummary sum(s);
    sum.add(reader.read());  // 1100, not throttled
    t.write(kI915 + "gt/gt0/throttle_reason_thermal", "1\n");
    t.write(kI915 + "gt/gt0/throttle_reason_pl1", "1\n");
    t.write(kI915 + "gt_act_freq_mhz", "300\n");
    sum.add(reader.read());  // 300, pl1 + thermal
    t.write(kI915 + "gt/gt0/throttle_reason_thermal", "0\n");
    t.write(kI915 + "gt_act_freq_mhz", "700\n");
    t.write("sys/class/hwmon/hwmon1/temp1_input", "81000\n");
    sum.add(reader.read());  // 700, pl1
    t.write(kI915 + "gt/gt0/throttle_reason_pl1", "0\n");
    t.write(kI915 + "gt_act_freq_mhz", "1100\n");
    t.write(kI915 + "gt_cur_freq_mhz", "900\n");
    sum.add(reader.read());  // 1100, free again
    const auto r = sum.record(std::chrono::milliseconds(50));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->samples, 4u);
    EXPECT_EQ(r->interval_ms, 50u);
    EXPECT_EQ(r->throttled_share, 0.5);
    EXPECT_EQ(r->reasons, (std::vector<std::string>{"pl1", "thermal"}));
    EXPECT_EQ(r->gpu_freq_min_mhz, 300.0);
    EXPECT_EQ(r->gpu_freq_mean_mhz, (1100.0 + 300 + 700 + 1100) / 4);
    EXPECT_EQ(r->gpu_freq_requested_mean_mhz, (1100.0 * 3 + 900) / 4);
    EXPECT_EQ(r->cpu_package_temp_max_c, 81.0);
    EXPECT_EQ(r->gpu, "card0");
    EXPECT_TRUE(data::is_throttled(*r));
}

TEST(ThrottleSummary, XeStatusAndReasonFromTheTree) {
    TreeCopy t("xe");  // the tree is throttled for thermal reasons
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    GpuClockReader reader(s);
    ThrottleSummary sum(s);
    sum.add(reader.read());
    t.write(kXe + "throttle/status", "0\n");
    t.write(kXe + "throttle/reason_thermal", "0\n");
    t.write(kXe + "act_freq", "1000\n");
    sum.add(reader.read());
    sum.add(reader.read());
    sum.add(reader.read());
    const auto r = sum.record(std::chrono::milliseconds(50));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->throttled_share, 0.25);
    EXPECT_EQ(r->reasons, (std::vector<std::string>{"thermal"}));
    EXPECT_EQ(r->gpu_freq_min_mhz, 600.0);
    EXPECT_EQ(r->gpu_freq_mean_mhz, 900.0);
    EXPECT_EQ(r->gpu_freq_requested_mean_mhz, 1000.0);
    EXPECT_EQ(r->cpu_package_temp_max_c, 61.5);
}

TEST(ThrottleSummary, StatusWithoutANamedReasonIsCalledStatus) {
    TreeCopy t("xe");
    t.write(kXe + "throttle/reason_thermal", "0\n");  // status 1 alone
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    GpuClockReader reader(s);
    ThrottleSummary sum(s);
    sum.add(reader.read());
    const auto r = sum.record(std::chrono::milliseconds(50));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->throttled_share, 1.0);
    EXPECT_EQ(r->reasons, (std::vector<std::string>{"status"}));
}

TEST(ThrottleSummary, AmdgpuHasFrequenciesButNoThrottleShare) {
    TreeCopy t("amdgpu");
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    GpuClockReader reader(s);
    ThrottleSummary sum(s);
    sum.add(reader.read());  // level 1: 1800
    t.write("sys/class/drm/card1/device/pp_dpm_sclk", "0: 500Mhz *\n1: 1800Mhz \n2: 2100Mhz \n");
    sum.add(reader.read());  // level 0: 500
    const auto r = sum.record(std::chrono::milliseconds(50));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->gpu, "card1");
    EXPECT_EQ(r->gpu_freq_min_mhz, 500.0);
    EXPECT_EQ(r->gpu_freq_mean_mhz, 1150.0);
    EXPECT_FALSE(r->gpu_freq_requested_mean_mhz);
    // No throttle source: not "never throttled", unknown.
    EXPECT_FALSE(r->throttled_share);
    EXPECT_FALSE(data::is_throttled(*r));
    EXPECT_EQ(r->cpu_package_temp_max_c, 70.25);
}

TEST(ThrottleSummary, TemperatureAloneHasNoGpu) {
    TreeCopy t("i915");
    fs::remove_all(t.root() + "/sys/class/drm");
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    ASSERT_FALSE(s.empty());
    GpuClockReader reader(s);
    ThrottleSummary sum(s);
    sum.add(reader.read());
    const auto r = sum.record(std::chrono::milliseconds(50));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->gpu, "");
    EXPECT_FALSE(r->gpu_freq_mean_mhz);
    EXPECT_EQ(r->cpu_package_temp_max_c, 45.0);
}

TEST(ThrottleSummary, NothingReadIsNoRecord) {
    TreeCopy t("i915");
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    ThrottleSummary sum(s);
    EXPECT_FALSE(sum.record(std::chrono::milliseconds(50)));
    GpuClockTick empty;
    sum.add(empty);
    EXPECT_FALSE(sum.record(std::chrono::milliseconds(50)));
}

TEST(GpuClockSampler, FirstAndLastTicksAroundTheWorkload) {
    TreeCopy t("i915");
    GpuClockSampler sampler(find_gpu_clock_sources(t.root()));
    // What happens between the first tick (taken before the constructor
    // returned) and stop() is seen by the last tick at the latest.
    t.write(kI915 + "gt/gt0/throttle_reason_pl1", "1\n");
    t.write(kI915 + "gt_act_freq_mhz", "400\n");
    const auto r = sampler.stop();
    ASSERT_TRUE(r);
    EXPECT_GE(r->samples, 2u);
    ASSERT_TRUE(r->throttled_share);
    EXPECT_GT(*r->throttled_share, 0);
    EXPECT_LT(*r->throttled_share, 1);  // the first tick was not throttled
    EXPECT_EQ(r->reasons, (std::vector<std::string>{"pl1"}));
    EXPECT_EQ(r->gpu_freq_min_mhz, 400.0);
}

TEST(GpuClockSampler, NoSourcesNoRecord) {
    TreeCopy t("none");
    GpuClockSampler sampler(find_gpu_clock_sources(t.root()));
    EXPECT_FALSE(sampler.stop());
}

// ---- the run record's "throttle" object ---------------------------------

namespace {
const std::string kRun = R"({"type":"run","variant":"a","run":0,"exit":{"class":"ok"},"metrics":{"x":1}})";
data::RunRecord parse_run(const std::string& throttle) {
    // kRun without its closing brace, then the member.
    const std::string line = kRun.substr(0, kRun.size() - 1) + ",\"throttle\":" + throttle + "}";
    return std::get<data::RunRecord>(data::parse_record_line(line));
}
std::string error_of(const std::string& throttle) {
    try {
        parse_run(throttle);
    } catch (const data::RecordError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST(ThrottleJson, RoundTrip) {
    const std::string text =
        R"({"samples":21,"interval_ms":50,"throttled_share":0.27,"reasons":["pl1","thermal"],)"
        R"("gpu_freq_min_mhz":300,"gpu_freq_mean_mhz":812.4,"gpu_freq_requested_mean_mhz":1100,)"
        R"("cpu_package_temp_max_c":78,"gpu":"card0","future":{"a":[1]}})";
    const data::RunRecord r = parse_run(text);
    ASSERT_TRUE(r.throttle);
    EXPECT_EQ(r.throttle->samples, 21u);
    EXPECT_EQ(r.throttle->throttled_share, 0.27);
    EXPECT_EQ(r.throttle->gpu_freq_mean_mhz, 812.4);
    EXPECT_EQ(r.throttle->gpu, "card0");
    std::string out;
    data::append_run_line(out, r);
    EXPECT_NE(out.find(",\"throttle\":" + text), std::string::npos) << out;
    // Without a throttle record nothing is written.
    data::RunRecord plain = std::get<data::RunRecord>(data::parse_record_line(kRun));
    out.clear();
    data::append_run_line(out, plain);
    EXPECT_EQ(out.find("throttle"), std::string::npos);
}

TEST(ThrottleJson, FieldsAbsentStayAbsent) {
    const data::RunRecord r = parse_run(R"({"samples":3,"interval_ms":50,"cpu_package_temp_max_c":-1.5})");
    ASSERT_TRUE(r.throttle);
    EXPECT_FALSE(r.throttle->throttled_share);
    EXPECT_FALSE(r.throttle->gpu_freq_mean_mhz);
    std::string out;
    data::append_run_line(out, r);
    EXPECT_NE(out.find(R"("throttle":{"samples":3,"interval_ms":50,"cpu_package_temp_max_c":-1.5})"),
              std::string::npos)
        << out;
}

TEST(ThrottleJson, BadValuesAreRefusedWithTheirName) {
    EXPECT_NE(error_of("[]").find("\"throttle\" must be an object"), std::string::npos);
    EXPECT_NE(error_of(R"({"interval_ms":50})").find("\"samples\" is missing"), std::string::npos);
    EXPECT_NE(error_of(R"({"samples":0,"interval_ms":50})").find("\"samples\" must be a whole number from 1"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2})").find("\"interval_ms\" is missing"), std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2,"interval_ms":50,"throttled_share":1.5})").find("share from 0 to 1"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2,"interval_ms":50,"throttled_share":"a"})").find("\"throttled_share\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2,"interval_ms":50,"throttled_share":0.5,"reasons":["PL 1"]})")
                  .find("lower-case word"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2,"interval_ms":50,"throttled_share":0.5,"reasons":["thermal","pl1"]})")
                  .find("sorted"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2,"interval_ms":50,"reasons":["pl1"]})").find("not above 0"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2,"interval_ms":50,"gpu_freq_mean_mhz":-1})").find("\"gpu_freq_mean_mhz\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2,"interval_ms":50,"gpu_freq_min_mhz":900,"gpu_freq_mean_mhz":800})")
                  .find("above"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2,"interval_ms":50,"gpu":""})").find("\"gpu\""), std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2,"samples":3,"interval_ms":50})").find("twice"), std::string::npos);
    EXPECT_NE(error_of(R"({"samples":2,"interval_ms":50,"cpu_package_temp_max_c":1e400})")
                  .find("temperature"),
              std::string::npos);
}

// ---- amdgpu gpu_metrics ---------------------------------------------------
//
// Binaries built from the kernel's layouts (kgd_pp_interface.h), laid out
// here by the compiler from the members' types and order, so that the
// parser's offsets are checked against an independent computation.

namespace {

struct MetricsHeader {
    uint16_t structure_size;
    uint8_t format_revision, content_revision;
};

// gpu_metrics_v1_3: v1_1's members, v1_2's firmware timestamp, then
// voltages and the ASIC-independent status.
struct MetricsV1_3 {
    MetricsHeader header;
    uint16_t temperatures[6];  // edge, hotspot, mem, vrgfx, vrsoc, vrmem
    uint16_t activities[3];    // gfx, umc, mm
    uint16_t average_socket_power;
    uint64_t energy_accumulator;
    uint64_t system_clock_counter;
    uint16_t average_clocks[7];  // gfxclk, socclk, uclk, vclk0, dclk0, vclk1, dclk1
    uint16_t current_clocks[7];  // the same, current
    uint32_t throttle_status;
    uint16_t current_fan_speed;
    uint16_t pcie_link_width, pcie_link_speed;
    uint16_t padding;
    uint32_t gfx_activity_acc, mem_activity_acc;
    uint16_t temperature_hbm[4];
    uint64_t firmware_timestamp;  // v1_2 and later
    uint16_t voltages[3];         // v1_3: soc, gfx, mem
    uint16_t padding1;
    uint64_t indep_throttle_status;
};
static_assert(sizeof(MetricsV1_3) == 120);

// gpu_metrics_v2_2 (APUs).
struct MetricsV2_2 {
    MetricsHeader header;
    uint16_t temperatures[12];  // gfx, soc, core[8], l3[2]
    uint16_t activities[2];     // gfx, mm
    uint64_t system_clock_counter;
    uint16_t powers[12];          // socket, cpu, soc, gfx, core[8]
    uint16_t average_clocks[6];   // gfxclk, socclk, uclk, fclk, vclk, dclk
    uint16_t current_clocks[16];  // gfxclk, socclk, uclk, fclk, vclk, dclk, coreclk[8], l3clk[2]
    uint32_t throttle_status;
    uint16_t fan_pwm;
    uint16_t padding[3];
    uint64_t indep_throttle_status;
};
static_assert(sizeof(MetricsV2_2) == 128);

template <class T>
std::string bytes_of(const T& t, size_t size = sizeof(T)) {
    return std::string(reinterpret_cast<const char*>(&t), size);
}

// As the firmware fills what it does not report: all ones.
template <class T>
T all_ones() {
    T t;
    std::memset(&t, 0xff, sizeof t);
    return t;
}

MetricsV1_3 v1(uint8_t content, size_t size, uint16_t gfxclk, uint32_t status) {
    MetricsV1_3 m = all_ones<MetricsV1_3>();
    m.header = {static_cast<uint16_t>(size), 1, content};
    m.average_clocks[0] = 1;  // neighbours, to catch an offset one off
    m.current_clocks[0] = gfxclk;
    m.current_clocks[1] = 2;
    m.throttle_status = status;
    return m;
}

}  // namespace

TEST(GpuMetrics, DiscreteLayouts) {
    for (auto [content, size] : {std::pair{1, 96}, {2, 104}, {3, 120}}) {
        const auto m = v1(static_cast<uint8_t>(content), static_cast<size_t>(size), 2450, 0x20);
        const auto r = parse_gpu_metrics(bytes_of(m, static_cast<size_t>(size)));
        ASSERT_TRUE(r) << "v1_" << content;
        EXPECT_EQ(r->current_gfxclk_mhz, 2450u);
        EXPECT_EQ(r->throttle_status, 0x20u);
    }
}

TEST(GpuMetrics, ApuLayout) {
    MetricsV2_2 m = all_ones<MetricsV2_2>();
    m.header = {sizeof m, 2, 2};
    m.average_clocks[0] = 1;
    m.current_clocks[0] = 1900;
    m.current_clocks[1] = 2;
    m.throttle_status = 0;
    const auto r = parse_gpu_metrics(bytes_of(m));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->current_gfxclk_mhz, 1900u);
    EXPECT_EQ(r->throttle_status, 0u);
    // v2_1: the same members, without the independent status.
    m.header = {120, 2, 1};
    ASSERT_TRUE(parse_gpu_metrics(bytes_of(m, 120)));
}

TEST(GpuMetrics, UnsupportedFieldsAndLayoutsAreNotRead) {
    // All ones: the firmware does not report it.
    auto m = v1(1, 96, 0xffff, 0xffffffffu);
    auto r = parse_gpu_metrics(bytes_of(m, 96));
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->current_gfxclk_mhz);
    EXPECT_FALSE(r->throttle_status);
    // Layouts whose members moved, or that gfxstat was not built for.
    m = v1(4, 96, 2000, 0);
    EXPECT_FALSE(parse_gpu_metrics(bytes_of(m, 96)));
    m.header = {96, 3, 0};
    EXPECT_FALSE(parse_gpu_metrics(bytes_of(m, 96)));
    // A size other than the struct's, or fewer bytes than it.
    m = v1(1, 100, 2000, 0);
    EXPECT_FALSE(parse_gpu_metrics(bytes_of(m, 100)));
    m = v1(1, 96, 2000, 0);
    EXPECT_FALSE(parse_gpu_metrics(bytes_of(m, 80)));
    EXPECT_FALSE(parse_gpu_metrics(""));
    EXPECT_FALSE(parse_gpu_metrics("ab"));
}

TEST(GpuMetrics, SampledThrottleStatusMarksTheRun) {
    TreeCopy t("amdgpu");
    const std::string file = "sys/class/drm/card1/device/gpu_metrics";
    t.write(file, bytes_of(v1(3, 120, 2400, 0)));
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    EXPECT_EQ(s.driver, GpuClockDriver::amdgpu);
    EXPECT_EQ(s.gpu_metrics, t.root() + "/" + file);
    GpuClockReader reader(s);
    ThrottleSummary sum(s);
    sum.add(reader.read());
    t.write(file, bytes_of(v1(3, 120, 1200, 0x8)));
    sum.add(reader.read());
    const auto r = sum.record(std::chrono::milliseconds(50));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->throttled_share, 0.5);
    EXPECT_EQ(r->reasons, (std::vector<std::string>{"status"}));
    // pp_dpm_sclk stays the actual frequency where it exists.
    EXPECT_EQ(r->gpu_freq_mean_mhz, 1800.0);
}

TEST(GpuMetrics, CurrentClockWithoutPpDpmSclk) {
    TreeCopy t("amdgpu");
    fs::remove(t.root() + "/sys/class/drm/card1/device/pp_dpm_sclk");
    const std::string file = "sys/class/drm/card1/device/gpu_metrics";
    t.write(file, bytes_of(v1(1, 96, 2400, 0), 96));
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    EXPECT_EQ(s.gpu, "card1");
    GpuClockReader reader(s);
    ThrottleSummary sum(s);
    sum.add(reader.read());
    const auto r = sum.record(std::chrono::milliseconds(50));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->gpu_freq_mean_mhz, 2400.0);
    EXPECT_EQ(r->throttled_share, 0.0);
}

TEST(GpuMetrics, AnUnreadLayoutIsNoSource) {
    TreeCopy t("amdgpu");
    const std::string file = "sys/class/drm/card1/device/gpu_metrics";
    t.write(file, bytes_of(v1(5, 120, 2400, 0x8)));  // v1_5: not read
    const GpuClockSources s = find_gpu_clock_sources(t.root());
    EXPECT_TRUE(s.gpu_metrics.empty());
    EXPECT_EQ(s.driver, GpuClockDriver::amdgpu);  // pp_dpm_sclk still
}
