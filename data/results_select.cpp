// SPDX-License-Identifier: MIT
#include "data/results_select.h"

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "data/input_error.h"

namespace gfxstat::data {

size_t SelectionCounts::excluded() const {
    size_t n = warmup + without_metric;
    for (size_t c : excluded_by_class) n += c;
    return n;
}

namespace {

std::string quoted_list(const std::vector<std::string>& items) {
    std::string s;
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", '" : "'") + items[i] + "'";
    return s.empty() ? "none" : s;
}

// Accumulates runs into samples per (variant, metric), for every metric,
// since which metric is wanted may only be known at the end of the file
// ("the only metric").
class Accumulator {
public:
    explicit Accumulator(const std::vector<std::string>& variants) {
        for (const std::string& v : variants) wanted_.insert(v);
    }

    void add(const RunRecord& run) {
        // Every variant, wanted or not, in order of first appearance: what
        // ResultsFile::variants() says, and all there is of it when the
        // file was read keeping identities only (read_and_select).
        if (all_variants_set_.insert(run.variant).second) all_variants_.push_back(run.variant);
        if (!wanted_.empty() && !wanted_.count(run.variant)) return;
        Variant& v = variants_[run.variant];
        if (run.warmup) {
            ++v.warmup;
            return;
        }
        if (run.exit_class != ExitClass::ok) {
            ++v.by_class[static_cast<size_t>(run.exit_class)];
            if (run.exit_class == ExitClass::invalid) v.invalid_runs.emplace_back(run.run, run.exit_reason);
            return;
        }
        ++v.ok_runs;
        const uint32_t env = environment_index(run.environment);
        for (const MetricValues& m : run.metrics) {
            PerMetric& pm = v.metrics[m.name];
            ++pm.runs;
            pm.track_boot(run.boot, m.values.size());
            pm.track_environment(env, m.values.size());
            pm.values += m.values.size();
            for (const NumberToken& t : m.values) {
                if (t.status == TokenStatus::decimal)
                    pm.builder.add_decimal(t.negative, t.significand, t.exponent);
                else
                    pm.builder.add(t);
            }
        }
    }

    MetricSelection finish(const ResultsFile& file, const std::string& name, std::string_view metric,
                           const std::vector<std::string>& variants) {
        // Within-run metrics (a run's frame times) are never samples of
        // runs: "the only metric" is the only one that is, and naming one
        // is refused, pointing at the per-run metrics beside it.
        std::vector<std::string> metric_names;
        const MetricInfo* only = nullptr;
        for (const MetricInfo& m : file.metrics())
            if (!m.within_run()) {
                metric_names.push_back(m.name);
                only = &m;
            }
        const MetricInfo* chosen_metric = nullptr;
        if (metric.empty()) {
            if (metric_names.size() != 1)
                throw input_error(name, 0,
                                  metric_names.empty()
                                      ? std::string(file.metrics().empty() ? "holds no metrics"
                                                                           : "holds no metric with one sample per run")
                                      : "holds several metrics (" + quoted_list(metric_names) +
                                            "); choose one with --metric");
            chosen_metric = only;
        } else {
            chosen_metric = file.find_metric(metric);
            if (!chosen_metric)
                throw UnknownMetricError(input_error(name, 0, "has no metric '" + std::string(metric) +
                                                                  "'; it holds " + quoted_list(metric_names)),
                                         std::string(metric), metric_names);
            if (chosen_metric->within_run()) throw within_run_refusal(name, *chosen_metric, metric_names);
        }
        return take(file, *chosen_metric, chosen_variants(name, variants));
    }

