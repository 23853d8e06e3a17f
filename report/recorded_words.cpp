// SPDX-License-Identifier: MIT
#include "report/recorded_words.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "report/diagnostic_words.h"

namespace gfxstat::cli {

namespace {

// "gpu1_sclk_mhz" -> ("GPU 1's", "sclk_mhz"); the first GPU is "the GPU's".
bool gpu_member(const std::string& name, std::string& whose, std::string& member) {
    if (name.rfind("gpu", 0) != 0) return false;
    size_t i = 3;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
    if (i >= name.size() || name[i] != '_') return false;
    whose = i == 3 ? "the GPU's" : "GPU " + name.substr(3, i - 3) + "'s";
    member = name.substr(i + 1);
    return true;
}

bool throttle_field(const std::string& name) {
    std::string whose, member;
    return gpu_member(name, whose, member) && member == "throttle";
}

std::string field_words(const std::string& name) {
    if (name == "load_average") return "the load average";
    std::string whose, member;
    if (gpu_member(name, whose, member)) {
        if (member == "act_freq_mhz") return whose + " actual clock";
        if (member == "cur_freq_mhz") return whose + " requested clock";
        if (member == "sclk_mhz") return whose + " shader clock";
    }
    if (name.rfind("temp_", 0) == 0) return "the " + name.substr(5) + " temperature";
    return name;
}

}  // namespace

std::string recorded_change(const RecordedSeries& s, size_t split) {
    std::vector<std::string> moved;
    for (size_t f = 0; f < s.fields.size(); ++f) {
        // Means over the values on each side, each stretch weighted by its values.
        double sum[2] = {0, 0}, weight[2] = {0, 0};
        size_t at = 0;
        for (const auto& st : s.stretches) {
            const double r = st.readings[f];
            for (int side = 0; side < 2; ++side) {
                const size_t lo = side ? std::max(at, split) : at, hi = side ? at + st.values : std::min(at + st.values, split);
                if (hi > lo && std::isfinite(r)) {
                    sum[side] += r * static_cast<double>(hi - lo);
                    weight[side] += static_cast<double>(hi - lo);
                }
            }
            at += st.values;
        }
        if (!(weight[0] > 0) || !(weight[1] > 0)) continue;
        const double before = sum[0] / weight[0], after = sum[1] / weight[1];
        const std::string& name = s.fields[f];
        const double d = after - before;
        const char* way = d > 0 ? "rose" : "fell";
        if (throttle_field(name)) {
            if (std::fabs(d) >= 0.25)
                moved.push_back(fmt("GPU throttling was reported in %.0f%% of the runs before and %.0f%% after",
                                    before * 100, after * 100));
        } else if (name == "load_average") {
            if (std::fabs(d) >= 0.5 && (std::min(before, after) <= 0 || std::max(before, after) / std::min(before, after) >= 1.5))
                moved.push_back(fmt("%s %s from %.2f to %.2f", field_words(name).c_str(), way, before, after));
        } else if (name.rfind("temp_", 0) == 0) {
            if (std::fabs(d) >= 5)
                moved.push_back(fmt("%s %s from %.1f to %.1f °C", field_words(name).c_str(), way, before, after));
        } else if (before > 0 && std::fabs(d) / before >= 0.1) {
            moved.push_back(fmt("%s %s from %.0f to %.0f MHz", field_words(name).c_str(), way, before, after));
        }
    }
    std::string out;
    for (size_t i = 0; i < moved.size(); ++i)
        out += (i == 0 ? "" : i + 1 == moved.size() ? " and " : ", ") + moved[i];
    return out;
}

std::string recorded_fields(const RecordedSeries& s) {
    std::string out;
    for (size_t i = 0; i < s.fields.size(); ++i) out += (i ? ", " : "") + field_words(s.fields[i]);
    return out;
}

}  // namespace gfxstat::cli
