// SPDX-License-Identifier: MIT
// The built-in CPU workload, so that the main job runs on any machine:
// timer wake-up latency, as cyclictest measures it. A thread sleeps until
// an absolute CLOCK_MONOTONIC deadline again and again and records how late
// it woke; optional background load (busy threads) shows the effect of a
// loaded machine, the "unladen baseline" against "background load"
// experiment of the gem_syslatency threads, on the CPU.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

namespace gfxstat::drivers {

struct WakeupOptions {
    double duration_s = 1;     // measuring time of one run (>= 0)
    double interval_us = 1000; // period between deadlines (> 0)
    int load_threads = 0;      // busy-looping background threads (>= 0)
};

struct WakeupResult {
    std::vector<double> latencies_us;  // one per wake-up, in order
    // Over latencies_us: arithmetic mean, maximum, and R's quantile type 7
    // at 0.99 and 0.5. All 0 when there was no wake-up.
    double mean_us = 0, max_us = 0, p99_us = 0, median_us = 0;
    uint64_t wakeups = 0;  // latencies_us.size()
};

// Measures on the calling thread, which sleeps with
// clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to the deadlines
// start + k*interval (k = 1, 2, ... while k*interval <= duration) and
// records (CLOCK_MONOTONIC after waking - deadline) in microseconds, so
// duration/interval wake-ups when none is late. A wake-up later than the
// next deadline is recorded once and the deadlines it overslept are
// skipped (no catch-up burst). `load_threads` threads spin on a shared
// atomic stop flag from before the first deadline until after the last
// wake-up; they are stopped and joined before this returns (or throws).
// Throws std::invalid_argument for an interval <= 0, a negative duration,
// a non-finite value or a negative thread count.
WakeupResult measure_wakeups(const WakeupOptions& options);

// The lines `gfxstat workload wakeup-latency` prints and the
// `wakeup-latency` parser reads, in this order, each "name=value\n":
// latency_mean_us, latency_median_us, latency_p99_us, latency_max_us
// (printf "%.3f", microseconds), then wakeups (an integer, "%llu").
void print_wakeup_report(const WakeupResult& r, FILE* out);

}  // namespace gfxstat::drivers
