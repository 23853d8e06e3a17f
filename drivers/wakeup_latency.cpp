// SPDX-License-Identifier: MIT
// Timer wake-up latency, cyclictest-style: absolute CLOCK_MONOTONIC
// deadlines start + k*interval, slept to with clock_nanosleep(TIMER_ABSTIME),
// the lateness of each wake-up recorded. Background load is busy threads.
#include "drivers/wakeup_latency.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "drivers/timing_summary.h"

namespace gfxstat::drivers {
namespace {

int64_t monotonic_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void sleep_until_ns(int64_t deadline) {
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(deadline / 1'000'000'000);
    ts.tv_nsec = static_cast<long>(deadline % 1'000'000'000);
    // clock_nanosleep returns the error number; with an absolute deadline a
    // signal handler interrupting it is simply retried.
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
}

// Busy threads for the lifetime of the object: started by the constructor,
// stopped and joined by the destructor (also when measuring throws).
class BusyLoad {
public:
    explicit BusyLoad(int threads) {
        try {
            for (int i = 0; i < threads; ++i)
                threads_.emplace_back([this] {
                    volatile uint64_t spins = 0;
                    while (!stop_.load(std::memory_order_relaxed)) spins = spins + 1;
                });
        } catch (...) {
            stop();
            throw;
        }
    }
    ~BusyLoad() { stop(); }
    BusyLoad(const BusyLoad&) = delete;
    BusyLoad& operator=(const BusyLoad&) = delete;

private:
    void stop() {
        stop_.store(true, std::memory_order_relaxed);
        for (auto& t : threads_)
            if (t.joinable()) t.join();
        threads_.clear();
    }
    std::atomic<bool> stop_{false};
    std::vector<std::thread> threads_;
};

// wakeups, mean, median, p99 (R's quantile type 7) and max of latencies_us.
void summarize(WakeupResult& r) {
    const TimingSummary t = summarize_times(r.latencies_us);
    r.wakeups = t.count;
    r.mean_us = t.mean;
    r.median_us = t.median;
    r.p99_us = t.p99;
    r.max_us = t.max;
}

}  // namespace

WakeupResult measure_wakeups(const WakeupOptions& options) {
    if (!(options.interval_us > 0) || !std::isfinite(options.interval_us))
        throw std::invalid_argument("wakeup-latency: the interval must be a positive number of microseconds");
    if (!(options.duration_s >= 0) || !std::isfinite(options.duration_s))
        throw std::invalid_argument("wakeup-latency: the duration must be a non-negative number of seconds");
    if (options.load_threads < 0)
        throw std::invalid_argument("wakeup-latency: the number of load threads must not be negative");

    const int64_t interval_ns = std::max<int64_t>(1, std::llround(options.interval_us * 1e3));
    const int64_t duration_ns = std::llround(options.duration_s * 1e9);
    const int64_t expected = duration_ns / interval_ns;

    WakeupResult r;
    r.latencies_us.reserve(static_cast<size_t>(expected));  // no allocation while measuring
    {
        BusyLoad load(options.load_threads);
        const int64_t start = monotonic_ns();
        // Deadlines start + k*interval for k = 1 .. expected.
        for (int64_t k = 1; k <= expected;) {
            const int64_t deadline = start + k * interval_ns;
            sleep_until_ns(deadline);
            const int64_t woke = monotonic_ns();
            r.latencies_us.push_back(static_cast<double>(woke - deadline) / 1e3);
            // The next deadline still ahead of us: deadlines a late wake-up
            // overslept are skipped, not recorded as a burst of lateness.
            k = std::max(k + 1, (woke - start) / interval_ns + 1);
        }
    }
    summarize(r);
    return r;
}

void print_wakeup_report(const WakeupResult& r, FILE* out) {
    std::fprintf(out,
                 "latency_mean_us=%.3f\n"
                 "latency_median_us=%.3f\n"
                 "latency_p99_us=%.3f\n"
                 "latency_max_us=%.3f\n"
                 "wakeups=%llu\n",
                 r.mean_us, r.median_us, r.p99_us, r.max_us,
                 static_cast<unsigned long long>(r.wakeups));
}

}  // namespace gfxstat::drivers
