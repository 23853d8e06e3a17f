// SPDX-License-Identifier: MIT
#include "drivers/gpu_clock_sources.h"

#include "drivers/amdgpu_gpu_metrics.h"
#include "drivers/gpu_sysfs.h"

namespace gfxstat::drivers {

namespace {

// Only files that read cleanly now are sampled: an attribute that answers
// EIO (a GT asleep without a readable counter) would fail every tick. A
// package temperature below 0 C is no machine running a benchmark.
bool readable_number(const std::string& path) { return read_sysfs_unsigned(path).has_value(); }

// The frequency and throttle files of one card, or nothing.
GpuClockSources card_sources(const std::string& dir) {
    GpuClockSources s;
    if (readable_number(i915_freq_file(dir, "act")) || readable_number(i915_freq_file(dir, "cur"))) {
        s.driver = GpuClockDriver::i915;
        if (readable_number(i915_freq_file(dir, "act"))) s.actual_freq = i915_freq_file(dir, "act");
        if (readable_number(i915_freq_file(dir, "cur"))) s.requested_freq = i915_freq_file(dir, "cur");
    } else if (readable_number(xe_freq_file(dir, "act")) || readable_number(xe_freq_file(dir, "cur"))) {
        s.driver = GpuClockDriver::xe;
        if (readable_number(xe_freq_file(dir, "act"))) s.actual_freq = xe_freq_file(dir, "act");
        if (readable_number(xe_freq_file(dir, "cur"))) s.requested_freq = xe_freq_file(dir, "cur");
    }
    // Throttle files of the driver the frequencies named, else whichever
    // exists (a kernel may expose one and not the other).
    for (const ThrottleFiles& t : {i915_throttle_files(dir), xe_throttle_files(dir)}) {
        const bool xe_files = t.prefix == "reason_";
        if (s.driver == GpuClockDriver::i915 && xe_files) continue;
        if (s.driver == GpuClockDriver::xe && !xe_files) continue;
        for (auto& [reason, path] : throttle_reason_files(t))
            if (readable_number(path)) s.reasons.emplace_back(reason, path);
        const std::string status = t.dir + "/" + t.status_file;
        if (readable_number(status)) s.throttle_status = status;
        if (!s.reasons.empty() || !s.throttle_status.empty()) {
            if (s.driver == GpuClockDriver::none) s.driver = xe_files ? GpuClockDriver::xe : GpuClockDriver::i915;
            break;
        }
    }
    if (s.driver == GpuClockDriver::none) {
        const std::string sclk = amdgpu_sclk_file(dir);
        if (auto text = read_sysfs_text(sclk); text && current_sclk_mhz(*text)) {
            s.driver = GpuClockDriver::amdgpu;
            s.actual_freq = sclk;
        }
        const std::string metrics = amdgpu_gpu_metrics_file(dir);
        if (auto bytes = read_sysfs_text(metrics, 4096))
            if (auto m = parse_gpu_metrics(*bytes); m && (m->throttle_status || m->current_gfxclk_mhz)) {
                s.driver = GpuClockDriver::amdgpu;
                s.gpu_metrics = metrics;
            }
    }
    return s;
}

}  // namespace

std::string find_cpu_package_temp(const std::string& root) {
    const std::string hwmon = root + "/sys/class/hwmon";
    for (const auto& [n, name] : numbered_entries(hwmon, "hwmon")) {
        (void)n;
        const std::string dir = hwmon + "/" + name;
        const auto chip = read_sysfs_trimmed(dir + "/name");
        if (!chip) continue;
        // coretemp's package sensor is labelled "Package id <N>": the first
        // package (the one with id 0) stands for the machine; k10temp's
        // control temperature Tctl is what AMD's boost logic acts on.
        const char* wanted = *chip == "coretemp" ? "Package id 0" : *chip == "k10temp" ? "Tctl" : nullptr;
        if (!wanted) continue;
        // temp<N>_label / temp<N>_input: numbered_entries cannot list
        // them (the name goes on after the digits), so try N = 1..64.
        for (int i = 1; i <= 64; ++i) {
            const std::string base = dir + "/temp" + std::to_string(i);
            const auto l = read_sysfs_trimmed(base + "_label");
            if (!l || *l != wanted) continue;
            if (readable_number(base + "_input")) return base + "_input";
        }
    }
    const std::string thermal = root + "/sys/class/thermal";
    for (const auto& [n, name] : numbered_entries(thermal, "thermal_zone")) {
        (void)n;
        const std::string dir = thermal + "/" + name;
        if (read_sysfs_trimmed(dir + "/type") != "x86_pkg_temp") continue;
        if (readable_number(dir + "/temp")) return dir + "/temp";
    }
    return "";
}

GpuClockSources find_gpu_clock_sources(const std::string& root) {
    GpuClockSources out;
    try {
        const std::string drm = root + "/sys/class/drm";
        for (const auto& [n, name] : numbered_entries(drm, "card")) {
            (void)n;
            GpuClockSources s = card_sources(drm + "/" + name);
            if (s.driver == GpuClockDriver::none) continue;
            s.gpu = name;
            out = std::move(s);
            break;
        }
        out.cpu_package_temp = find_cpu_package_temp(root);
    } catch (...) {
        // Allocation only: a run without a sampler is still a run.
    }
    return out;
}

}  // namespace gfxstat::drivers
