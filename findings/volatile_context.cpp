// SPDX-License-Identifier: MIT
#include "findings/volatile_context.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "data/volatile_facts.h"

namespace gfxstat::findings {

namespace {

VolatileRange range_of(std::vector<double> v) {
    VolatileRange r;
    r.runs = v.size();
    if (v.empty()) return r;
    r.nonzero = static_cast<size_t>(std::count_if(v.begin(), v.end(), [](double x) { return x > 0; }));
    std::sort(v.begin(), v.end());
    r.low = v.front();
    r.high = v.back();
    const size_t h = v.size() / 2;
    r.median = v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
    return r;
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

double separation_chance(size_t n, size_t m) {
    if (n == 0 || m == 0) return 1;
    // 1 / C(n+m, n), built as a product so that it never overflows.
    double inverse = 1;
    const size_t k = std::min(n, m), other = std::max(n, m);
    for (size_t i = 1; i <= k; ++i) inverse *= static_cast<double>(i) / static_cast<double>(other + i);
    return std::min(1.0, 2 * inverse);
}

double volatile_minimum_difference(const std::string& field, double lower_median) {
    if (field == "load_average") return 0.5;
    if (field.rfind("temp_", 0) == 0) return 5;
    if (ends_with(field, "_throttle")) return 0.5;
    return 0.1 * std::fabs(lower_median);  // clocks, MHz
}

std::vector<VolatileReadings> volatile_readings(const data::ResultsFile& f) {
    std::vector<VolatileReadings> out;
    std::unordered_map<std::string, size_t> slot;  // variant -> its entry: one pass, whatever the variants
    for (const std::string& v : f.variants()) {
        slot.emplace(v, out.size());
        out.push_back({v, {}});
    }
    for (const data::RunRecord& r : f.runs()) {
        if (r.warmup || r.environment.empty()) continue;
        const data::Environment* env = f.find_environment(r.environment);
        const auto it = slot.find(r.variant);
        if (!env || it == slot.end()) continue;
        for (const auto& [name, value] : env->fields)
            if (const auto x = data::volatile_reading(name, value)) out[it->second].fields[name].push_back(*x);
    }
    return out;
}

VolatileContext volatile_context(const std::vector<VolatileReadings>& variants) {
    VolatileContext c;
    std::map<std::string, std::vector<double>> all;
    for (const VolatileReadings& v : variants)
        for (const auto& [field, values] : v.fields) all[field].insert(all[field].end(), values.begin(), values.end());
    for (const auto& [field, values] : all) {
        if (values.empty()) continue;
        VolatileFact fact;
        fact.field = field;
        fact.all = range_of(values);
        for (const VolatileReadings& v : variants) {
            const auto it = v.fields.find(field);
            if (it != v.fields.end() && !it->second.empty()) fact.variants.emplace_back(v.variant, range_of(it->second));
        }
        c.facts.push_back(std::move(fact));
    }
    if (variants.empty()) return c;
    const VolatileReadings& ref = variants.front();
    for (const VolatileFact& fact : c.facts) {
        const auto r = std::find_if(fact.variants.begin(), fact.variants.end(),
                                    [&](const auto& p) { return p.first == ref.variant; });
        if (r == fact.variants.end()) continue;
        for (const auto& [variant, range] : fact.variants) {
            if (variant == ref.variant) continue;
            const VolatileRange& base = r->second;
            const bool above = range.low > base.high, below = range.high < base.low;
            if (!above && !below) continue;
            const double chance = separation_chance(range.runs, base.runs);
            if (!(chance < kVolatileShiftLevel)) continue;
            const double lower = std::min(range.median, base.median);
            if (std::fabs(range.median - base.median) < volatile_minimum_difference(fact.field, lower)) continue;
            VolatileShift s;
            s.field = fact.field;
            s.variant = variant;
            s.reference = ref.variant;
            s.higher = above;
            s.range = range;
            s.reference_range = base;
            s.chance = chance;
            c.shifts.push_back(std::move(s));
        }
    }
    return c;
}

}  // namespace gfxstat::findings
