// SPDX-License-Identifier: MIT
#include "analysis/frame_times.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <vector>

#include "analysis/order_stats.h"

namespace gfxstat::analysis {

namespace {

// Neumaier's compensated sum in long double: a run of 100,000 frames of
// about 16.7 ms sums to 1.7e6 with no digit of the frame times lost, so
// the mean fps does not depend on the order frames were logged in.
long double compensated_sum(const double* first, const double* last) {
    long double sum = 0, c = 0;
    for (const double* p = first; p != last; ++p) {
        const long double x = *p, t = sum + x;
        c += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
        sum = t;
    }
    return sum + c;
}

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

}  // namespace

size_t slowest_count(size_t n, size_t den) { return std::max<size_t>(1, (n + den - 1) / den); }

std::string frame_times_problem(std::span<const double> frame_ms) {
    if (frame_ms.empty()) return "no frames";
    for (size_t i = 0; i < frame_ms.size(); ++i) {
        const double t = frame_ms[i];
        if (!std::isfinite(t) || t <= 0)
            return "frame " + std::to_string(i + 1) + " took " + number_text(t) +
                   " ms: frame times must be positive and finite";
    }
    return "";
}

FrameTimeSummary summarize_frame_times(std::span<const double> frame_ms) {
    if (const std::string why = frame_times_problem(frame_ms); !why.empty()) throw std::invalid_argument(why);
    const size_t n = frame_ms.size();
    FrameTimeSummary s;
    s.frames = n;
    std::vector<double> v(frame_ms.begin(), frame_ms.end());
    const long double total = compensated_sum(v.data(), v.data() + n);
    s.total_ms = static_cast<double>(total);
    s.fps_mean = static_cast<double>(1000.0L * static_cast<long double>(n) / total);

    // Quantiles first (they reorder v), then the slowest frames: the
    // largest k after a descending partial partition.
    MutableScaledValues mv{std::span<double>(v), 0};
    s.median_ms = quantile_type7(mv, 1, 2);
    s.p99_ms = quantile_type7(mv, 99, 100);
    const auto low = [&](size_t den, size_t& used) {
        used = slowest_count(n, den);
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(used - 1), v.end(),
                         std::greater<double>());
        const long double slow = compensated_sum(v.data(), v.data() + used);
        return static_cast<double>(1000.0L * static_cast<long double>(used) / slow);
    };
    s.fps_1pct_low = low(100, s.slowest_1pct);
    s.fps_01pct_low = low(1000, s.slowest_01pct);
    const double limit = 2 * s.median_ms;
    s.stutters = static_cast<size_t>(std::count_if(frame_ms.begin(), frame_ms.end(),
                                                   [&](double t) { return t > limit; }));
    return s;
}

FrameDurationSummary summarize_frame_durations(std::span<const double> frame_ms) {
    if (frame_ms.empty()) throw std::invalid_argument("no frames");
    for (size_t i = 0; i < frame_ms.size(); ++i)
        if (!std::isfinite(frame_ms[i]) || frame_ms[i] < 0)
            throw std::invalid_argument("frame " + std::to_string(i + 1) + " took " + number_text(frame_ms[i]) +
                                        " ms: durations must be finite and not negative");
    FrameDurationSummary s;
    s.frames = frame_ms.size();
    std::vector<double> v(frame_ms.begin(), frame_ms.end());
    s.mean_ms = static_cast<double>(compensated_sum(v.data(), v.data() + v.size()) /
                                    static_cast<long double>(v.size()));
    MutableScaledValues mv{std::span<double>(v), 0};
    s.median_ms = quantile_type7(mv, 1, 2);
    s.p99_ms = quantile_type7(mv, 99, 100);
    return s;
}

}  // namespace gfxstat::analysis
