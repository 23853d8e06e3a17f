// SPDX-License-Identifier: MIT
// The wake-up latency workload: real timer sleeps (short ones), summaries
// recomputed here from the recorded latencies, and the report's exact text.
#include "drivers/wakeup_latency.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace gfxstat::drivers {
namespace {

// R's quantile(x, p, type = 7), written out independently of analysis/.
double quantile7(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const double h = (static_cast<double>(v.size()) - 1) * p;
    const size_t lo = static_cast<size_t>(std::floor(h));
    if (lo + 1 >= v.size()) return v.back();
    return v[lo] + (h - static_cast<double>(lo)) * (v[lo + 1] - v[lo]);
}

void expect_consistent(const WakeupResult& r) {
    const auto& v = r.latencies_us;
    ASSERT_FALSE(v.empty());
    EXPECT_EQ(r.wakeups, v.size());
    double sum = 0;
    for (double x : v) {
        EXPECT_GE(x, 0.0);
        sum += x;
    }
    const double tol = 1e-9 * (1 + *std::max_element(v.begin(), v.end()));
    EXPECT_NEAR(r.mean_us, sum / static_cast<double>(v.size()), tol);
    EXPECT_EQ(r.max_us, *std::max_element(v.begin(), v.end()));
    EXPECT_NEAR(r.median_us, quantile7(v, 0.5), tol);
    EXPECT_NEAR(r.p99_us, quantile7(v, 0.99), tol);
    EXPECT_LE(r.median_us, r.p99_us);
    EXPECT_LE(r.p99_us, r.max_us);
}

std::string report_text(const WakeupResult& r) {
    char* buf = nullptr;
    size_t size = 0;
    FILE* f = open_memstream(&buf, &size);
    print_wakeup_report(r, f);
    std::fclose(f);
    std::string s(buf, size);
    std::free(buf);
    return s;
}

TEST(WakeupLatency, UnladenRunGivesOneWakeupPerInterval) {
    WakeupOptions o;
    o.duration_s = 0.2;
    o.interval_us = 1000;
    const auto t0 = std::chrono::steady_clock::now();
    const WakeupResult r = measure_wakeups(o);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // Not a count of wake-ups on time (a loaded machine oversleeps), but the
    // accounting that holds at any load: each wake-up stands for its own
    // deadline and the whole intervals it overslept, and together they
    // cover the 200 deadlines of 0.2 s, the last one reaching past them.
    EXPECT_GE(r.wakeups, 1u);
    EXPECT_LE(r.wakeups, 200u);
    int64_t covered = 0, before_last = 0;
    for (double late_us : r.latencies_us) {
        before_last = covered;
        covered += 1 + std::llround(late_us * 1e3) / 1'000'000;  // ns over the 1 ms interval
    }
    EXPECT_LE(before_last, 199);
    EXPECT_GE(covered, 200);
    EXPECT_GE(took, 0.199);  // the last deadline is 0.2 s after the start
    EXPECT_LT(took, 60.0);   // it ends: no deadline is slept to twice
    expect_consistent(r);
    std::printf("unladen: %s", report_text(r).c_str());
}

TEST(WakeupLatency, LoadThreadsRunAndStop) {
    WakeupOptions o;
    o.duration_s = 0.2;
    o.interval_us = 1000;
    o.load_threads = 2;
    const WakeupResult r = measure_wakeups(o);  // returns only once the threads are joined
    EXPECT_GE(r.wakeups, 1u);
    EXPECT_LE(r.wakeups, 210u);
    expect_consistent(r);
    std::printf("laden (2 threads): %s", report_text(r).c_str());
}

TEST(WakeupLatency, NoDeadlineInsideTheDuration) {
    WakeupOptions o;
    o.duration_s = 0.0005;
    o.interval_us = 1000;
    const WakeupResult r = measure_wakeups(o);
    EXPECT_EQ(r.wakeups, 0u);
    EXPECT_TRUE(r.latencies_us.empty());
    EXPECT_EQ(r.mean_us, 0);
    EXPECT_EQ(r.max_us, 0);
}

TEST(WakeupLatency, LateWakeupsSkipMissedDeadlines) {
    // An interval far below the timer's resolution: most wake-ups are later
    // than the next deadline, and each is recorded once, so there are far
    // fewer wake-ups than deadlines and none is recorded as catching up.
    WakeupOptions o;
    o.duration_s = 0.05;
    o.interval_us = 1;
    const WakeupResult r = measure_wakeups(o);
    EXPECT_LT(r.wakeups, 50000u);
    expect_consistent(r);
}

TEST(WakeupLatency, InvalidOptionsThrow) {
    WakeupOptions o;
    o.interval_us = 0;
    EXPECT_THROW(measure_wakeups(o), std::invalid_argument);
    o.interval_us = NAN;
    EXPECT_THROW(measure_wakeups(o), std::invalid_argument);
    o = {};
    o.duration_s = -1;
    EXPECT_THROW(measure_wakeups(o), std::invalid_argument);
    o = {};
    o.load_threads = -1;
    EXPECT_THROW(measure_wakeups(o), std::invalid_argument);
}

TEST(WakeupLatency, ReportText) {
    WakeupResult r;
    r.latencies_us = {1, 2, 3};
    r.mean_us = 12.3456;
    r.median_us = 10;
    r.p99_us = 99.99949;
    r.max_us = 1234.56749;
    r.wakeups = 18446744073709551615ull;
    EXPECT_EQ(report_text(r),
              "latency_mean_us=12.346\n"
              "latency_median_us=10.000\n"
              "latency_p99_us=99.999\n"
              "latency_max_us=1234.567\n"
              "wakeups=18446744073709551615\n");
}

}  // namespace
}  // namespace gfxstat::drivers