    // Every metric of the file, in declaration order, from the one pass.
    std::vector<MetricSelection> finish_all(const ResultsFile& file, const std::string& name,
                                            const std::vector<std::string>& variants) {
        const std::vector<std::string> chosen = chosen_variants(name, variants);
        std::vector<MetricSelection> out;
        out.reserve(file.metrics().size());
        for (const MetricInfo& m : file.metrics()) out.push_back(take(file, m, chosen));
        return out;
    }

private:
    // "metric 'frame_time' holds one value per frame (3600 frames in 3
    // runs), ...": the counts over every variant read, ok runs only.
    InputError within_run_refusal(const std::string& name, const MetricInfo& m,
                                  const std::vector<std::string>& per_run) const {
        size_t values = 0, runs = 0;
        for (const auto& [label, v] : variants_)
            if (auto it = v.metrics.find(m.name); it != v.metrics.end()) {
                values += it->second.values;
                runs += it->second.runs;
            }
        return input_error(name, 0,
                           "metric '" + m.name + "' holds one value per " + m.per + " (" + std::to_string(values) +
                               " " + m.per + (values == 1 ? "" : "s") + " in " + std::to_string(runs) +
                               (runs == 1 ? " run" : " runs") + "): values within one run are not independent "
                               "samples, so analyses compare runs; choose a per-run metric with --metric (" +
                               quoted_list(per_run) + ")");
    }

    std::vector<std::string> chosen_variants(const std::string& name,
                                             const std::vector<std::string>& variants) const {
        const std::vector<std::string>& all = all_variants_;
        const std::vector<std::string>& chosen = variants.empty() ? all : variants;
        std::unordered_set<std::string> present(all.begin(), all.end()), seen;
        for (const std::string& v : chosen) {
            if (!present.count(v))
                throw input_error(name, 0, "has no variant '" + v + "'; it holds " + quoted_list(all));
            if (!seen.insert(v).second) throw input_error(name, 0, "variant '" + v + "' selected twice");
        }
        if (chosen.empty()) throw input_error(name, 0, "holds no runs");
        return chosen;
    }

    // Moves the samples of `metric` out of the accumulator.
    MetricSelection take(const ResultsFile& file, const MetricInfo& metric, const std::vector<std::string>& chosen) {
        MetricSelection sel;
        sel.metric = metric;
        for (const std::string& label : chosen) {
            Variant& v = variants_[label];
            PerMetric pm;
            if (auto it = v.metrics.find(metric.name); it != v.metrics.end()) {
                pm = std::move(it->second);
                v.metrics.erase(it);  // freed as soon as taken: memory stays one copy of the values
            }
            SelectionCounts c;
            c.runs_used = pm.runs;
            c.values = pm.values;
            c.warmup = v.warmup;
            c.excluded_by_class = v.by_class;
            c.invalid_runs = v.invalid_runs;
            c.without_metric = v.ok_runs - pm.runs;
            BootLayout layout;
            if (pm.boot_known) {
                layout.boots = std::move(pm.boots);
                layout.boot_of_value = std::move(pm.boot_of_value);
                layout.firsts = std::move(pm.firsts);
            }
            if (pm.env_known) {
                place_machines(layout, pm, file);
                for (const auto& [env, count] : pm.env_runs) layout.environments.emplace_back(env_ids_[env], count);
            }
            sel.variants.push_back({label, std::move(pm.builder).finish(label), c, std::move(layout)});
        }
        return sel;
    }

    static constexpr uint32_t kNoEnvironment = UINT32_MAX;

    // Environments by a small index, in order of first use: runs refer to
    // them by id, and which machine an id means is looked up once, at the
    // end, in the file (read_and_select sees the runs before the file is
    // whole, but every environment is declared before the runs using it).
    uint32_t environment_index(const std::string& id) {
        if (id.empty()) return kNoEnvironment;
        const auto [it, added] = env_index_.emplace(id, static_cast<uint32_t>(env_ids_.size()));
        if (added) env_ids_.push_back(id);
        return it->second;
    }

    struct PerMetric;

