// SPDX-License-Identifier: MIT
// The native DRM workloads up to the hardware boundary: summaries, dumb
// buffer geometry, rounding and overlap figures, the exact report texts and
// what their parsers make of them, which workloads a device can run, and the
// bad-input errors (exit 2 and 77) that need no DRM device to provoke. The
// real ioctl paths run in the VM harness (tests/vm/) on vgem.
#include "drivers/drm_devices.h"
#include "drivers/drm_workloads.h"
#include "drivers/run_parsers.h"

#include <gtest/gtest.h>

#include <functional>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace gfxstat::drivers {
namespace {

template <typename F>
std::string captured(F print) {
    char* buf = nullptr;
    size_t len = 0;
    FILE* f = open_memstream(&buf, &len);
    print(f);
    std::fclose(f);
    std::string s(buf, len);
    std::free(buf);
    return s;
}

// name -> "value unit direction" for every metric of a parse, in order.
std::vector<std::string> metrics_of(const ParseResult& r) {
    std::vector<std::string> out;
    for (const auto& m : r.metrics) {
        std::string s = m.name + "=";
        for (const auto& t : m.values) {
            // The exact decimal token, as the shortest double that reads back.
            const std::string sci = std::to_string(t.significand) + "e" + std::to_string(t.exponent);
            const double v = (t.negative ? -1 : 1) * std::strtod(sci.c_str(), nullptr);
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.15g", v);
            s += std::string(buf) + ",";
        }
        s += " " + m.unit + " " + data::direction_name(m.direction);
        out.push_back(s);
    }
    return out;
}

ParseResult parse(const std::string& parser, const std::string& out, const std::string& err = "") {
    RunOutput o;
    o.out = out;
    o.err = err;
    return make_parser(parser)->parse(o);
}

TEST(DrmTimings, SummaryIsMeanMedianP99TypeSevenAndMin) {
    const std::vector<double> v{4, 1, 3, 2, 10};
    const TimingSummary s = summarize_times(v);
    EXPECT_EQ(s.count, 5u);
    EXPECT_DOUBLE_EQ(s.mean, 4);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.median, 3);
    EXPECT_DOUBLE_EQ(s.p99, 4 + 0.96 * 6);  // R: quantile(c(4,1,3,2,10), .99) = 9.76
    const TimingSummary none = summarize_times({});
    EXPECT_EQ(none.count, 0u);
    EXPECT_EQ(none.mean, 0);
    EXPECT_EQ(none.p99, 0);
}

TEST(DrmTimings, LoopOverheadIsSmallAndNotNegative) {
    const double ns = clock_loop_overhead_ns(1000);
    EXPECT_GE(ns, 0);
    EXPECT_LT(ns, 100000);  // two clock reads, even under emulation
}

TEST(DrmGem, DumbGeometryAskedForTheSize) {
    const DumbGeometry mib = dumb_geometry(1 << 20);
    EXPECT_EQ(mib.width, 1024u);
    EXPECT_EQ(mib.height, 256u);
    EXPECT_EQ(mib.bpp, 32u);
    EXPECT_EQ(mib.requested_bytes, 1u << 20);
    const DumbGeometry small = dumb_geometry(100);
    EXPECT_EQ(small.width, 25u);
    EXPECT_EQ(small.height, 1u);
    EXPECT_EQ(small.requested_bytes, 100u);
    const DumbGeometry odd = dumb_geometry(5000);  // 1250 pixels: one exact row
    EXPECT_EQ(odd.width, 1250u);
    EXPECT_EQ(odd.height, 1u);
    EXPECT_EQ(odd.requested_bytes, 5000u);
    const DumbGeometry page_plus = dumb_geometry(4100);
    EXPECT_EQ(page_plus.width, 1025u);
    EXPECT_EQ(page_plus.requested_bytes, 4100u);
    const DumbGeometry wide = dumb_geometry(36000);  // 9000 pixels: 3000 x 3
    EXPECT_EQ(wide.width, 3000u);
    EXPECT_EQ(wide.height, 3u);
    EXPECT_EQ(wide.requested_bytes, 36000u);
    const DumbGeometry odd_mib = dumb_geometry(1048580);  // 262145 pixels = 4033 x 65
    EXPECT_EQ(odd_mib.width, 4033u);
    EXPECT_EQ(odd_mib.height, 65u);
    EXPECT_EQ(odd_mib.requested_bytes, 1048580u);
    // 4099 pixels, a prime: no width from 64 to 4096 divides them, so 1024
    // wide and the rows rounded up to 5.
    const DumbGeometry prime = dumb_geometry(4 * 4099);
    EXPECT_EQ(prime.width, 1024u);
    EXPECT_EQ(prime.height, 5u);
    EXPECT_EQ(prime.requested_bytes, 20480u);
    EXPECT_EQ(dumb_geometry(4).requested_bytes, 4u);
    EXPECT_EQ(dumb_geometry(3).requested_bytes, 0u);
}

