// SPDX-License-Identifier: MIT
// Summaries of one run's frame times. A run that renders frames yields
// hundreds of frame times, but they are not independent samples of the
// build's performance: consecutive frames share the run's clocks, caches,
// thermal state and scene, so the run, not the frame, is the unit a
// comparison counts (docs/frame-times.md). This turns one run's frame times
// into the few numbers per run that `compare` then compares across runs.
//
// Definitions (docs/frame-times.md says why, and what the alternatives are):
//   mean fps        1000 * n / sum(t): frames divided by the time they took,
//                   not the mean of per-frame 1000/t (which overweights
//                   fast frames)
//   median, p99     sample quantiles of type 7 (R's default, Hyndman & Fan;
//                   analysis/order_stats.h), the same as everywhere in
//                   gfxstat: h = (n-1)p, interpolating between neighbours
//   1% low fps      1000 / mean of the slowest ceil(n/100) frame times (at
//                   least one frame); 0.1% low with ceil(n/1000)
//   stutters        frames longer than twice the median frame time
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace gfxstat::analysis {

struct FrameTimeSummary {
    size_t frames = 0;
    double total_ms = 0;          // sum of the frame times
    double fps_mean = 0;          // 1000 * frames / total_ms
    double median_ms = 0;         // type 7
    double p99_ms = 0;            // type 7 at p = 0.99
    double fps_1pct_low = 0;      // 1000 / mean of the slowest ceil(n/100)
    double fps_01pct_low = 0;     // 1000 / mean of the slowest ceil(n/1000)
    size_t slowest_1pct = 0;      // how many frames each low was taken from
    size_t slowest_01pct = 0;
    size_t stutters = 0;          // frames > 2 * median_ms
};

// Why `frame_ms` cannot be summarised ("no frames", "frame 3 is 0 ms: frame
// times must be positive"), or "" when it can. Every value must be finite
// and > 0: a frame of 0 ms would make fps infinite.
std::string frame_times_problem(std::span<const double> frame_ms);

// n >= 1 positive finite frame times in milliseconds, in any order (the
// span is not modified). Throws std::invalid_argument with
// frame_times_problem's text otherwise.
FrameTimeSummary summarize_frame_times(std::span<const double> frame_ms);

// A per-frame duration that is part of a frame rather than the whole of it
// (the GPU or CPU time apitrace's --pgpu / --pcpu sums per frame): it may
// be 0 (a frame with no draw call), and a rate made from it would mean
// nothing, so only its mean, median and p99 (type 7).
struct FrameDurationSummary {
    size_t frames = 0;
    double mean_ms = 0;
    double median_ms = 0;
    double p99_ms = 0;
};

// n >= 1 finite durations >= 0 in milliseconds. Throws
// std::invalid_argument naming the first one that is not.
FrameDurationSummary summarize_frame_durations(std::span<const double> frame_ms);

// How many of n frames a "low" over the slowest fraction 1/den takes:
// ceil(n / den), at least 1 (n >= 1).
size_t slowest_count(size_t n, size_t den);

}  // namespace gfxstat::analysis