    // The machine of each value from the runs' environments, and boots
    // nested in machines (a boot id seen on two machines is two boots).
    void place_machines(BootLayout& layout, const PerMetric& pm, const ResultsFile& file) const {
        std::vector<int64_t> machine_of_env(env_ids_.size(), -2);  // -2: not looked up, -1: unknown
        std::unordered_map<std::string, uint32_t> machine_index;
        std::vector<uint32_t> of_value;
        of_value.reserve(pm.values);
        for (const auto& [env, count] : pm.env_runs) {
            int64_t& m = machine_of_env[env];
            if (m == -2) {
                const Environment* e = file.find_environment(env_ids_[env]);
                const std::string key = e ? machine_key(*e) : std::string();
                if (key.empty()) {
                    m = -1;
                } else {
                    const auto [it, added] = machine_index.emplace(key, static_cast<uint32_t>(layout.machines.size()));
                    if (added) {
                        layout.machines.push_back(key);
                        layout.machine_names.push_back(machine_name(*e));
                    }
                    m = it->second;
                }
            }
            if (m < 0) {  // a run on an unknown machine: nothing is known about machines
                layout.machines.clear();
                layout.machine_names.clear();
                return;
            }
            of_value.insert(of_value.end(), count, static_cast<uint32_t>(m));
        }
        layout.machine_of_value = std::move(of_value);
        nest_boots(layout);
    }

    // Splits each boot id the layout shows on two or more machines into
    // one boot per machine, "<boot id>@<machine key>".
    static void nest_boots(BootLayout& l) {
        if (l.boot_of_value.empty() || l.boot_of_value.size() != l.machine_of_value.size()) return;
        std::vector<int64_t> machine_of_boot(l.boots.size(), -1);
        std::vector<bool> split(l.boots.size(), false);
        bool any = false;
        for (size_t i = 0; i < l.boot_of_value.size(); ++i) {
            int64_t& m = machine_of_boot[l.boot_of_value[i]];
            if (m < 0) m = l.machine_of_value[i];
            else if (m != l.machine_of_value[i]) any = split[l.boot_of_value[i]] = true;
        }
        if (!any) return;
        std::vector<std::string> boots;
        std::unordered_map<uint64_t, uint32_t> index;
        l.firsts.clear();
        for (size_t i = 0; i < l.boot_of_value.size(); ++i) {
            const uint32_t b = l.boot_of_value[i], m = l.machine_of_value[i];
            const uint64_t key = (static_cast<uint64_t>(b) << 32) | (split[b] ? m : 0);
            const auto [it, added] = index.emplace(key, static_cast<uint32_t>(boots.size()));
            if (added) {
                boots.push_back(split[b] ? l.boots[b] + "@" + l.machines[m] : l.boots[b]);
                l.firsts.push_back(i);
            }
            l.boot_of_value[i] = it->second;
        }
        l.boots = std::move(boots);
    }

    struct PerMetric {
        SampleBuilder builder;
        size_t runs = 0, values = 0;
        // Boots, while every run so far carried a boot id.
        bool boot_known = true;
        std::vector<std::string> boots;
        std::unordered_map<std::string, uint32_t> boot_index;
        std::vector<uint32_t> boot_of_value;
        std::vector<size_t> firsts;
        // Environments, while every run so far had one: (environment
        // index, values) for each stretch of runs in one environment.
        bool env_known = true;
        std::vector<std::pair<uint32_t, size_t>> env_runs;

        void track_environment(uint32_t env, size_t count) {
            if (!env_known) return;
            if (env == kNoEnvironment) {
                env_known = false;
                std::vector<std::pair<uint32_t, size_t>>().swap(env_runs);
                return;
            }
            if (count == 0) return;
            if (!env_runs.empty() && env_runs.back().first == env) env_runs.back().second += count;
            else env_runs.emplace_back(env, count);
        }

