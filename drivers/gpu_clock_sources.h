// SPDX-License-Identifier: MIT
// Which files the GPU clock sampler reads on this machine: the GPU's actual
// and requested frequency and its throttle reasons (i915, xe), its current
// shader-clock level and gpu_metrics throttle status (amdgpu), and the CPU package temperature (hwmon
// coretemp or k10temp, else the x86_pkg_temp thermal zone). Found before a
// loop's first run, and again when its environment probe sees other
// devices (drivers/environment_probe.h); all paths lie under system_root().
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gfxstat::drivers {

enum class GpuClockDriver { none, i915, xe, amdgpu };

struct GpuClockSources {
    // The first card (by number) that has a frequency or throttle file:
    // gfxstat does not know which card a workload renders on, and a
    // machine with two GPUs usually runs its tests on card0.
    std::string gpu;  // "card0"; "" when no GPU source was found
    GpuClockDriver driver = GpuClockDriver::none;
    std::string actual_freq;     // i915 gt_act_freq_mhz, xe act_freq, amdgpu pp_dpm_sclk
    std::string requested_freq;  // i915 gt_cur_freq_mhz, xe cur_freq; "" for amdgpu
    std::vector<std::pair<std::string, std::string>> reasons;  // (reason, path), sorted by reason
    std::string throttle_status;  // i915 throttle_reason_status, xe throttle/status; "" when absent
    // amdgpu device/gpu_metrics, when its layout is one gfxstat reads and
    // it reports a throttle status (its current_gfxclk is the actual
    // frequency when pp_dpm_sclk is absent).
    std::string gpu_metrics;
    // Millidegrees C, as hwmon temp*_input and thermal_zone*/temp give it.
    std::string cpu_package_temp;
    bool empty() const {
        return actual_freq.empty() && requested_freq.empty() && reasons.empty() && throttle_status.empty() &&
               gpu_metrics.empty() && cpu_package_temp.empty();
    }
};

// Looks under `root` ("" for the real machine, as system_root() gives it).
// A file that exists but cannot be read now is left out. Never throws.
GpuClockSources find_gpu_clock_sources(const std::string& root);

// The CPU package temperature file alone: hwmon "coretemp" with the
// temp<N>_label "Package id 0", hwmon "k10temp" with "Tctl", else the
// thermal zone of type "x86_pkg_temp". "" when none.
std::string find_cpu_package_temp(const std::string& root);

}  // namespace gfxstat::drivers
