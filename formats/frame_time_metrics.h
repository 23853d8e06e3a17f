// SPDX-License-Identifier: MIT
// What the frame-time formats (mangohud, presentmon, piglit-replay) share:
// one run's frame times become the within-run metric `frame_time` (ms,
// declared "per": "frame", so that no analysis takes frames for runs) and
// the per-run summaries that `compare` compares (docs/frame-times.md):
//
//   frame_time          ms        lower    per frame, secondary
//   fps_mean            frames/s  higher   primary: 1000 * n / sum
//   frame_time_median   ms        lower    type 7
//   frame_time_p99      ms        lower    type 7
//   fps_1pct_low        frames/s  higher   1000 / mean of the slowest ceil(n/100)
//   fps_0.1pct_low      frames/s  higher   ... ceil(n/1000)
//   stutters            frames    lower    frames > 2 x median
//   frames              frames    unknown  n
//
// The statistics are analysis/frame_times'; this file turns exact decimal
// tokens into them and them back into tokens.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "data/number_token.h"
#include "data/results_model.h"
#include "formats/output_parser.h"

namespace gfxstat::formats {

// One run's frame times in ms, exact as logged (after scale_token), and the
// line each came from, for errors.
struct FrameTimes {
    std::vector<data::NumberToken> ms;
    std::vector<size_t> lines;
};

// The declarations of the metrics above, each name prefixed by `prefix`
// (PresentMon's "<process>."; "" elsewhere).
std::vector<data::MetricInfo> frame_time_metric_infos(std::string_view prefix = "");

// Appends the metrics above for one run to `out`. Returns "" or, when a
// frame time is not positive and finite, or there are none, why, naming
// the line ("line 12: a frame time of 0 ms; frame times must be positive").
std::string add_frame_time_metrics(const FrameTimes& frames, std::vector<ParsedMetric>& out,
                                   std::string_view prefix = "");

// A per-frame duration that is a part of each frame (apitrace's GPU and
// CPU time per frame): `name` itself, per frame, and its per-run mean,
// median and p99 as `name`_mean, _median, _p99; all ms, lower is better,
// secondary. Returns "" or why not (a negative duration).
std::vector<data::MetricInfo> frame_duration_metric_infos(std::string_view name);
std::string add_frame_duration_metrics(std::string_view name, const std::vector<data::NumberToken>& ms,
                                       std::vector<ParsedMetric>& out);

// The token times 10^shift, exactly (µs to ms: -3, ns to ms: -6). A binary
// token (a hex float, more than 18 digits) is scaled as a double.
data::NumberToken scale_token(data::NumberToken t, int shift);

// The double a token stands for (correctly rounded).
double token_double(const data::NumberToken& t);

// The shortest decimal that reads back as `v`, as an exact token.
data::NumberToken token_from_double(double v);

// `s` made a metric name: bytes outside letters, digits, '_', '.', '-'
// become '_' ("My Game.exe" -> "My_Game.exe"); "_" when empty.
std::string metric_name_part(std::string_view s);

}  // namespace gfxstat::formats