        void track_boot(const std::string& boot, size_t count) {
            if (!boot_known) return;
            if (boot.empty()) {
                boot_known = false;
                std::vector<uint32_t>().swap(boot_of_value);
                return;
            }
            if (count == 0) return;
            const auto [it, added] = boot_index.emplace(boot, static_cast<uint32_t>(boots.size()));
            if (added) {
                boots.push_back(boot);
                firsts.push_back(values);
            }
            boot_of_value.insert(boot_of_value.end(), count, it->second);
        }
    };
    struct Variant {
        size_t warmup = 0, ok_runs = 0;
        std::array<size_t, kExitClassCount> by_class{};
        std::vector<std::pair<uint64_t, std::string>> invalid_runs;
        std::unordered_map<std::string, PerMetric> metrics;
    };
    std::unordered_set<std::string> wanted_;
    std::vector<std::string> all_variants_;
    std::unordered_set<std::string> all_variants_set_;
    std::unordered_map<std::string, Variant> variants_;
    std::unordered_map<std::string, uint32_t> env_index_;
    std::vector<std::string> env_ids_;
};

}  // namespace

MetricSelection select_metric(const ResultsFile& file, const std::string& name,
                              std::string_view metric, const std::vector<std::string>& variants) {
    Accumulator acc(variants);
    for (const RunRecord& run : file.runs()) acc.add(run);
    return acc.finish(file, name, metric, variants);
}

MetricSelection read_and_select(std::string_view text, const std::string& name,
                                std::string_view metric, const std::vector<std::string>& variants,
                                ReadReport* report) {
    Accumulator acc(variants);
    const ResultsFile file =
        parse_results(text, name, report, [&](RunRecord& run) {
            acc.add(run);
            for (MetricValues& m : run.metrics) m.values.clear();  // frees them
        });
    return acc.finish(file, name, metric, variants);
}

std::vector<MetricSelection> select_all_metrics(const ResultsFile& file, const std::string& name,
                                               const std::vector<std::string>& variants) {
    Accumulator acc(variants);
    for (const RunRecord& run : file.runs()) acc.add(run);
    return acc.finish_all(file, name, variants);
}

namespace {

// `of_value` without the entries at `indices` (increasing).
void erase_indices(std::vector<uint32_t>& of_value, const std::vector<size_t>& indices) {
    std::vector<uint32_t> kept;
    kept.reserve(of_value.size());
    size_t next = 0;
    for (size_t i = 0; i < of_value.size(); ++i) {
        if (next < indices.size() && indices[next] == i) {
            ++next;
            continue;
        }
        kept.push_back(of_value[i]);
    }
    of_value = std::move(kept);
}

}  // namespace

void erase_values(BootLayout& layout, const std::vector<size_t>& indices) {
    if (indices.empty()) return;
    if (!layout.machine_of_value.empty()) erase_indices(layout.machine_of_value, indices);
    if (layout.boot_of_value.empty()) return;
    erase_indices(layout.boot_of_value, indices);
    // The first remaining value of each boot.
    layout.firsts.clear();
    std::vector<bool> seen(layout.boots.size(), false);
    for (size_t i = 0; i < layout.boot_of_value.size(); ++i)
        if (!seen[layout.boot_of_value[i]]) {
            seen[layout.boot_of_value[i]] = true;
            layout.firsts.push_back(i);
        }
}

std::string describe_exclusions(const SelectionCounts& c) {
    std::string s;
    const auto add = [&](size_t n, const char* one, const char* many) {
        if (n == 0) return;
        if (!s.empty()) s += ", ";
        s += std::to_string(n) + " " + (n == 1 ? one : many);
    };
    add(c.excluded_by_class[static_cast<size_t>(ExitClass::fail)], "failed", "failed");
    add(c.excluded_by_class[static_cast<size_t>(ExitClass::crash)], "crashed", "crashed");
    add(c.excluded_by_class[static_cast<size_t>(ExitClass::timeout)], "timed out", "timed out");
    add(c.excluded_by_class[static_cast<size_t>(ExitClass::skip)], "skipped", "skipped");
    add(c.excluded_by_class[static_cast<size_t>(ExitClass::invalid)], "invalid", "invalid");
    add(c.warmup, "warm-up", "warm-ups");
    add(c.without_metric, "run without the metric", "runs without the metric");
    return s;
}

}  // namespace gfxstat::data
