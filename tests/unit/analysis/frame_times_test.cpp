// SPDX-License-Identifier: MIT
#include "analysis/frame_times.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace gfxstat::analysis {
namespace {

// tests/data/make_frame_times_reference.py's formula: 13 levels of a
// quarter millisecond (ties), and a 40-46 ms hitch every 50th frame.
std::vector<double> formula_frames(size_t n) {
    std::vector<double> t;
    for (size_t i = 0; i < n; ++i)
        t.push_back(i % 50 == 49 ? 40.0 + static_cast<double>(i % 7)
                                 : 16.0 + static_cast<double>((i * 7919) % 13) / 4);
    return t;
}

struct Reference {
    size_t n;
    double total, fps_mean, median, p99;
    size_t k1;
    double low1;
    size_t k01;
    double low01;
    size_t stutters;
};

// Printed by tests/data/make_frame_times_reference.py (exact fractions,
// Python's statistics.quantiles(method="inclusive"), i.e. R's type 7).
const Reference kReference[] = {
    {1, 16.0, 62.5, 16.0, 16.0, 1, 62.5, 1, 62.5, 0},
    {2, 32.5, 61.53846153846154, 16.25, 16.495, 1, 60.60606060606061, 1, 60.60606060606061, 0},
    {3, 49.5, 60.60606060606061, 16.5, 16.99, 1, 58.8235294117647, 1, 58.8235294117647, 0},
    {99, 1753.5, 56.458511548331906, 17.5, 19.42, 1, 25.0, 1, 25.0, 1},
    {100, 1794.5, 55.72582892170521, 17.5, 40.01, 1, 24.390243902439025, 1, 24.390243902439025, 2},
    {101, 1811.75, 55.747205740306335, 17.5, 40.0, 2, 24.691358024691358, 1, 24.390243902439025, 2},
    {1000, 18005.5, 55.53858543222904, 17.5, 43.0, 10, 22.471910112359552, 1, 21.73913043478261, 20},
    {1001, 18024.25, 55.53629138521714, 17.5, 43.0, 11, 22.540983606557376, 2, 21.73913043478261, 20},
};

void expect_close(double got, double want, const char* what) {
    EXPECT_NEAR(got, want, std::abs(want) * 4e-16 + 1e-300) << what;
}

TEST(FrameTimes, MatchesIndependentReference) {
    for (const Reference& r : kReference) {
        SCOPED_TRACE("n = " + std::to_string(r.n));
        const std::vector<double> t = formula_frames(r.n);
        const FrameTimeSummary s = summarize_frame_times(t);
        EXPECT_EQ(s.frames, r.n);
        expect_close(s.total_ms, r.total, "total");
        expect_close(s.fps_mean, r.fps_mean, "fps_mean");
        expect_close(s.median_ms, r.median, "median");
        // Type 7 interpolates in long double: 16.495 is not a double, so
        // allow a few units in the last place there.
        EXPECT_NEAR(s.p99_ms, r.p99, r.p99 * 1e-15) << "p99";
        EXPECT_EQ(s.slowest_1pct, r.k1);
        expect_close(s.fps_1pct_low, r.low1, "1% low");
        EXPECT_EQ(s.slowest_01pct, r.k01);
        expect_close(s.fps_01pct_low, r.low01, "0.1% low");
        EXPECT_EQ(s.stutters, r.stutters);
        EXPECT_EQ(t, formula_frames(r.n)) << "the input is left as it was";
    }
}

// By hand: 10 and 30 ms. 2 frames in 40 ms is 50 fps (the mean of per-frame
// fps, (100 + 33.3) / 2 = 66.7, would be the other definition); the median
// is 20, p99 = 10 + 0.99 * 20 = 29.8; the slowest frame alone is the 1% low
// (1000 / 30); 30 is not more than 2 * 20, so no stutter.
TEST(FrameTimes, TwoFramesByHand) {
    const std::vector<double> t = {30, 10};
    const FrameTimeSummary s = summarize_frame_times(t);
    EXPECT_EQ(s.fps_mean, 50);
    EXPECT_EQ(s.median_ms, 20);
    EXPECT_NEAR(s.p99_ms, 29.8, 1e-14);
    EXPECT_DOUBLE_EQ(s.fps_1pct_low, 1000.0 / 30);
    EXPECT_DOUBLE_EQ(s.fps_01pct_low, 1000.0 / 30);
    EXPECT_EQ(s.stutters, 0u);
}

// A frame of exactly twice the median is not a stutter; one just over is.
TEST(FrameTimes, StutterIsStrictlyOverTwiceTheMedian) {
    const std::vector<double> t = {10, 10, 10, 20, 20.25};
    const FrameTimeSummary s = summarize_frame_times(t);
    EXPECT_EQ(s.median_ms, 10);
    EXPECT_EQ(s.stutters, 1u);
}

// All frames tied: every statistic is the one frame time.
TEST(FrameTimes, AllTied) {
    const std::vector<double> t(250, 16.5);
    const FrameTimeSummary s = summarize_frame_times(t);
    EXPECT_DOUBLE_EQ(s.fps_mean, 1000 / 16.5);
    EXPECT_EQ(s.median_ms, 16.5);
    EXPECT_EQ(s.p99_ms, 16.5);
    EXPECT_EQ(s.slowest_1pct, 3u);  // ceil(250 / 100)
    EXPECT_DOUBLE_EQ(s.fps_1pct_low, 1000 / 16.5);
    EXPECT_EQ(s.slowest_01pct, 1u);
    EXPECT_EQ(s.stutters, 0u);
}

// The order frames come in changes nothing.
TEST(FrameTimes, OrderDoesNotMatter) {
    std::vector<double> t = formula_frames(1000);
    const FrameTimeSummary a = summarize_frame_times(t);
    std::reverse(t.begin(), t.end());
    const FrameTimeSummary b = summarize_frame_times(t);
    EXPECT_EQ(a.fps_mean, b.fps_mean);
    EXPECT_EQ(a.p99_ms, b.p99_ms);
    EXPECT_EQ(a.fps_1pct_low, b.fps_1pct_low);
    EXPECT_EQ(a.fps_01pct_low, b.fps_01pct_low);
}

TEST(FrameTimes, SlowestCount) {
    EXPECT_EQ(slowest_count(1, 100), 1u);
    EXPECT_EQ(slowest_count(100, 100), 1u);
    EXPECT_EQ(slowest_count(101, 100), 2u);
    EXPECT_EQ(slowest_count(999, 1000), 1u);
    EXPECT_EQ(slowest_count(1001, 1000), 2u);
}

// Parts of frames (apitrace's GPU time per frame): zeros allowed, type-7
// quantiles by hand: n = 4, p99 at h = 3 * 0.99 = 2.97, between 2 and 3.
TEST(FrameDurations, ByHand) {
    const std::vector<double> v{3, 0, 2, 1};
    const FrameDurationSummary s = summarize_frame_durations(v);
    EXPECT_EQ(s.frames, 4u);
    EXPECT_DOUBLE_EQ(s.mean_ms, 1.5);
    EXPECT_DOUBLE_EQ(s.median_ms, 1.5);
    EXPECT_NEAR(s.p99_ms, 2.97, 1e-12);
    const std::vector<double> one{0.25};
    const FrameDurationSummary o = summarize_frame_durations(one);
    EXPECT_EQ(o.mean_ms, 0.25);
    EXPECT_EQ(o.median_ms, 0.25);
    EXPECT_EQ(o.p99_ms, 0.25);
    EXPECT_THROW(summarize_frame_durations(std::vector<double>{}), std::invalid_argument);
    EXPECT_THROW(summarize_frame_durations(std::vector<double>{1, -0.5}), std::invalid_argument);
    EXPECT_THROW(summarize_frame_durations(std::vector<double>{std::numeric_limits<double>::infinity()}),
                 std::invalid_argument);
}

TEST(FrameTimes, RefusesWhatIsNotAFrameTime) {
    EXPECT_EQ(frame_times_problem(std::vector<double>{}), "no frames");
    EXPECT_THROW(summarize_frame_times(std::vector<double>{}), std::invalid_argument);
    const std::vector<double> zero = {16, 0};
    EXPECT_NE(frame_times_problem(zero).find("frame 2"), std::string::npos) << frame_times_problem(zero);
    EXPECT_THROW(summarize_frame_times(zero), std::invalid_argument);
    EXPECT_THROW(summarize_frame_times(std::vector<double>{-1}), std::invalid_argument);
    EXPECT_THROW(summarize_frame_times(std::vector<double>{std::numeric_limits<double>::infinity()}),
                 std::invalid_argument);
    EXPECT_THROW(summarize_frame_times(std::vector<double>{std::nan("")}), std::invalid_argument);
}

}  // namespace
}  // namespace gfxstat::analysis
