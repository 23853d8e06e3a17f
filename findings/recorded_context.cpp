// SPDX-License-Identifier: MIT
#include "findings/recorded_context.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

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

}  // namespace gfxstat::cli
