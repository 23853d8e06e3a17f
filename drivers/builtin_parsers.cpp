// SPDX-License-Identifier: MIT
// The parsers of gfxstat's own workloads and of the run's own resource
// usage: one "KEY=NUMBER" line per result, as drivers/wakeup_latency.h and
// drivers/drm_workloads.h print them.
//
// wakeup-latency: "latency_mean_us=%.3f", "latency_median_us=",
//   "latency_p99_us=", "latency_max_us=", "wakeups=%u"
// drm-ioctl, drm-gem, i915-exec-nop (drivers/drm_workloads.h): "KEY=NUMBER"
//   lines; the metric is the key without its unit ("ioctl_ns_mean" ->
//   ioctl_mean in ns, "engine_rcs0_us" -> rcs0 in us). Lines with other
//   keys ("node=", "driver=") are not metrics.
#include "drivers/builtin_parsers.h"

#include <span>

#include "formats/parser_support.h"

namespace gfxstat::drivers {

using namespace formats::parsing;
using formats::OutputParser;
using formats::ParseResult;
using formats::RunOutput;
using formats::LineReader;
using formats::valid_metric_name;
using data::NumberToken;
using data::TokenStatus;

namespace {

// ---------------------------------------------------------- wakeup-latency


// ------------------------------------------------- native DRM workloads

struct KeyMetric {
    std::string_view key;  // "ioctl_ns_mean="
    const char* name;
    const char* unit;
    Direction dir;
    bool primary;          // what the workload is run for (docs/workloads.md)
};

// Lines "KEY=NUMBER" for the keys in `keys`; other lines are ignored. A
// known key whose value is not a number is an error naming the line.
ParseResult parse_keys(const RunOutput& o, std::span<const KeyMetric> keys, const std::string& expected) {
    Collector c;
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        Cursor cur(trim(line));
        for (const KeyMetric& k : keys) {
            if (!cur.lit(k.key)) continue;
            NumberToken t;
            if (!(cur.number(t) && cur.end()))
                return failure(line_error(lines.number(), std::string(k.key) + "X", cur));
            c.add(k.name, k.unit, k.dir, k.primary, t);
            break;
        }
    }
    if (c.empty()) return nothing_found(o, expected);
    return success(c);
}

// wakeup-latency: gfxstat's own CPU workload (drivers/wakeup_latency.h).
const KeyMetric kWakeupKeys[] = {
    {"latency_mean_us=", "latency_mean", "us", kLower, kPrimary},
    {"latency_median_us=", "latency_median", "us", kLower, kSecondary},
    {"latency_p99_us=", "latency_p99", "us", kLower, kSecondary},
    {"latency_max_us=", "latency_max", "us", kLower, kSecondary},
    {"wakeups=", "wakeups", "", kUnknown, kSecondary},
};

ParseResult parse_wakeup(const RunOutput& o) {
    return parse_keys(o, kWakeupKeys, "'latency_mean_us=X' (gfxstat workload wakeup-latency)");
}

const KeyMetric kDrmIoctlKeys[] = {
    {"ioctl_ns_median=", "ioctl_median", "ns", kLower, kPrimary},
    {"ioctl_ns_mean=", "ioctl_mean", "ns", kLower, kSecondary},
    {"ioctl_ns_p99=", "ioctl_p99", "ns", kLower, kSecondary},
    {"ioctl_ns_min=", "ioctl_min", "ns", kLower, kSecondary},
    {"get_cap_ns_median=", "get_cap_median", "ns", kLower, kSecondary},
    {"get_cap_ns_mean=", "get_cap_mean", "ns", kLower, kSecondary},
    {"get_cap_ns_p99=", "get_cap_p99", "ns", kLower, kSecondary},
    {"get_cap_ns_min=", "get_cap_min", "ns", kLower, kSecondary},
    {"loop_overhead_ns=", "loop_overhead", "ns", kLower, kSecondary},
    {"iterations=", "iterations", "", kUnknown, kSecondary},
};

const KeyMetric kDrmGemKeys[] = {
    {"allocs_per_s=", "allocs_per_s", "allocs/s", kHigher, kPrimary},
    {"upload_mib_per_s=", "upload", "MiB/s", kHigher, kPrimary},
    {"create_us_median=", "create_median", "us", kLower, kSecondary},
    {"create_us_p99=", "create_p99", "us", kLower, kSecondary},
    {"map_us_median=", "map_median", "us", kLower, kSecondary},
    {"write_us_median=", "write_median", "us", kLower, kSecondary},
    {"requested_bytes=", "requested", "bytes", kUnknown, kSecondary},
    {"allocated_bytes=", "allocated", "bytes", kLower, kSecondary},
    {"rounding_pct=", "rounding", "%", kLower, kPrimary},
    {"loop_overhead_ns=", "loop_overhead", "ns", kLower, kSecondary},
    {"iterations=", "iterations", "", kUnknown, kSecondary},
};

std::vector<MetricInfo> key_infos(std::span<const KeyMetric> keys) {
    std::vector<MetricInfo> out;
    for (const KeyMetric& k : keys) out.push_back(info(k.name, k.unit, k.dir, k.primary));
    return out;
}

ParseResult parse_drm_ioctl(const RunOutput& o) {
    return parse_keys(o, kDrmIoctlKeys, "'ioctl_ns_mean=X' (gfxstat workload drm-ioctl)");
}

ParseResult parse_drm_gem(const RunOutput& o) {
    return parse_keys(o, kDrmGemKeys, "'allocs_per_s=X' (gfxstat workload drm-gem)");
}

// i915-exec-nop: per engine "engine_NAME_us=", "engine_NAME_batches=",
// "engine_NAME_submit_us_median="; then "all_expected_us=", "slowest_us=",
// "burst=", "rounds=", "all_parallel_us=", "all_parallel_overlap_pct=",
// "loop_overhead_ns=". Per-engine metrics are named as igt-exec-nop names
// gem_exec_nop's (NAME, in us/batch); the round-robin ones are not the same
// quantities as IGT's per-batch "expected" and "parallel" figures (these
// are per round, one batch on every engine), so they have their own names:
// all_serial, all_round_<burst>, all_round_<burst>_overlap.
ParseResult parse_i915_exec_nop(const RunOutput& o) {
    Collector c;
    LineReader lines(o.out);
    std::string_view line;
    std::string burst;  // digits of the last "burst=" line
    while (lines.next(line)) {
        const std::string_view text = trim(line);
        const size_t eq = text.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string_view key = text.substr(0, eq);
        std::string name, unit;
        Direction dir = kLower;
        bool primary = kSecondary;  // the engines' us/batch and the round-robin rounds are primary
        if (key.starts_with("engine_") && key.size() > 7) {
            const std::string_view rest = key.substr(7);
            const auto engine = [&](std::string_view suffix) {
                return rest.size() > suffix.size() && rest.ends_with(suffix)
                           ? std::string(rest.substr(0, rest.size() - suffix.size()))
                           : std::string();
            };
            if (std::string e = engine("_submit_us_median"); !e.empty()) name = e + "_submit", unit = "us";
            else if (std::string e2 = engine("_batches"); !e2.empty()) name = e2 + "_batches", dir = kUnknown;
            else if (std::string e3 = engine("_us"); !e3.empty()) name = e3, unit = "us", primary = kPrimary;
            if (!name.empty() && !valid_metric_name(name)) name.clear();
        } else if (key == "all_expected_us") {
            name = "all_serial", unit = "us";
        } else if (key == "slowest_us") {
            name = "slowest", unit = "us";
        } else if (key == "rounds") {
            name = "rounds", dir = kUnknown;
        } else if (key == "loop_overhead_ns") {
            name = "loop_overhead", unit = "ns";
        } else if (key == "burst") {
            Cursor cur(text.substr(eq + 1));
            std::string_view digits;
            if (!(cur.digits(digits) && cur.end()))
                return failure(line_error(lines.number(), "burst=N", cur));
            burst = std::string(digits);
            continue;
        } else if (key == "all_parallel_us" || key == "all_parallel_overlap_pct") {
            if (burst.empty())
                return failure("line " + std::to_string(lines.number()) + ": " + std::string(key) +
                               " before a burst=N line");
            name = "all_round_" + burst;
            if (key == "all_parallel_us") unit = "us", primary = kPrimary;
            else name += "_overlap", unit = "%", dir = kHigher;
        }
        if (name.empty()) continue;
        Cursor cur(text);
        cur.seek(eq + 1);
        NumberToken t;
        if (!(cur.number(t) && cur.end()))
            return failure(line_error(lines.number(), std::string(key) + "=X", cur));
        c.add(name, unit, dir, primary, t);
    }
    if (c.empty()) return nothing_found(o, "'engine_NAME_us=X' (gfxstat workload i915-exec-nop)");
    return success(c);
}

}  // namespace

std::unique_ptr<OutputParser> make_builtin_parser(const std::string& name) {
    if (name == "wakeup-latency")
        return std::make_unique<FunctionParser>(key_infos(kWakeupKeys), parse_wakeup);
    if (name == "drm-ioctl") return std::make_unique<FunctionParser>(key_infos(kDrmIoctlKeys), parse_drm_ioctl);
    if (name == "drm-gem") return std::make_unique<FunctionParser>(key_infos(kDrmGemKeys), parse_drm_gem);
    if (name == "i915-exec-nop")
        return std::make_unique<FunctionParser>(std::vector<MetricInfo>{}, parse_i915_exec_nop);
    return nullptr;
}

std::vector<std::string> builtin_parser_names() { return {"wakeup-latency", "drm-ioctl", "drm-gem", "i915-exec-nop"}; }

}  // namespace gfxstat::drivers
