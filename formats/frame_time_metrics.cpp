// SPDX-License-Identifier: MIT
#include "formats/frame_time_metrics.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "analysis/frame_times.h"
#include "analysis/scaled_values.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

struct Spec {
    const char* name;
    const char* unit;
    Direction direction;
    bool primary;
};

// In the order they are written; frame_time first, as the raw data.
constexpr Spec kSpecs[] = {
    {"frame_time", "ms", kLower, kSecondary},
    {"fps_mean", "frames/s", kHigher, kPrimary},
    {"frame_time_median", "ms", kLower, kSecondary},
    {"frame_time_p99", "ms", kLower, kSecondary},
    {"fps_1pct_low", "frames/s", kHigher, kSecondary},
    {"fps_0.1pct_low", "frames/s", kHigher, kSecondary},
    {"stutters", "frames", kLower, kSecondary},
    {"frames", "frames", kUnknown, kSecondary},
};

ParsedMetric metric(const Spec& s, std::string_view prefix) {
    ParsedMetric m;
    m.name = std::string(prefix) + s.name;
    m.unit = s.unit;
    m.direction = s.direction;
    m.primary = s.primary;
    return m;
}

data::NumberToken count_token(size_t n) { return data::parse_number_token(std::to_string(n)); }

}  // namespace

std::vector<data::MetricInfo> frame_time_metric_infos(std::string_view prefix) {
    std::vector<data::MetricInfo> out;
    for (const Spec& s : kSpecs) {
        data::MetricInfo m = info(std::string(prefix) + s.name, s.unit, s.direction, s.primary);
        if (std::string_view(s.name) == "frame_time") m.per = "frame";
        out.push_back(std::move(m));
    }
    return out;
}

double token_double(const data::NumberToken& t) {
    if (t.status == TokenStatus::binary) return t.value;
    // Significands hold at most 18 digits: they fit int64.
    const double v = analysis::decimal_to_double(static_cast<int64_t>(t.significand), t.exponent);
    return t.negative ? -v : v;
}

data::NumberToken scale_token(data::NumberToken t, int shift) {
    if (t.status == TokenStatus::decimal) {
        t.exponent += shift;
        return t;
    }
    if (t.status == TokenStatus::binary) return token_from_double(t.value * std::pow(10.0, shift));
    return t;
}

data::NumberToken token_from_double(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return data::parse_number_token(std::string_view(buf, static_cast<size_t>(r.ptr - buf)));
}

std::string metric_name_part(std::string_view s) {
    std::string out;
    for (char c : s) out += is_name_char(c) ? c : '_';
    return out.empty() ? "_" : out;
}

std::string add_frame_time_metrics(const FrameTimes& frames, std::vector<ParsedMetric>& out, std::string_view prefix) {
    std::vector<double> ms;
    ms.reserve(frames.ms.size());
    for (size_t i = 0; i < frames.ms.size(); ++i) {
        const double v = token_double(frames.ms[i]);
        // Underflow, overflow or a sign: a frame takes some positive time.
        if (!usable(frames.ms[i]) || !(v > 0) || !std::isfinite(v)) {
            const size_t line = i < frames.lines.size() ? frames.lines[i] : 0;
            return "line " + std::to_string(line) + ": a frame time of " + short_number(v) +
                   " ms; frame times must be positive";
        }
        ms.push_back(v);
    }
    if (ms.empty()) return "no frame times";
    const analysis::FrameTimeSummary s = analysis::summarize_frame_times(ms);
    ParsedMetric ft = metric(kSpecs[0], prefix);
    ft.per = "frame";
    ft.values = frames.ms;
    out.push_back(std::move(ft));
    const auto add = [&](const Spec& spec, data::NumberToken t) {
        ParsedMetric m = metric(spec, prefix);
        m.values.push_back(t);
        out.push_back(std::move(m));
    };
    add(kSpecs[1], token_from_double(s.fps_mean));
    add(kSpecs[2], token_from_double(s.median_ms));
    add(kSpecs[3], token_from_double(s.p99_ms));
    add(kSpecs[4], token_from_double(s.fps_1pct_low));
    add(kSpecs[5], token_from_double(s.fps_01pct_low));
    add(kSpecs[6], count_token(s.stutters));
    add(kSpecs[7], count_token(s.frames));
    return "";
}

namespace {
constexpr const char* kDurationSuffixes[] = {"", "_mean", "_median", "_p99"};
}  // namespace

std::vector<data::MetricInfo> frame_duration_metric_infos(std::string_view name) {
    std::vector<data::MetricInfo> out;
    for (const char* suffix : kDurationSuffixes) {
        data::MetricInfo m = info(std::string(name) + suffix, "ms", kLower, kSecondary);
        if (*suffix == 0) m.per = "frame";
        out.push_back(std::move(m));
    }
    return out;
}

std::string add_frame_duration_metrics(std::string_view name, const std::vector<data::NumberToken>& ms,
                                       std::vector<ParsedMetric>& out) {
    if (ms.empty()) return "";
    std::vector<double> v;
    v.reserve(ms.size());
    for (size_t i = 0; i < ms.size(); ++i) {
        const double d = token_double(ms[i]);
        if (!usable(ms[i]) || !(d >= 0) || !std::isfinite(d))
            return "frame " + std::to_string(i + 1) + ": " + std::string(name) + " of " + short_number(d) +
                   " ms; durations cannot be negative";
        v.push_back(d);
    }
    const analysis::FrameDurationSummary s = analysis::summarize_frame_durations(v);
    const std::vector<data::MetricInfo> infos = frame_duration_metric_infos(name);
    const data::NumberToken summary[] = {token_from_double(s.mean_ms), token_from_double(s.median_ms),
                                         token_from_double(s.p99_ms)};
    for (size_t k = 0; k < infos.size(); ++k) {
        ParsedMetric m;
        m.name = infos[k].name;
        m.unit = infos[k].unit;
        m.direction = infos[k].direction;
        m.primary = infos[k].primary;
        m.per = infos[k].per;
        if (k == 0)
            m.values = ms;
        else
            m.values.push_back(summary[k - 1]);
        out.push_back(std::move(m));
    }
    return "";
}

}  // namespace gfxstat::formats
