// SPDX-License-Identifier: MIT
#include "data/results_overview.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "data/throttled_runs.h"
#include "data/volatile_facts.h"

namespace gfxstat::data {

ResultsOverview overview(const ResultsFile& file) {
    ResultsOverview o;
    std::unordered_map<std::string, size_t> vslot, bslot, mslot;
    std::vector<std::set<std::string>> machine_boots;
    for (const std::string& v : file.variants()) {
        vslot.emplace(v, o.variants.size());
        o.variants.push_back({});
        o.variants.back().variant = v;
    }
    // Every field any referenced environment has, so that a field missing
    // from one variant's snapshot shows up as a difference too.
    std::set<std::string> fields;
    for (const RunRecord& r : file.runs()) {
        if (r.environment.empty()) continue;
        const Environment* env = file.find_environment(r.environment);
        for (const auto& [k, v] : env->fields) fields.insert(k);
        for (const auto& [k, v] : env->tags) fields.insert("tag:" + k);
    }
    std::map<std::string, EnvironmentField> env_fields;
    for (const std::string& f : fields) env_fields[f].field = f;

    for (const RunRecord& r : file.runs()) {
        VariantOverview& v = o.variants[vslot.at(r.variant)];
        ++v.runs;
        bool seen = false;
        for (const auto& org : v.origins) seen |= (org == r.origin);
        if (!seen) v.origins.push_back(r.origin);
        if (r.warmup) {
            ++v.warmup;
        } else {
            ++v.by_class[static_cast<size_t>(r.exit_class)];
            if (r.exit_class == ExitClass::ok) {
                v.throttled += run_throttled(r);
                for (const MetricValues& m : r.metrics) {
                    v.samples[m.name] += m.values.size();
                    ++v.runs_with_metric[m.name];
                }
            }
        }
        auto [it, fresh] = bslot.emplace(r.boot, o.boots.size());
        if (fresh) {
            o.boots.push_back({r.boot, {}});
            o.known_boots += !r.boot.empty();
        }
        ++o.boots[it->second].second[r.variant];

        const Environment* env = r.environment.empty() ? nullptr : file.find_environment(r.environment);
        if (!env) ++o.runs_without_environment;
        const std::string machine = env ? machine_key(*env) : std::string();
        if (machine.empty()) {
            ++o.runs_of_unknown_machine;
        } else {
            auto [m, first] = mslot.emplace(machine, o.machines.size());
            if (first) {
                o.machines.push_back({machine, machine_name(*env), 0, {}});
                machine_boots.emplace_back();
            }
            ++o.machines[m->second].runs[r.variant];
            if (!r.boot.empty()) machine_boots[m->second].insert(r.boot);
        }
        if (env && env->workload) {
            auto w = std::find_if(v.workloads.begin(), v.workloads.end(),
                                  [&](const auto& p) { return p.first == *env->workload; });
            if (w == v.workloads.end()) v.workloads.emplace_back(*env->workload, 1);
            else ++w->second;
        } else {
            ++v.runs_without_workload;
        }
        if (r.boot.empty()) ++o.runs_of_unknown_boot;
        for (auto& [name, f] : env_fields) {
            std::string value;
            if (env) {
                if (name.rfind("tag:", 0) == 0) {
                    auto t = env->tags.find(name.substr(4));
                    if (t != env->tags.end()) value = t->second;
                } else {
                    auto t = env->fields.find(name);
                    if (t != env->fields.end()) value = t->second;
                }
            }
            ++f.values[r.variant][value];
        }
    }
    for (size_t i = 0; i < o.machines.size(); ++i) o.machines[i].boots = machine_boots[i].size();
    for (auto& [name, f] : env_fields) {
        std::set<std::set<std::string>> distinct;
        for (const auto& [variant, values] : f.values) {
            std::set<std::string> keys;
            for (const auto& [value, n] : values) keys.insert(value);
            f.varies_within_variant |= keys.size() > 1;
            distinct.insert(keys);
        }
        f.differs_between_variants = distinct.size() > 1;
        // Facts of the moment differ from run to run whatever the
        // configuration: context (findings/volatile_context.h), not a
        // difference.
        if (is_volatile_field(name)) continue;
        if (f.differs_between_variants || f.varies_within_variant) o.environment.push_back(f);
    }
    return o;
}

}  // namespace gfxstat::data
