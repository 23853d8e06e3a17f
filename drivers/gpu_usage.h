// SPDX-License-Identifier: MIT
// A run's GPU time and GPU memory from DRM fdinfo (the kernel's
// Documentation/gpu/drm-usage-stats.rst), summed over the DRM clients the
// workload's processes held: what `time` is for the CPU, for the GPU.
//
// The sampler (gpu_usage_sampler.h) hands every sample, the DRM files of
// the workload's process tree at one moment, to GpuUsageTotals, which
// keeps per client (a DRM file: its device and client id; a client seen
// through several fds or processes, dup'd or inherited, counts once):
//   - the latest cumulative drm-engine-<name> ns and drm-cycles-<name>,
//     so a client that closed keeps what it had at its last sample;
//   - a baseline to subtract: zero for a client the workload opened, its
//     values at first sight for one that existed before the run (received
//     from another process: a compositor's or logind's fd), whose earlier
//     work is not the run's. A client is taken for one that existed before
//     when, at first sight, one of its engines has more busy time than
//     the time since the workload started times the engine's capacity
//     (drm-engine-capacity-<name>, how many engines share the figure; 1
//     when absent): no client opened during the run can have earned that.
//     (The workload starts with no DRM file: the process runner closes
//     every inherited descriptor.) Only engine time can tell: a client
//     that reports cycles alone (xe) counts from zero.
//   - per sample, the sum over clients of drm-resident-* (all regions) and
//     of drm-total-*, whose largest over the samples is the peak.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "data/results_model.h"
#include "drivers/drm_fdinfo.h"

namespace gfxstat::drivers {

// One per-run metric: name, unit, direction, value.
struct GpuUsageMetric {
    std::string name;       // gpu_render_busy, gpu_gfx_cycles, gpu_memory_resident_peak
    std::string unit;       // "ms", "cycles", "KiB"
    data::Direction direction = data::Direction::lower_is_better;
    double value = 0;
};

class GpuUsageTotals {
public:
    // One sample: the DRM files of the workload's processes (several
    // entries may be one client), `elapsed_ns` after the workload started.
    void add_sample(const std::vector<DrmClient>& files, uint64_t elapsed_ns);

    // The run's metrics, engines in name order, then memory; only what
    // some client reported: empty when no client had an engine, cycles or
    // memory key (no DRM file, a kernel without fdinfo stats).
    //   gpu_<engine>_busy          ms      growth of drm-engine-<engine>, summed over clients
    //   gpu_<engine>_cycles        cycles  growth of drm-cycles-<engine>, summed
    //   gpu_memory_resident_peak   KiB     largest per-sample sum of drm-resident-*
    //   gpu_memory_total_peak      KiB     largest per-sample sum of drm-total-*
    std::vector<GpuUsageMetric> metrics() const;

    size_t samples() const { return samples_; }
    size_t clients() const { return clients_.size(); }

private:
    struct Client {
        std::map<std::string, uint64_t> ns, cycles;            // latest seen
        std::map<std::string, uint64_t> base_ns, base_cycles;  // subtracted
    };
    std::map<std::string, Client> clients_;  // by client_key
    uint64_t resident_peak_ = 0, total_peak_ = 0;
    bool resident_seen_ = false, total_seen_ = false;
    size_t samples_ = 0;
};

// What identifies a client across fds and processes: driver, device and
// client id; without a client id (kernels before 5.19 print none) the
// process and fd, which cannot be told apart from a dup.
std::string client_key(const DrmClient& file);

// An fdinfo engine or region name as part of a metric name: lower case,
// every character outside [a-z0-9_] an '_' ("video-enhance" ->
// "video_enhance"); "" stays "".
std::string metric_safe(const std::string& name);

// Whether `name` is one GpuUsageTotals produces (gpu_*_busy,
// gpu_*_cycles, gpu_memory_*_peak): such metrics are never the one the
// stop rule tracks by default (default_tracked), since they measure the
// run, not what the workload is run for.
bool is_gpu_usage_metric(const std::string& name);

// `metrics` without those is_gpu_usage_metric names; nothing when there
// are none of them, or when they are all there is.
std::optional<std::vector<data::MetricInfo>> gpu_usage_metrics_left_out(const std::vector<data::MetricInfo>& metrics);

}  // namespace gfxstat::drivers
