// SPDX-License-Identifier: MIT
// Summaries of a workload's per-iteration times, shared by the built-in
// workloads (wakeup latency, the native DRM ones).
#pragma once

#include <cstdint>
#include <span>

namespace gfxstat::drivers {

// In the unit the times were given in: mean, median and 99th percentile
// (R's quantile type 7), minimum and maximum. All 0 for no sample.
struct TimingSummary {
    double mean = 0, median = 0, p99 = 0, min = 0, max = 0;
    uint64_t count = 0;
};
TimingSummary summarize_times(std::span<const double> values);

}  // namespace gfxstat::drivers