TEST(DrmGem, RoundingPercent) {
    EXPECT_DOUBLE_EQ(rounding_pct(1 << 20, 1 << 20), 0);
    EXPECT_DOUBLE_EQ(rounding_pct(1 << 20, 1310720), 25);  // 002_*: a 1 MiB request in a 1.25 MiB bucket
    EXPECT_DOUBLE_EQ(rounding_pct(100, 4096), 3996);
    EXPECT_DOUBLE_EQ(rounding_pct(0, 4096), 0);
}

TEST(I915ExecNop, OverlapAsInThePatch) {
    EXPECT_DOUBLE_EQ(overlap_pct(10, 4, 10), 0);    // in series
    EXPECT_DOUBLE_EQ(overlap_pct(10, 4, 4), 100);   // all hidden behind the slowest
    EXPECT_DOUBLE_EQ(overlap_pct(10, 4, 7), 50);
    EXPECT_DOUBLE_EQ(overlap_pct(10, 4, 12), -100.0 / 3);
    EXPECT_DOUBLE_EQ(overlap_pct(5, 5, 3), 0);      // one engine: nothing to overlap
}

DrmIoctlResult ioctl_result() {
    DrmIoctlResult r;
    r.node = "/dev/dri/renderD128";
    r.driver = "vgem";
    r.version_ns = {412.25, 398, 1250.5, 377, 10000};
    r.get_cap_ns = {301.75, 290, 880, 275, 10000};
    r.loop_overhead_ns = 21.04;
    r.iterations = 10000;
    return r;
}

TEST(DrmIoctl, ReportText) {
    const std::string text = captured([](FILE* f) { print_drm_ioctl_report(ioctl_result(), f); });
    EXPECT_EQ(text,
              "node=/dev/dri/renderD128\n"
              "driver=vgem\n"
              "ioctl_ns_mean=412.2\n"  // %.1f rounds half to even on the binary value 412.25
              "ioctl_ns_median=398.0\n"
              "ioctl_ns_p99=1250.5\n"
              "ioctl_ns_min=377.0\n"
              "get_cap_ns_mean=301.8\n"
              "get_cap_ns_median=290.0\n"
              "get_cap_ns_p99=880.0\n"
              "get_cap_ns_min=275.0\n"
              "loop_overhead_ns=21.0\n"
              "iterations=10000\n");
}

TEST(DrmIoctl, ParserReadsTheReport) {
    const std::string text = captured([](FILE* f) { print_drm_ioctl_report(ioctl_result(), f); });
    const ParseResult r = parse("drm-ioctl", text);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(metrics_of(r), (std::vector<std::string>{
                                 "ioctl_mean=412.2, ns lower", "ioctl_median=398, ns lower",
                                 "ioctl_p99=1250.5, ns lower", "ioctl_min=377, ns lower",
                                 "get_cap_mean=301.8, ns lower", "get_cap_median=290, ns lower",
                                 "get_cap_p99=880, ns lower", "get_cap_min=275, ns lower",
                                 "loop_overhead=21, ns lower", "iterations=10000,  unknown"}));
    // Declared before the first run: the median first, so --target-ci tracks it.
    const auto declared = make_parser("drm-ioctl")->metrics();
    ASSERT_FALSE(declared.empty());
    EXPECT_EQ(declared.front().name, "ioctl_median");
    EXPECT_EQ(declared.front().unit, "ns");
}

