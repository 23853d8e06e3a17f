// SPDX-License-Identifier: MIT
// What the GPU clock sampler saw during one run (drivers/gpu_clock_sampler.h):
// how often the GPU was throttled, how fast it actually ran against what was
// asked of it, and how hot the CPU package got. A run record holds one only
// when some source was sampled; each field is absent when its source was.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gfxstat::data {

struct ThrottleRecord {
    uint64_t samples = 0;             // ticks taken, the first at the start and one at the end
    uint64_t interval_ms = 50;        // the planned time between ticks
    // Share of ticks at which a throttle reason was set (0 to 1); absent
    // when no throttle source was read.
    std::optional<double> throttled_share;
    std::vector<std::string> reasons;  // every reason seen set, sorted ("pl1", "thermal")
    std::optional<double> gpu_freq_min_mhz, gpu_freq_mean_mhz;  // actual frequency
    std::optional<double> gpu_freq_requested_mean_mhz;           // requested (cur) frequency
    std::optional<double> cpu_package_temp_max_c;
    std::string gpu;  // the card sampled ("card0"); "" when no GPU source
    // Members a newer gfxstat wrote (name, JSON text), kept verbatim.
    std::vector<std::pair<std::string, std::string>> unknown;
    bool operator==(const ThrottleRecord&) const = default;
};

// A run is throttled when a throttle reason was set at some tick.
inline bool is_throttled(const ThrottleRecord& t) { return t.throttled_share && *t.throttled_share > 0; }

}  // namespace gfxstat::data
