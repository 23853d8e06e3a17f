// SPDX-License-Identifier: MIT
// The JSON report, documented in docs/compare-format.md. Numbers are full
// precision (shortest round trip); a statistic that is undefined is null.
#include <cmath>
#include <nlohmann/json.hpp>

#include "findings/compare_findings.h"
#include "report/compare_renderers.h"
#include "report/diagnostic_words.h"
#include "report/throttle_note.h"
#include "report/fleet_report.h"
#include "report/image_check_words.h"
#include "report/json_version.h"
#include "report/settling_advice_words.h"
#include "report/volatile_words.h"
#include "report/suite_table.h"

namespace gfxstat::cli {

namespace {

using nlohmann::json;

json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
json pair(const std::array<double, 2>& a) { return json::array({num(a[0]), num(a[1])}); }

// An inconclusive sequential verdict whose --max-runs cannot likely settle
// the threshold at this noise: the advice's figures (blocks are runs a
// variant); null for every other verdict.
json settling_json(const analysis::Verdict& v) {
    if (!v.settling) return nullptr;
    const analysis::SettlingAdvice& a = *v.settling;
    return {{"max_blocks", a.max_blocks},
            {"threshold", num(a.threshold)},
            {"blocks_needed", a.blocks_needed ? json(*a.blocks_needed) : json(nullptr)},
            {"settling_threshold", a.settling_threshold ? num(*a.settling_threshold) : json(nullptr)},
            {"settling_blocks", a.settling_threshold ? json(a.settling_blocks) : json(nullptr)}};
}

json summary(const ReportSample& s, const analysis::SampleSummary& m) {
    json j = {{"label", s.label}, {"n", m.n},           {"min", num(m.min)},   {"max", num(m.max)},
              {"median", num(m.median)}, {"mean", num(m.mean)}, {"stddev", num(m.stddev)}};
    if (s.from_results) {
        j["runs_excluded"] = s.counts.excluded();
        json invalid = json::array();  // the kernel reported trouble during these runs
        for (const auto& [run, reason] : s.counts.invalid_runs) invalid.push_back({{"run", run}, {"reason", reason}});
        j["invalid_runs"] = std::move(invalid);
    }
    json dropped = json::array();
    for (const auto& [index, value] : s.dropped) dropped.push_back({{"index", index}, {"value", num(value)}});
    j["dropped_outliers"] = std::move(dropped);
    return j;
}

// An undefined test (both samples constant, too few values) has no p and
// no interval: analysis/ keeps p 0 or 1 and [d, d] as statements about the
// sample, which a script reading "p" would take for a significant result.
json ttest(const analysis::TTest& t) {
    return {{"t", num(t.t)}, {"df", num(t.df)}, {"p", t.defined ? num(t.p) : json(nullptr)},
            {"ci", t.defined ? pair(t.ci) : json(nullptr)}, {"stderr", num(t.stderr_)}, {"defined", t.defined}};
}

// TOST is two one-sided t tests: undefined where its t test is.
json equivalence(const analysis::Equivalence& e, bool defined) {
    return {{"margin", num(e.margin)},
            {"p", defined ? num(e.p) : json(nullptr)},
            {"ci", defined ? pair(e.ci) : json(nullptr)},
            {"equivalent", defined && e.equivalent}};
}

json interval(const analysis::BootstrapInterval& b) {
    return {{"estimate", num(b.estimate)}, {"percentile", pair(b.percentile)},
            {"bca", b.bca_defined ? pair(b.bca) : json(nullptr)}};
}

const char* better_name(analysis::Better b) {
    return b == analysis::Better::lower ? "lower" : b == analysis::Better::higher ? "higher" : "unknown";
}

// "first" of a list of frames: null when empty.
json first_frame(const findings::FrameNumbers& f) { return f.empty() ? json(nullptr) : json(f.front()); }

}  // namespace

void add_image_check_json(const CompareReport& r, const std::string& label, bool overruled, json& verdict) {
    if (!r.images) return;
    const findings::ImageComparison* c = r.image_comparison(label);
    if (!c) return;
    const findings::ImageChecks& all = *r.images;
    const findings::VariantFrames* cand = nullptr;
    for (const auto& v : all.candidates)
        if (v.variant == label) cand = &v;
    verdict["images"] = report::image_outcome_name(c->outcome);
    const bool judged = c->outcome != findings::ImageOutcome::not_judged;
    json j = {{"words", report::image_verdict_words(*c)},
              {"compared", c->compared},
              {"differing", c->differing.size()},
              {"first_differing", c->differing.empty() ? json(nullptr) : json(c->first_differing())},
              {"checking_runs", {{"baseline", all.baseline.runs}, {"candidate", cand ? cand->runs : 0}}},
              {"unstable", {{"baseline", all.baseline.unstable.size()},
                            {"baseline_first", first_frame(all.baseline.unstable)},
                            {"candidate", cand ? cand->unstable.size() : 0},
                            {"candidate_first", cand ? first_frame(cand->unstable) : json(nullptr)}}},
              {"only_baseline", c->only_baseline.size()},
              {"only_candidate", c->only_candidate.size()},
              {"not_judged", judged ? json(nullptr) : json(report::not_judged_name(c->why))},
              {"not_judged_variant", judged || c->who.empty() ? json(nullptr) : json(c->who)}};
    verdict["image_check"] = std::move(j);
    if (overruled) verdict["timing_outcome"] = "improvement";
}

void render_json(const CompareReport& r, FILE* out) {
    json doc;
    doc["format"] = "gfxstat-compare";
    doc["version"] = 1;
    add_gfxstat_version(doc);
    doc["confidence"] = r.confidence;
    doc["threshold"] = r.threshold;
    doc["adjustment"] = r.adjustment;
    doc["bootstrap"] = {{"resamples", r.resamples}, {"seed", r.seed}};
    doc["comparisons"] = json::array();
    for (const auto& m : r.metrics)
        for (size_t k = 0; k < m.comparisons.size(); ++k) {
            const auto& c = m.comparisons[k];
            const auto& v = m.verdicts[k];
            json j;
            j["metric"] = metric_title(m);
            j["unit"] = m.unit;
            j["direction"] = better_name(m.better);
            j["role"] = m.primary ? "primary" : "secondary";
            j["secondary_why"] = m.primary ? json(nullptr) : json(m.secondary_why);
            j["exact"] = m.exact;
            j["baseline"] = summary(m.baseline, c.baseline);
            j["candidate"] = summary(m.candidates[k], c.candidate);
            j["baseline"]["diagnostics"] =
                c.baseline_diagnostics ? diagnostics_json(*c.baseline_diagnostics, 100, &m.baseline.dropped) : json(nullptr);
            j["candidate"]["diagnostics"] =
                c.candidate_diagnostics ? diagnostics_json(*c.candidate_diagnostics, 100, &m.candidates[k].dropped) : json(nullptr);
            if (c.candidate_in_baseline_modes)
                j["candidate"]["weights_in_baseline_modes"] = pair(*c.candidate_in_baseline_modes);
            if (c.baseline_in_candidate_modes)
                j["baseline"]["weights_in_candidate_modes"] = pair(*c.baseline_in_candidate_modes);
            j["clustering"] = clustering_json(c);
            // Values of a fleet (2+ machines): present only then.
            if (c.fleet.known) j["machines"] = fleet_json(m, k);
            j["design"] = {{"kind", design_kind(m, k)}, {"words", design_words(m, k)}};
            if (const DesignUse* u = m.design(k)) {
                const data::DesignRecord& d = u->design;
                json& dj = j["design"];
                dj["id"] = d.id;
                dj["generator_kind"] = d.kind;
                dj["order"] = d.order;
                dj["seed"] = d.seed;
                dj["stopping"] = d.stopping;
                dj["method"] = d.method;
                dj["metric"] = d.metric;
                dj["design_confidence"] = num(d.confidence);
                dj["design_threshold"] = num(d.threshold);
                if (!d.looks.empty()) {
                    dj["looks"] = d.looks;
                    dj["boundary"] = d.boundary;
                }
                dj["blocks"] = u->pairs.blocks.size();
                dj["incomplete_blocks"] = u->pairs.incomplete;
                if (c.blocks) {
                    const analysis::BlockAnalysis& b = *c.blocks;
                    dj["confidence"] = num(b.design.confidence);
                    dj["log_ratio"] = b.log_ratio;
                    dj["paired_t"] = ttest(b.paired);
                    dj["equivalence"] = equivalence(b.equivalence, b.paired.defined);
                    if (b.look)
                        dj["sequential"] = {{"call", analysis::sequential_call_name(b.look->call)},
                                            {"p", num(b.look->p)},
                                            {"relative_change", num(b.look->relative_change)},
                                            {"interval", pair({b.look->lower, b.look->upper})},
                                            {"blocks_to_settle", b.look->blocks_to_settle
                                                                     ? json(*b.look->blocks_to_settle)
                                                                     : json(nullptr)},
                                            {"needs", b.look->needs}};
                    else
                        dj["sequential"] = nullptr;
                }
            }
            if (c.stored) {
                // One new boot against stored history (analysis/stored_boots.h).
                const analysis::StoredBoots& t = c.stored->test;
                json& dj = j["design"];
                dj["name"] = "stored_boots";
                dj["judged"] = c.stored->not_judged.empty();
                dj["not_judged"] = c.stored->not_judged.empty() ? json(nullptr) : json(c.stored->not_judged);
                dj["baseline_boots"] = t.baseline_boots;
                dj["candidate_boots"] = t.candidate_boots;
                dj["baseline_mean"] = num(t.baseline_mean);
                dj["candidate_mean"] = num(t.candidate_mean);
                dj["s_boot_means"] = num(t.s_boot_means);
                dj["s_between"] = num(t.s_between);
                dj["s_within"] = num(t.s_within);
                dj["df"] = num(t.df);
                dj["stderr"] = num(t.stderr_);
                dj["t"] = num(t.t);
                dj["p"] = t.defined ? num(t.p) : json(nullptr);
                dj["min_baseline_boots"] = analysis::kStoredBootsMinBaseline;
                dj["candidate_machine"] =
                    c.stored->candidate_machine.empty() ? json(nullptr) : json(c.stored->candidate_machine);
                dj["other_machines"] = c.stored->other_machines;
            }
            j["difference"] = num(c.difference);
            j["relative_difference"] = num(c.relative_difference);
            j["tests"]["student"] = ttest(c.student);
            // ministat's relative form: the interval in percent of |mean(baseline)|.
            j["tests"]["student"]["relative_ci_percent"] =
                c.student.defined && c.baseline.mean != 0 ? pair({c.student.ci[0] / std::fabs(c.baseline.mean) * 100,
                                             c.student.ci[1] / std::fabs(c.baseline.mean) * 100})
                                     : json(nullptr);
            j["tests"]["welch"] = ttest(c.welch);
            j["tests"]["mann_whitney"] = {{"u", num(c.mann_whitney.u)},
                                          {"p", num(c.mann_whitney.p)},
                                          {"method", c.mann_whitney.exact ? "exact" : "normal"},
                                          {"ties", c.mann_whitney.ties}};
            j["tests"]["hodges_lehmann"] = {{"estimate", num(c.hodges_lehmann.estimate)},
                                            {"ci", pair(c.hodges_lehmann.ci)}};
            j["tests"]["equivalence"] = equivalence(c.equivalence, c.welch.defined);
            if (c.bootstrap)
                j["bootstrap"] = {{"median_difference", interval(c.bootstrap->median_difference)},
                                  {"median_ratio", c.bootstrap->ratio_defined
                                                       ? interval(c.bootstrap->median_ratio)
                                                       : json(nullptr)},
                                  {"resamples", c.bootstrap->resamples},
                                  {"exact", c.bootstrap->exact}};
            else
                j["bootstrap"] = nullptr;
            j["effect"] = {{"cohens_d", c.effect.defined ? num(c.effect.cohens_d) : json(nullptr)},
                           {"hedges_g", c.effect.defined ? num(c.effect.hedges_g) : json(nullptr)},
                           {"hedges_g_ci", c.effect.defined ? pair(c.effect.g_ci) : json(nullptr)},
                           {"probability_of_superiority", num(c.mann_whitney.probability_of_superiority)}};
            if (!c.tests_computed) j["tests"] = nullptr, j["effect"] = nullptr;
            j["verdict"] = {{"outcome", analysis::outcome_name(v.outcome)},
                            {"primary_test", analysis::primary_test_name(v.primary)},
                            {"primary_test_reason", c.primary.why},
                            {"defined", c.primary_defined},
                            {"p", num(c.primary_p)},
                            {"p_adjusted", num(v.p_adjusted)},
                            {"adjusted", bool(m.adjusted[k])},
                            {"p_label", p_label(r, m, k)},
                            {"change", num(c.change)},
                            {"relative_change", num(c.relative_change)},
                            {"change_estimate", analysis::change_estimate_words(v.primary)},
                            {"change_ci", c.change_ci_defined ? pair(c.change_ci) : json(nullptr)},
                            {"relative_change_ci", c.change_ci_defined ? pair(c.relative_change_ci) : json(nullptr)},
                            {"change_ci_withheld", c.change_ci_withheld.empty() ? json(nullptr)
                                                                                : json(c.change_ci_withheld)},
                            {"beyond_threshold", v.beyond_threshold},
                            {"constant", v.constant},
                            {"runs_needed", v.runs_needed ? json(std::ceil(*v.runs_needed)) : json(nullptr)},
                            {"unit", v.by_blocks ? "blocks" : v.by_machines ? "machines" : v.by_boots ? "boots" : "runs"},
                            {"detectable_change", v.detectable_change ? num(*v.detectable_change) : json(nullptr)},
                            {"reason", report::verdict_reason(v)},
                            {"settling", settling_json(v)}};
            add_image_check_json(r, m.candidates[k].label, m.overruled(k), j["verdict"]);
            if (m.exact)
                j["verdict"]["distinct_values"] = {{"baseline", c.baseline_distinct},
                                                   {"candidate", c.candidate_distinct}};
            doc["comparisons"].push_back(std::move(j));
        }
    doc["family_size"] = r.family_size;
    doc["geomean"] = json::array();
    for (const auto& g : r.geomeans) {
        doc["geomean"].push_back({{"candidate", g.candidate},
                                  {"metrics", g.metrics},
                                  {"ratio", num(g.geomean.ratio)},
                                  {"ci", g.geomean.ci_defined ? pair(g.geomean.ci) : json(nullptr)},
                                  {"better", "above 1"}});
    }
    doc["geomean_notes"] = r.geomean_notes;
    // As show's (docs/results-format.md): candidates that ran under
    // systematically other load, heat or clocks than the baseline.
    doc["context_differences"] = json::array();
    for (const auto& s : r.context_shifts)
        doc["context_differences"].push_back({{"field", s.field},
                                              {"variant", s.variant},
                                              {"reference", s.reference},
                                              {"higher", s.higher},
                                              {"chance", s.chance},
                                              {"text", report::volatile_shift_line(s)}});
    add_throttle_json(r, doc);
    add_suite_json(r, doc);
    std::fprintf(out, "%s\n", doc.dump(2, ' ', false, json::error_handler_t::replace).c_str());
}

}  // namespace gfxstat::cli
