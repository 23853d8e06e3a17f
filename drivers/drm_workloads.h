// SPDX-License-Identifier: MIT
// gfxstat's native DRM workloads, run as `gfxstat workload NAME --device
// NODE` children of `gfxstat run --workload NAME` (docs/workloads.md):
//
//   drm-ioctl      round-trip latency of cheap ioctls (DRM_IOCTL_VERSION
//                  with zero-length buffers, DRM_IOCTL_GET_CAP): the cost of
//                  a system call into DRM, with page-table isolation and all.
//   drm-gem        dumb buffers: create, map (MAP_DUMB + mmap), write the
//                  whole buffer, unmap, destroy; allocations per second,
//                  upload MiB/s, and the size the kernel allocated against
//                  the size asked for.
//   i915-exec-nop  gem_exec_nop: MI_BATCH_BUFFER_END batches per engine,
//                  then round-robin over all engines, and the overlap.
//
// Every iteration is timed with CLOCK_MONOTONIC_RAW; the loop's own cost
// (the same clock reads around nothing) is measured and reported, not
// subtracted. Each workload prints a `key=value` report (the print_*
// functions) read by the parser of the same name (output_parsers.h).
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "drivers/timing_summary.h"

namespace gfxstat::drivers {

// Why a workload could not run: the message names the node and the ioctl.
// exit_code: 2 a bad --device (missing, not a DRM node); 77 this machine
// cannot run it (no device, no permission, the driver refuses the ioctl);
// 1 an ioctl failed otherwise (ENOMEM, ...).
class DrmWorkloadError : public std::runtime_error {
public:
    DrmWorkloadError(int exit_code, const std::string& message) : std::runtime_error(message), exit_code_(exit_code) {}
    int exit_code() const { return exit_code_; }

private:
    int exit_code_;
};

// Median cost, in ns, of two back-to-back CLOCK_MONOTONIC_RAW reads over
// `iterations` tries (1 to 100000): the overhead every timed iteration
// carries.
double clock_loop_overhead_ns(uint64_t iterations);

// The node a workload runs on: `requested` when given (checked to be a DRM
// node), else the first device's render node (drm-ioctl, i915-exec-nop:
// the first i915 device) or primary node (drm-gem). Throws DrmWorkloadError:
// 2 "NODE does not exist", "NODE is not a DRM device node"; 77 "no DRM
// device found", "no i915 device". Opening is the workload's own business.
std::string choose_drm_node(const std::string& workload, const std::string& requested);

// ---- drm-ioctl

struct DrmIoctlOptions {
    std::string device;            // "" : choose_drm_node
    uint64_t iterations = 10000;   // of each ioctl (> 0)
};

struct DrmIoctlResult {
    std::string node, driver;
    TimingSummary version_ns;   // DRM_IOCTL_VERSION, zero-length buffers
    TimingSummary get_cap_ns;   // DRM_IOCTL_GET_CAP(DRM_CAP_TIMESTAMP_MONOTONIC)
    double loop_overhead_ns = 0;
    uint64_t iterations = 0;
};

DrmIoctlResult run_drm_ioctl(const DrmIoctlOptions& options);

// "node=NODE", "driver=NAME", then ioctl_ns_mean, ioctl_ns_median,
// ioctl_ns_p99, ioctl_ns_min (DRM_IOCTL_VERSION), get_cap_ns_mean,
// get_cap_ns_median, get_cap_ns_p99, get_cap_ns_min, loop_overhead_ns
// (printf "%.1f") and iterations ("%llu"), each "key=value\n".
void print_drm_ioctl_report(const DrmIoctlResult& r, FILE* out);

// ---- drm-gem

struct DrmGemOptions {
    std::string device;          // "" : choose_drm_node ("drm-gem")
    uint64_t size = 1 << 20;     // bytes asked for per buffer (>= 4, a multiple of 4)
    uint64_t iterations = 200;   // buffers created (> 0)
};

// The dumb-buffer geometry for `size` bytes at 32 bpp (size/4 pixels):
// 1024 pixels wide when that divides them; else the widest exact width
// from 4096 down to 64 pixels; else min(1024, pixels) wide with the rows
// rounded up. Height = ceil(size / (4*width)). The request is
// width*height*4 bytes: `size` itself unless the rows were rounded up.
struct DumbGeometry {
    uint32_t width = 0, height = 0, bpp = 32;
    uint64_t requested_bytes = 0;
};
DumbGeometry dumb_geometry(uint64_t size);

// Why `size` cannot be a drm-gem --size ("" when it can): a multiple of 4
// bytes, and the buffer (with rows rounded up) at most 0xFFFFF000 bytes,
// the largest that the kernel's dumb-buffer size (u32, page aligned) holds.
// Shared by `gfxstat run` (checked before anything is written) and the
// workload itself.
std::string drm_gem_size_problem(uint64_t size);

struct DrmGemResult {
    std::string node, driver;
    uint64_t requested_bytes = 0;   // width*height*bpp/8
    uint64_t allocated_bytes = 0;   // the kernel's `size` (largest seen)
    uint32_t pitch = 0;             // the kernel's `pitch`
    TimingSummary create_us;        // DRM_IOCTL_MODE_CREATE_DUMB
    TimingSummary map_us;           // MAP_DUMB + mmap
    TimingSummary write_us;         // memset of the whole buffer (first touch)
    TimingSummary cycle_us;         // create through destroy
    double allocs_per_s = 0;        // 1e6 / cycle_us.mean
    double upload_mib_per_s = 0;    // allocated bytes / write_us.median, MiB/s
    double loop_overhead_ns = 0;
    uint64_t iterations = 0;
};

DrmGemResult run_drm_gem(const DrmGemOptions& options);

// (allocated - requested) / requested * 100; 0 when requested is 0.
double rounding_pct(uint64_t requested, uint64_t allocated);

// "node=", "driver=", "pitch=", then requested_bytes, allocated_bytes
// ("%llu"), rounding_pct ("%.3f"), allocs_per_s ("%.1f"), upload_mib_per_s
// ("%.1f"), create_us_median, create_us_p99, map_us_median,
// write_us_median ("%.3f"), loop_overhead_ns ("%.1f"), iterations ("%llu").
void print_drm_gem_report(const DrmGemResult& r, FILE* out);

// ---- i915-exec-nop

struct I915ExecNopOptions {
    std::string device;       // "" : the first i915 device
    double duration_s = 1;    // per engine, and for the round-robin pass (> 0)
    unsigned burst = 8;       // batches per engine per round-robin turn (>= 1)
};

struct I915EngineResult {
    std::string name;            // "rcs0", "bcs0", "vcs0", "vcs1", "vecs0"
    uint64_t batches = 0;
    double us_per_batch = 0;     // elapsed (last batch completed) / batches
    TimingSummary submit_us;     // each DRM_IOCTL_I915_GEM_EXECBUFFER2
};

struct I915ExecNopResult {
    std::string node, driver;
    std::vector<I915EngineResult> engines;
    double all_expected_us = 0;  // sum of the engines' us_per_batch: one batch on each, in series
    double slowest_us = 0;       // the largest us_per_batch
    double all_parallel_us = 0;  // elapsed / rounds when round-robin (one batch on each engine per round)
    double overlap_pct = 0;      // overlap_pct(all_expected_us, slowest_us, all_parallel_us)
    unsigned burst = 0;
    uint64_t rounds = 0;
    double loop_overhead_ns = 0;
};

// 100 * (serial - parallel) / (serial - slowest): 0 when the engines ran
// in series, 100 when everything overlapped the slowest engine's time (000_*
// PATCH 2/2, with the parallel time per round of one batch on each engine).
// 0 when serial == slowest (one engine).
double overlap_pct(double serial_us, double slowest_us, double parallel_us);

I915ExecNopResult run_i915_exec_nop(const I915ExecNopOptions& options);

// "node=", "driver=", then per engine "engine_NAME_us=" ("%.3f"),
// "engine_NAME_batches=" ("%llu"), "engine_NAME_submit_us_median=" ("%.3f");
// then all_expected_us, slowest_us ("%.3f"), burst, rounds ("%u", "%llu"),
// all_parallel_us ("%.3f"), all_parallel_overlap_pct ("%.1f"),
// loop_overhead_ns ("%.1f"). burst comes first: the parser names the
// parallel metrics after it (all_parallel_8).
void print_i915_exec_nop_report(const I915ExecNopResult& r, FILE* out);

}  // namespace gfxstat::drivers
