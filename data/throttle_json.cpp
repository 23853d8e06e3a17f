// SPDX-License-Identifier: MIT
#include "data/throttle_json.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <set>

#include "data/results_json.h"

namespace gfxstat::data {

namespace {

void number(std::string& out, const char* key, double v) {
    char buf[32];
    out += ",\"";
    out += key;
    out += "\":";
    out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);  // shortest round trip
}

[[noreturn]] void bad(const std::string& what) { throw RecordError("\"throttle\"." + what); }

double finite(JsonCursor& c, const std::string& key, double lo, double hi, const char* expected) {
    if (c.peek() != JsonKind::number) bad("\"" + key + "\" must be " + expected + ", found " + c.describe_next());
    const std::string_view t = c.number_token();
    double v = 0;
    const auto res = std::from_chars(t.data(), t.data() + t.size(), v);
    if (res.ec != std::errc() || res.ptr != t.data() + t.size() || !std::isfinite(v) || v < lo || v > hi)
        bad("\"" + key + "\" must be " + expected + ", found " + std::string(t));
    return v;
}

uint64_t count(JsonCursor& c, const std::string& key, uint64_t lo) {
    if (c.peek() != JsonKind::number) bad("\"" + key + "\" must be a whole number, found " + c.describe_next());
    const std::string_view t = c.number_token();
    uint64_t v = 0;
    const auto res = std::from_chars(t.data(), t.data() + t.size(), v);
    if (res.ec != std::errc() || res.ptr != t.data() + t.size() || v < lo ||
        v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        bad("\"" + key + "\" must be a whole number from " + std::to_string(lo) + " to 2^63-1, found " +
            std::string(t));
    return v;
}

// Reasons are the sysfs names after "throttle_reason_" / "reason_": lower
// case words.
bool reason_word(const std::string& s) {
    if (s.empty() || s.size() > 64) return false;
    for (char ch : s)
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')) return false;
    return true;
}

}  // namespace

void append_throttle_member(std::string& out, const ThrottleRecord& t) {
    out += ",\"throttle\":{\"samples\":";
    out += std::to_string(t.samples);
    out += ",\"interval_ms\":";
    out += std::to_string(t.interval_ms);
    if (t.throttled_share) number(out, "throttled_share", *t.throttled_share);
    if (t.throttled_share || !t.reasons.empty()) {
        out += ",\"reasons\":[";
        for (size_t i = 0; i < t.reasons.size(); ++i) {
            if (i) out += ',';
            append_json_string(out, t.reasons[i]);
        }
        out += ']';
    }
    if (t.gpu_freq_min_mhz) number(out, "gpu_freq_min_mhz", *t.gpu_freq_min_mhz);
    if (t.gpu_freq_mean_mhz) number(out, "gpu_freq_mean_mhz", *t.gpu_freq_mean_mhz);
    if (t.gpu_freq_requested_mean_mhz) number(out, "gpu_freq_requested_mean_mhz", *t.gpu_freq_requested_mean_mhz);
    if (t.cpu_package_temp_max_c) number(out, "cpu_package_temp_max_c", *t.cpu_package_temp_max_c);
    if (!t.gpu.empty()) {
        out += ",\"gpu\":";
        append_json_string(out, t.gpu);
    }
    for (const auto& [k, raw] : t.unknown) {
        out += ',';
        append_json_string(out, k);
        out += ':';
        out += raw;
    }
    out += '}';
}

ThrottleRecord parse_throttle(JsonCursor& c) {
    if (c.peek() != JsonKind::object)
        throw RecordError("\"throttle\" must be an object like {\"samples\":20,\"interval_ms\":50,...}, found " +
                          std::string(c.describe_next()));
    c.begin_object();
    ThrottleRecord t;
    std::string key;
    std::set<std::string> seen;
    bool has_samples = false, has_interval = false;
    constexpr double kMaxMhz = 1e6;
    while (c.next_key(key)) {
        if (!seen.insert(key).second) bad("\"" + key + "\" appears twice (which one counts is not defined)");
        if (key == "samples") {
            t.samples = count(c, key, 1);
            has_samples = true;
        } else if (key == "interval_ms") {
            t.interval_ms = count(c, key, 1);
            has_interval = true;
        } else if (key == "throttled_share") {
            t.throttled_share = finite(c, key, 0, 1, "a share from 0 to 1");
        } else if (key == "reasons") {
            if (c.peek() != JsonKind::array) bad(std::string("\"reasons\" must be an array of strings, found ") + c.describe_next());
            c.begin_array();
            while (c.next_item()) {
                if (c.peek() != JsonKind::string)
                    bad("\"reasons\" must hold strings, found " + std::string(c.describe_next()));
                std::string r = c.string_value();
                if (!reason_word(r))
                    bad("\"reasons\" holds \"" + r + "\"; a reason is a lower-case word such as \"pl1\"");
                t.reasons.push_back(std::move(r));
            }
        } else if (key == "gpu_freq_min_mhz") {
            t.gpu_freq_min_mhz = finite(c, key, 0, kMaxMhz, "a frequency in MHz (0 or more)");
        } else if (key == "gpu_freq_mean_mhz") {
            t.gpu_freq_mean_mhz = finite(c, key, 0, kMaxMhz, "a frequency in MHz (0 or more)");
        } else if (key == "gpu_freq_requested_mean_mhz") {
            t.gpu_freq_requested_mean_mhz = finite(c, key, 0, kMaxMhz, "a frequency in MHz (0 or more)");
        } else if (key == "cpu_package_temp_max_c") {
            t.cpu_package_temp_max_c = finite(c, key, -273.15, 1000, "a temperature in degrees C");
        } else if (key == "gpu") {
            if (c.peek() != JsonKind::string) bad(std::string("\"gpu\" must be a string such as \"card0\", found ") + c.describe_next());
            t.gpu = c.string_value();
            if (t.gpu.empty()) bad("\"gpu\" names the card sampled (\"card0\"); leave it out when none was");
        } else {
            t.unknown.emplace_back(key, std::string(c.skip_value()));
        }
    }
    if (!has_samples) bad("\"samples\" is missing (how many ticks were taken, 1 or more)");
    if (!has_interval) bad("\"interval_ms\" is missing (the time between ticks)");
    for (size_t i = 1; i < t.reasons.size(); ++i)
        if (!(t.reasons[i - 1] < t.reasons[i])) bad("\"reasons\" must be sorted and distinct");
    if (t.gpu_freq_min_mhz && t.gpu_freq_mean_mhz && *t.gpu_freq_min_mhz > *t.gpu_freq_mean_mhz * (1 + 1e-9))
        bad("\"gpu_freq_min_mhz\" is above \"gpu_freq_mean_mhz\"");
    if (!t.reasons.empty() && !(t.throttled_share && *t.throttled_share > 0))
        bad("\"reasons\" lists reasons but \"throttled_share\" is not above 0");
    return t;
}

}  // namespace gfxstat::data
