// SPDX-License-Identifier: MIT
// Samples the GPU time and memory of a running workload from DRM fdinfo:
// started when the workload has started (ProcessSpec::on_started), it
// reads, every interval (10 Hz by default; the first ticks closer, at
// 10, 30, 70 and 150 ms, so that a short workload is seen), the fdinfo of every DRM file
// of the workload's process tree (drivers/process_tree.h, from the real
// /proc) and hands the sample to GpuUsageTotals (drivers/gpu_usage.h);
// stopped right after the workload ends.
//
// The last sample of a client is the last one taken while it was open: a
// process's files are closed before it can be reaped, so nothing is left
// to read once the workload has ended, and the busy time of each client's
// last interval (at most one interval) is not seen. The figures are thus
// lower bounds, by about the same amount for every run of a workload.
//
// Cost: per tick, reads of the tree's own /proc files (stat, children,
// fd links, DRM fdinfo), independent of the machine's other processes;
// cost() tells the sampler thread's CPU time (bench/gpu_usage_sampler.sh).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "data/results_model.h"
#include "data/results_writer.h"
#include "drivers/gpu_usage.h"

namespace gfxstat::drivers {

class GpuUsageSampler {
public:
    explicit GpuUsageSampler(double interval_s = 0.1);
    ~GpuUsageSampler();  // stops a running watch and ends the thread
    GpuUsageSampler(const GpuUsageSampler&) = delete;
    GpuUsageSampler& operator=(const GpuUsageSampler&) = delete;

    // Starts sampling the tree of `pid`, the first sample 10 ms later, on
    // the sampler's thread: started at the first call and kept, waiting,
    // between watches, so that a loop of runs starts one thread, not one
    // per run. Never throws: when no thread can be started nothing is
    // sampled (the run goes on; its GPU figures are then absent). A second
    // start before stop() is ignored.
    void start(int pid) noexcept;

    // Stops the watch (after the sample in progress) and returns what it
    // saw; start() may then watch another process.
    GpuUsageTotals stop();

    struct Cost {
        size_t ticks = 0;            // samples taken
        uint64_t cpu_ns = 0;         // the sampler thread's CPU time, all ticks
        size_t processes = 0;        // processes read, all ticks
        size_t drm_files = 0;        // DRM files read, all ticks
        size_t most_processes = 0;   // the largest tree one tick saw
        bool scanned_all = false;    // some tick read all of /proc (no children files)
    };
    // Of the last watch, valid after stop().
    Cost cost() const { return cost_; }

private:
    void loop();            // the thread: waits for a watch, runs it, again
    void watch(int pid);    // one watch, until stop()

    double interval_s_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable wake_;  // to the thread: a watch, its end, the end of the thread
    std::condition_variable done_;  // to stop(): the watch is over
    int pid_ = 0;
    bool watching_ = false;  // from start() until the thread has finished the watch
    bool stopping_ = false;  // stop() asks the watch to end
    bool quitting_ = false;  // the destructor asks the thread to end
    GpuUsageTotals totals_;
    Cost cost_;
};

// Whether this machine has a DRM device at all (an entry card<N> or
// renderD<N> in the real /sys/class/drm, whatever system_root() says: the
// workload's processes are real). Without one no process can hold a DRM
// file, and runs need no sampler.
bool machine_has_drm_devices();

// Adds the run's GPU metrics (GpuUsageTotals::metrics) to `rec`, declared
// with their unit and direction, not primary: by-products of the run, as
// `time`'s max_rss. A name the run's parser already gave the run, or one
// the file declares otherwise (another unit), is left out.
void add_gpu_usage_metrics(const std::vector<GpuUsageMetric>& metrics, data::RunRecord& rec,
                           data::ResultsAppender& appender);

}  // namespace gfxstat::drivers
