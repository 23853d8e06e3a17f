// SPDX-License-Identifier: MIT
#include "findings/recorded_context.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "data/volatile_facts.h"

namespace gfxstat::cli {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// The fields that move while a series runs are the volatile ones
// (data/volatile_facts.h), read as numbers the same way.
bool tracked(const std::string& name) { return data::is_volatile_field(name); }

double reading(const std::string& name, const std::string& text) {
    return data::volatile_reading(name, text).value_or(kNan);
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
