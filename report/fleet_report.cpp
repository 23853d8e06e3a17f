// SPDX-License-Identifier: MIT
#include "report/fleet_report.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "report/diagnostic_words.h"

namespace gfxstat::cli {

namespace {

using nlohmann::json;

json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
json pair(const std::array<double, 2>& a) { return json::array({num(a[0]), num(a[1])}); }

std::string name_in(const data::BootLayout& l, const std::string& id) {
    for (size_t i = 0; i < l.machines.size(); ++i)
        if (l.machines[i] == id) return i < l.machine_names.size() && !l.machine_names[i].empty() ? l.machine_names[i] : id;
    return {};
}

// "slowed down", "sped up" or "changed", for a change in the metric's own
// direction.
const char* movement(analysis::Better better, double change) {
    if (better == analysis::Better::unknown || change == 0) return "changed";
    const bool worse = (better == analysis::Better::lower) == (change > 0);
    return worse ? "slowed down" : "sped up";
}

json components(const analysis::NestedVariance& v) {
    if (!v.defined) return nullptr;
    json j = {{"levels", v.levels},
              {"machines", v.machines},
              {"boots", v.levels == 2 ? json(v.boots) : json(nullptr)},
              {"n", v.n},
              {"sigma2_machines", num(v.sigma2_machines)},
              {"sigma2_boots", v.levels == 2 ? num(v.sigma2_boots) : json(nullptr)},
              {"sigma2_within", num(v.sigma2_within)},
              {"sigma2_machines_raw", num(v.sigma2_machines_raw)},
              {"sigma2_boots_raw", v.levels == 2 ? num(v.sigma2_boots_raw) : json(nullptr)},
              {"share_machines", num(v.share_machines)},
              {"share_boots", v.levels == 2 ? num(v.share_boots) : json(nullptr)},
              {"share_within", num(v.share_within)},
              {"mean_squares", {{"machines", num(v.ms_machines)},
                                {"boots", v.levels == 2 ? num(v.ms_boots) : json(nullptr)},
                                {"within", num(v.ms_within)}}},
              {"f_machines", {{"f", num(v.f_machines)},
                              {"df", {num(v.f_machines_df1), num(v.f_machines_df2)}},
                              {"p", num(v.p_machines)},
                              {"against", v.levels == 2 ? "boots" : "runs"}}}};
    j["f_boots"] = v.levels == 2 ? json{{"f", num(v.f_boots)}, {"df", {num(v.df_boots), num(v.df_within)}}, {"p", num(v.p_boots)}}
                                 : json(nullptr);
    return j;
}

}  // namespace

std::string machine_display_name(const MetricReport& m, size_t k, const std::string& id) {
    std::string name = name_in(m.baseline.layout, id);
    if (name.empty() && k < m.candidates.size()) name = name_in(m.candidates[k].layout, id);
    return name.empty() ? id : name;
}

std::string fleet_variance_words(const analysis::NestedVariance& v) {
    if (!v.defined) return {};
    if (v.levels == 2)
        return fmt("%.0f%% between machines, %.0f%% between boots, %.0f%% within boots (%zu machines, %zu boots; "
                   "machines against boots F test p = %.2g)",
                   v.share_machines * 100, v.share_boots * 100, v.share_within * 100, v.machines, v.boots,
                   v.p_machines);
    return fmt("%.0f%% between machines, %.0f%% within machines (%zu machines, boots unknown; machines against "
               "runs F test p = %.2g)",
               v.share_machines * 100, v.share_within * 100, v.machines, v.p_machines);
}

std::string odd_machine_sentence(const MetricReport& m, size_t k) {
    const analysis::MachineChanges& mc = m.comparisons[k].fleet.changes;
    if (!mc.odd) return {};
    std::vector<size_t> out;
    for (size_t i = 0; i < mc.rows.size(); ++i)
        if (mc.rows[i].stands_out) out.push_back(i);
    const analysis::MachineChange& r = mc.rows[*mc.odd];
    const size_t others = mc.rows.size() - 1;
    if (out.size() == 1)
        return fmt("%s alone %s by %.3g%%; the other %zu machine%s agree on %+.2g%%.",
                   machine_display_name(m, k, r.machine).c_str(), movement(m.better, r.change),
                   std::fabs(r.relative_change) * 100, others, others == 1 ? "" : "s",
                   r.others_relative_change * 100);
    std::string names;
    for (size_t i = 0; i < out.size(); ++i)
        names += (i == 0 ? "" : i + 1 == out.size() ? " and " : ", ") + machine_display_name(m, k, mc.rows[out[i]].machine);
    return fmt("%s each changed unlike the other machines; %s %s most (by %.3g%%).", names.c_str(),
               machine_display_name(m, k, r.machine).c_str(), movement(m.better, r.change),
               std::fabs(r.relative_change) * 100);
}

std::string machines_needed_words(const analysis::Verdict& v, double threshold) {
    if (!v.by_machines || !v.runs_needed) return {};
    return fmt("about %.0f machines per side would resolve +-%.3g%% at this variability", std::ceil(*v.runs_needed),
               threshold * 100);
}

nlohmann::json fleet_json(const MetricReport& m, size_t k) {
    const analysis::Fleet& f = m.comparisons[k].fleet;
    const analysis::Verdict& v = m.verdicts[k];
    json j = {{"baseline_machines", f.baseline_machines},
              {"candidate_machines", f.candidate_machines},
              {"shared_machines", f.shared_machines},
              {"machines_matter", f.machines_matter},
              {"boots_matter", f.boots_matter},
              {"by_machines", f.by_machines},
              {"paired", f.paired},
              {"components", {{"baseline", components(f.baseline_variance)},
                              {"candidate", components(f.candidate_variance)}}}};
    if (f.by_machines) {
        const analysis::TTest& t = f.machine_means_test;
        j["machine_means_test"] = means_test_json(t, f.paired);
        j["machine_means_equivalence"] = means_equivalence_json(f.machine_means_equivalence, t);
        j["machines_needed"] = v.by_machines && v.runs_needed ? json(std::ceil(*v.runs_needed)) : json(nullptr);
    } else {
        j["machine_means_test"] = nullptr;
        j["machine_means_equivalence"] = nullptr;
        j["machines_needed"] = nullptr;
    }
    json means = {{"baseline", json::array()}, {"candidate", json::array()}};
    for (double x : f.baseline_means) means["baseline"].push_back(num(x));
    for (double x : f.candidate_means) means["candidate"].push_back(num(x));
    j["machine_means"] = std::move(means);
    json rows = json::array();
    for (const analysis::MachineChange& r : f.changes.rows) {
        json row = {{"machine", r.machine},
                    {"name", machine_display_name(m, k, r.machine)},
                    {"baseline_runs", r.baseline_runs},
                    {"candidate_runs", r.candidate_runs},
                    {"unit", r.by_boots ? "boots" : "runs"},
                    {"baseline_units", r.baseline_units},
                    {"candidate_units", r.candidate_units},
                    {"baseline_mean", num(r.baseline_mean)},
                    {"candidate_mean", num(r.candidate_mean)},
                    {"change", num(r.change)},
                    {"relative_change", num(r.relative_change)},
                    {"welch", {{"t", num(r.welch.t)}, {"df", num(r.welch.df)}, {"p", r.welch.defined ? num(r.welch.p) : json(nullptr)},
                               {"defined", r.welch.defined}}},
                    {"ci", r.welch.defined ? pair(r.welch.ci) : json(nullptr)},
                    {"relative_ci", r.welch.defined && std::isfinite(r.relative_ci[0]) ? pair(r.relative_ci) : json(nullptr)},
                    {"stands_out", r.stands_out}};
        row["leave_one_out"] = r.loo_defined ? json{{"others_change", num(r.others_change)},
                                                    {"others_relative_change", num(r.others_relative_change)},
                                                    {"t", num(r.loo_t)},
                                                    {"df", num(r.loo_df)},
                                                    {"p", num(r.loo_p)},
                                                    {"p_adjusted", num(r.loo_p_adjusted)}}
                                             : json(nullptr);
        rows.push_back(std::move(row));
    }
    j["rows"] = std::move(rows);
    if (f.changes.odd) {
        const analysis::MachineChange& r = f.changes.rows[*f.changes.odd];
        j["outlier"] = {{"machine", r.machine},
                        {"name", machine_display_name(m, k, r.machine)},
                        {"relative_change", num(r.relative_change)},
                        {"others_relative_change", num(r.others_relative_change)},
                        {"p_adjusted", num(r.loo_p_adjusted)},
                        {"sentence", odd_machine_sentence(m, k)}};
    } else {
        j["outlier"] = nullptr;
    }
    return j;
}

}  // namespace gfxstat::cli
