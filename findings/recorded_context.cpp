// SPDX-License-Identifier: MIT
#include "findings/recorded_context.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "report/diagnostic_words.h"

namespace gfxstat::cli {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// The fields that move while a series runs, and how one is read as a
// number. gpu_throttle reads 1 when a reason is set, 0 for "none".
bool tracked(const std::string& name) {
    return name == "load_average" || name.rfind("temp_", 0) == 0 || name == "gpu_act_freq_mhz" ||
           name == "gpu_cur_freq_mhz" || name == "gpu_sclk_mhz" || name == "gpu_throttle";
}

double reading(const std::string& name, const std::string& text) {
    if (name == "gpu_throttle") return text == "none" ? 0 : 1;
    // load_average: the first of its three figures, the last minute's.
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return end != text.c_str() && std::isfinite(v) ? v : kNan;
}

std::string field_words(const std::string& name) {
    if (name == "load_average") return "the load average";
    if (name == "gpu_act_freq_mhz") return "the GPU's actual clock";
    if (name == "gpu_cur_freq_mhz") return "the GPU's requested clock";
    if (name == "gpu_sclk_mhz") return "the GPU's shader clock";
    if (name.rfind("temp_", 0) == 0) return "the " + name.substr(5) + " temperature";
    return name;
}

}  // namespace

RecordedSeries recorded_series(const data::ResultsFile& file, const data::BootLayout& layout) {
    RecordedSeries s;
    std::vector<const data::Environment*> envs;
    for (const auto& [id, count] : layout.environments) {
        const data::Environment* e = file.find_environment(id);
        if (!e) return {};
        envs.push_back(e);
        for (const auto& [name, value] : e->fields)
            if (tracked(name) && std::find(s.fields.begin(), s.fields.end(), name) == s.fields.end())
                s.fields.push_back(name);
    }
    if (s.fields.empty()) return {};
    for (size_t i = 0; i < envs.size(); ++i) {
        RecordedSeries::Stretch st;
        st.values = layout.environments[i].second;
        for (const std::string& f : s.fields) {
            const auto it = envs[i]->fields.find(f);
            st.readings.push_back(it == envs[i]->fields.end() ? kNan : reading(f, it->second));
        }
        s.stretches.push_back(std::move(st));
    }
    return s;
}

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
        if (name == "gpu_throttle") {
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