TEST(DrmIoctl, ParserErrors) {
    const ParseResult bad = parse("drm-ioctl", "node=/dev/dri/renderD128\nioctl_ns_mean=fast\n");
    EXPECT_TRUE(bad.metrics.empty());
    EXPECT_NE(bad.error.find("line 2"), std::string::npos) << bad.error;
    EXPECT_NE(bad.error.find("ioctl_ns_mean=X"), std::string::npos) << bad.error;
    // A skipped child: nothing on stdout, the reason on stderr.
    const ParseResult skipped = parse("drm-ioctl", "", "gfxstat workload drm-ioctl: no DRM device found (no /dev/dri)\n");
    EXPECT_TRUE(skipped.metrics.empty());
    EXPECT_NE(skipped.error.find("stderr: \"gfxstat workload drm-ioctl: no DRM devic"), std::string::npos)
        << skipped.error;
}

DrmGemResult gem_result() {
    DrmGemResult r;
    r.node = "/dev/dri/card0";
    r.driver = "vgem";
    r.pitch = 4096;
    r.requested_bytes = 1048576;
    r.allocated_bytes = 1310720;
    r.create_us = {3.5, 3.25, 9.125, 2.5, 200};
    r.map_us = {1.5, 1.375, 2, 1, 200};
    r.write_us = {250, 245.5, 400, 240, 200};
    r.allocs_per_s = 3512.34;
    r.upload_mib_per_s = 5091.625;
    r.loop_overhead_ns = 19.5;
    r.iterations = 200;
    return r;
}

TEST(DrmGem, ReportText) {
    const std::string text = captured([](FILE* f) { print_drm_gem_report(gem_result(), f); });
    EXPECT_EQ(text,
              "node=/dev/dri/card0\n"
              "driver=vgem\n"
              "pitch=4096\n"
              "requested_bytes=1048576\n"
              "allocated_bytes=1310720\n"
              "rounding_pct=25.000\n"
              "allocs_per_s=3512.3\n"
              "upload_mib_per_s=5091.6\n"
              "create_us_median=3.250\n"
              "create_us_p99=9.125\n"
              "map_us_median=1.375\n"
              "write_us_median=245.500\n"
              "loop_overhead_ns=19.5\n"
              "iterations=200\n");
}

TEST(DrmGem, ParserReadsTheReport) {
    const std::string text = captured([](FILE* f) { print_drm_gem_report(gem_result(), f); });
    const ParseResult r = parse("drm-gem", text);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(metrics_of(r), (std::vector<std::string>{
                                 "requested=1048576, bytes unknown", "allocated=1310720, bytes lower",
                                 "rounding=25, % lower", "allocs_per_s=3512.3, allocs/s higher",
                                 "upload=5091.6, MiB/s higher", "create_median=3.25, us lower",
                                 "create_p99=9.125, us lower", "map_median=1.375, us lower",
                                 "write_median=245.5, us lower", "loop_overhead=19.5, ns lower",
                                 "iterations=200,  unknown"}));
    EXPECT_EQ(make_parser("drm-gem")->metrics().front().name, "allocs_per_s");
}

I915ExecNopResult nop_result() {
    I915ExecNopResult r;
    r.node = "/dev/dri/renderD128";
    r.driver = "i915";
    I915EngineResult rcs;
    rcs.name = "rcs0";
    rcs.batches = 594944;
    rcs.us_per_batch = 1.681;
    rcs.submit_us.median = 1.25;
    I915EngineResult bcs;
    bcs.name = "bcs0";
    bcs.batches = 800000;
    bcs.us_per_batch = 1.25;
    bcs.submit_us.median = 1.125;
    r.engines = {rcs, bcs};
    r.all_expected_us = 2.931;
    r.slowest_us = 1.681;
    r.all_parallel_us = 1.806;
    r.overlap_pct = overlap_pct(2.931, 1.681, 1.806);  // 90%
    r.burst = 8;
    r.rounds = 553000;
    r.loop_overhead_ns = 20;
    return r;
}

