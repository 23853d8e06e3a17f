// SPDX-License-Identifier: MIT
// Where this machine's tunable performance settings are in sysfs: the CPU
// frequency governors, the turbo/boost switches, and each GPU's frequency
// controls (i915, xe, amdgpu). Shared by the pre-measure check (which reads
// them) and `gfxstat tune` (which writes them). Paths are the machine's own
// ("/sys/..."): the reader prefixes system_root(), the tune state file keeps
// them as they are, so that a saved state names the real files.
#pragma once

#include <string>
#include <vector>

namespace gfxstat::drivers {

struct CpuGovernor {
    unsigned cpu = 0;
    std::string path;            // .../cpuN/cpufreq/scaling_governor
    std::string available_path;  // .../cpuN/cpufreq/scaling_available_governors
};

// A switch that turns turbo/boost off by writing `off`.
struct TurboSwitch {
    std::string name;  // "intel_pstate no_turbo", "cpufreq boost", "cpufreq policy0 boost"
    std::string path;
    std::string off;   // "1" for no_turbo, "0" for boost
};

// One GT's frequency range: i915's card-level gt_*_freq_mhz (the first GT),
// or an xe tileT/gtG/freq0 directory. All values in MHz.
struct GpuFrequency {
    std::string card;    // "card0"
    std::string driver;  // "i915", "xe"
    std::string name;    // "card0", "card2 tile0/gt0"
    std::string min_path, max_path;
    std::string boost_path;  // i915 only; "" for xe
    std::string rp0_path;    // the highest frequency the hardware allows
    std::string rp1_path;    // i915 RP1, xe rpe_freq: the efficient one
    std::string rpn_path;    // the lowest
};

// amdgpu's device/power_dpm_force_performance_level.
struct AmdgpuLevel {
    std::string card;
    std::string path;
};

struct Tunables {
    std::vector<CpuGovernor> governors;  // by CPU number
    std::vector<TurboSwitch> turbo;
    std::vector<GpuFrequency> gpus;      // by card number, then tile and GT
    std::vector<AmdgpuLevel> amdgpu;     // by card number
    bool empty() const { return governors.empty() && turbo.empty() && gpus.empty() && amdgpu.empty(); }
};

// Which of the files above exist under system_root() (existing means they
// can be read). Never throws for a missing or unreadable source.
Tunables find_tunables();

// true for a min-frequency file whose max sibling is `max_sibling_of`:
// "gt_min_freq_mhz" / "gt_max_freq_mhz", "freq0/min_freq" / "freq0/max_freq".
// Writes of such a pair must keep min <= max at every step, or the kernel
// refuses them.
bool is_min_frequency_file(const std::string& path);
std::string max_sibling_of(const std::string& min_path);

// "0-1,3" for CPUs {0, 1, 3}.
std::string cpu_ranges(const std::vector<unsigned>& cpus);

// Whether `path` is a file gfxstat tune itself writes (a governor, a turbo
// switch, an i915/xe frequency limit, amdgpu's performance level), spelled
// as find_tunables spells it: no ".", "..", empty components or other
// attributes. A state file's paths are written back only when they are.
bool is_tunable_path(const std::string& path);

}  // namespace gfxstat::drivers