TEST(I915ExecNop, ReportText) {
    const std::string text = captured([](FILE* f) { print_i915_exec_nop_report(nop_result(), f); });
    EXPECT_EQ(text,
              "node=/dev/dri/renderD128\n"
              "driver=i915\n"
              "engine_rcs0_us=1.681\n"
              "engine_rcs0_batches=594944\n"
              "engine_rcs0_submit_us_median=1.250\n"
              "engine_bcs0_us=1.250\n"
              "engine_bcs0_batches=800000\n"
              "engine_bcs0_submit_us_median=1.125\n"
              "all_expected_us=2.931\n"
              "slowest_us=1.681\n"
              "burst=8\n"
              "rounds=553000\n"
              "all_parallel_us=1.806\n"
              "all_parallel_overlap_pct=90.0\n"
              "loop_overhead_ns=20.0\n");
}

TEST(I915ExecNop, ParserNamesMetricsAsIgtExecNop) {
    const std::string text = captured([](FILE* f) { print_i915_exec_nop_report(nop_result(), f); });
    const ParseResult r = parse("i915-exec-nop", text);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(metrics_of(r), (std::vector<std::string>{
                                 "rcs0=1.681, us lower", "rcs0_batches=594944,  unknown",
                                 "rcs0_submit=1.25, us lower", "bcs0=1.25, us lower",
                                 "bcs0_batches=800000,  unknown", "bcs0_submit=1.125, us lower",
                                 "all_serial=2.931, us lower", "slowest=1.681, us lower",
                                 "rounds=553000,  unknown", "all_round_8=1.806, us lower",
                                 "all_round_8_overlap=90, % higher", "loop_overhead=20, ns lower"}));
}

TEST(I915ExecNop, ParserErrors) {
    const ParseResult early = parse("i915-exec-nop", "all_parallel_us=1.8\nburst=8\n");
    EXPECT_NE(early.error.find("before a burst=N line"), std::string::npos) << early.error;
    const ParseResult bad = parse("i915-exec-nop", "engine_rcs0_us=1.6x\n");
    EXPECT_NE(bad.error.find("line 1"), std::string::npos) << bad.error;
    const ParseResult skipped = parse("i915-exec-nop", "", "gfxstat workload i915-exec-nop: no i915 device\n");
    EXPECT_NE(skipped.error.find("stderr: \"gfxstat workload i915-exec-nop: no i915"), std::string::npos)
        << skipped.error;
}

DrmDeviceInfo vgem() {
    DrmDeviceInfo d;
    d.primary = "/dev/dri/card0";
    d.render = "/dev/dri/renderD128";
    d.driver = DrmDriverInfo{"vgem", "1.0.0", "20120112", "Virtual GEM provider"};
    d.dumb_buffers = true;
    d.bus.type = "platform";
    return d;
}

std::string support_text(const DrmDeviceInfo& d) {
    std::string s;
    for (const auto& w : drm_workload_support(d))
        s += w.workload + (w.runnable ? " yes" : " no: " + w.why) + "\n";
    return s;
}

TEST(DrmDevices, WhichWorkloadsCanRun) {
    EXPECT_EQ(support_text(vgem()),
              "drm-ioctl yes\ndrm-gem yes\ni915-exec-nop no: the driver is vgem, not i915\n");

    DrmDeviceInfo locked = vgem();
    locked.driver.reset();
    locked.dumb_buffers.reset();
    locked.render_error = drm_permission_message("/dev/dri/renderD128");
    locked.primary_error = drm_permission_message("/dev/dri/card0");
    const std::string why = "no permission to open /dev/dri/renderD128 (add yourself to the video/render group)";
    EXPECT_EQ(support_text(locked), "drm-ioctl no: " + why + "\ndrm-gem no: " + why + "\ni915-exec-nop no: " + why + "\n");

    DrmDeviceInfo render_only = vgem();
    render_only.primary.clear();
    EXPECT_EQ(support_text(render_only),
              "drm-ioctl yes\ndrm-gem no: no primary node (the dumb-buffer ioctls need /dev/dri/cardN)\n"
              "i915-exec-nop no: the driver is vgem, not i915\n");

    DrmDeviceInfo card_locked = vgem();  // render group yes, video group no
    card_locked.primary_error = drm_permission_message("/dev/dri/card0");
    EXPECT_EQ(support_text(card_locked),
              "drm-ioctl yes\ndrm-gem no: no permission to open /dev/dri/card0 (add yourself to the video/render "
              "group)\ni915-exec-nop no: the driver is vgem, not i915\n");

    DrmDeviceInfo i915 = vgem();
    i915.driver->name = "i915";
    i915.dumb_buffers = false;
    EXPECT_EQ(support_text(i915),
              "drm-ioctl yes\ndrm-gem no: i915 does not support dumb buffers (DRM_CAP_DUMB_BUFFER)\n"
              "i915-exec-nop yes\n");
}

TEST(DrmDevices, FindByNode) {
    const std::vector<DrmDeviceInfo> devices{vgem()};
    EXPECT_EQ(find_drm_device(devices, "/dev/dri/renderD128"), &devices[0]);
    EXPECT_EQ(find_drm_device(devices, "/dev/dri/card0"), &devices[0]);
    EXPECT_EQ(find_drm_device(devices, "/dev/dri/card1"), nullptr);
}

int exit_code_of(const std::function<void()>& f, std::string& message) {
    try {
        f();
    } catch (const DrmWorkloadError& e) {
        message = e.what();
        return e.exit_code();
    }
    return 0;
}

TEST(DrmBadInput, DeviceThatIsNotADrmNodeIsExitTwo) {
    std::string m;
    EXPECT_EQ(exit_code_of([] { choose_drm_node("drm-ioctl", "/nonexistent/renderD128"); }, m), 2);
    EXPECT_EQ(m, "/nonexistent/renderD128 does not exist");
    EXPECT_EQ(exit_code_of([] { choose_drm_node("drm-gem", "/dev/null"); }, m), 2);
    EXPECT_EQ(m, "/dev/null is not a DRM device node (expected /dev/dri/cardN or /dev/dri/renderDN)");
    EXPECT_EQ(exit_code_of([] { choose_drm_node("drm-ioctl", GFXSTAT_SOURCE_DIR "/README.md"); }, m), 2);
    EXPECT_NE(m.find("is not a DRM device node"), std::string::npos);
    EXPECT_EQ(exit_code_of([] { run_drm_ioctl({"/dev/null", 10}); }, m), 2);
    EXPECT_EQ(exit_code_of([] { run_i915_exec_nop({"/dev/null", 1, 8}); }, m), 2);
}

TEST(DrmBadInput, BadOptionsAreExitTwoBeforeAnyDevice) {
    std::string m;
    EXPECT_EQ(exit_code_of([] { run_drm_ioctl({"", 0}); }, m), 2);
    EXPECT_EQ(exit_code_of([] { run_drm_gem({"", 6, 10}); }, m), 2);
    EXPECT_NE(m.find("multiple of 4"), std::string::npos) << m;
    EXPECT_EQ(exit_code_of([] { run_drm_gem({"", 1 << 20, 0}); }, m), 2);
    EXPECT_EQ(exit_code_of([] { run_i915_exec_nop({"", 1, 0}); }, m), 2);
    EXPECT_EQ(exit_code_of([] { run_i915_exec_nop({"", 0, 8}); }, m), 2);
}

TEST(DrmBadInput, NoDeviceIsASkip) {
    if (std::filesystem::exists("/dev/dri")) GTEST_SKIP() << "this machine has /dev/dri";
    EXPECT_TRUE(list_drm_devices().empty());
    std::string m;
    EXPECT_EQ(exit_code_of([] { choose_drm_node("drm-ioctl", ""); }, m), 77);
    EXPECT_EQ(m, "no DRM device found (no /dev/dri)");
    EXPECT_EQ(exit_code_of([] { run_drm_gem({}); }, m), 77);
    EXPECT_EQ(exit_code_of([] { run_i915_exec_nop({}); }, m), 77);
    EXPECT_EQ(m, "no i915 device (no DRM device found)");
}

}  // namespace
}  // namespace gfxstat::drivers
