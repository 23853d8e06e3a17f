// SPDX-License-Identifier: MIT
// compare's JSON, for a suite: "suite" (the table as the text shows it:
// rows in their order, marks, counts, the geomean row) and "paired" (the
// suite tested as pairs, one per benchmark). Full precision; undefined
// statistics are null.
#include <cmath>
#include <nlohmann/json.hpp>

#include "report/suite_table.h"
#include "report/settling_advice_words.h"

namespace gfxstat::cli {

namespace {

using nlohmann::json;

json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
json pair(const std::array<double, 2>& a) { return json::array({num(a[0]), num(a[1])}); }

const char* direction_name(analysis::Better b) {
    return b == analysis::Better::lower ? "lower" : b == analysis::Better::higher ? "higher" : "unknown";
}

json row_json(const SuiteRow& row, const SuiteTable& t) {
    json j = {{"benchmark", row.name},
              {"unit", row.unit},
              {"direction", direction_name(row.better)},
              {"role", row.primary ? "primary" : "secondary"},
              {"baseline", {{"centre", num(row.baseline)}, {"ci_relative", num(row.baseline_spread)}}}};
    json cells = json::array();
    for (size_t k = 0; k < t.candidates.size(); ++k) {
        const auto& c = row.cells[k];
        if (!c) continue;
        cells.push_back({{"candidate", t.candidates[k]},
                         {"centre", num(c->centre)},
                         {"ci_relative", num(c->spread)},
                         {"change", num(c->change)},
                         {"change_ci", json::array({num(c->change_lo), num(c->change_hi)})},
                         {"p", num(c->p)},
                         {"mark", std::string(1, c->mark)},
                         {"verdict", c->outcome.empty() ? json(nullptr) : json(c->outcome)},
                         {"notes", c->notes}});
    }
    j["candidates"] = std::move(cells);
    return j;
}

json signed_rank(const analysis::SignedRank& s) {
    return {{"v", num(s.v)}, {"p", s.defined ? num(s.p) : json(nullptr)}, {"n", s.n}, {"zeros", s.zeros}, {"exact", s.exact},
            {"ties", s.ties}, {"method", s.method}};
}

}  // namespace

void add_suite_json(const CompareReport& r, json& doc) {
    if (!suite_shape(r)) {
        doc["suite"] = nullptr;
    } else {
        const SuiteTable t = build_suite_table(r);
        json s;
        s["design"] = r.paired_by_benchmark ? "paired_by_benchmark" : "per_benchmark";
        s["baseline"] = t.baseline;
        s["candidates"] = t.candidates;
        s["benchmarks"] = t.benchmarks;
        s["sort"] = r.suite.sort;
        s["only_changed"] = r.suite.only_changed;
        s["hidden"] = t.hidden;
        json rows = json::array();
        for (const SuiteRow& row : t.rows) rows.push_back(row_json(row, t));
        s["rows"] = std::move(rows);
        s["geomean"] = t.geomean ? row_json(*t.geomean, t) : json(nullptr);
        s["geomean_turned"] = t.geomean_turned;
        json counts = json::array();
        for (const SuiteCounts& n : t.counts)
            counts.push_back({{"candidate", n.candidate},
                              {"better", n.better},
                              {"worse", n.worse},
                              {"changed", n.changed},
                              {"equivalent", n.equivalent},
                              {"no_significant_change", n.unchanged},
                              {"untold", n.untold}});
        // With image checks: the "!" rows better by timing alone whose
        // images differ (not in "changed").
        if (r.images)
            for (size_t k = 0; k < t.counts.size(); ++k) counts[k]["renders_differently"] = t.counts[k].renders_differently;
        s["counts"] = std::move(counts);
        s["notes"] = t.notes;
        s["selection_notes"] = r.selection_notes;
        doc["suite"] = std::move(s);
    }
    json paired = json::array();
    for (const PairedSuiteReport& p : r.paired) {
        const analysis::PairedSuite& s = p.suite;
        paired.push_back({{"candidate", p.candidate},
                          {"benchmarks", p.benchmarks},
                          {"baseline_values", p.baseline_values},
                          {"candidate_values", p.candidate_values},
                          {"pairs", s.pairs},
                          {"log_ratio", s.log_ratio},
                          {"oriented", s.oriented},
                          {"differences", s.differences},
                          {"paired_t", {{"t", num(s.t.t)}, {"df", num(s.t.df)},
                                        {"p", s.t.defined ? num(s.t.p) : json(nullptr)},
                                        {"ci", s.t.defined ? pair(s.t.ci) : json(nullptr)},
                                        {"mean", num(s.t.difference)}, {"defined", s.t.defined}}},
                          {"wilcoxon", signed_rank(s.wilcoxon)},
                          {"hodges_lehmann", {{"estimate", num(s.hodges_lehmann.estimate)},
                                              {"ci", pair(s.hodges_lehmann.ci)},
                                              {"achieved_confidence", num(s.hodges_lehmann.achieved_confidence)}}},
                          {"equivalence", {{"margin", num(s.equivalence.margin)},
                                           {"p", s.t.defined ? num(s.equivalence.p) : json(nullptr)},
                                           {"equivalent", s.t.defined && s.equivalence.equivalent}}},
                          {"geomean_ratio", num(s.geomean_ratio)},
                          {"geomean_ci", pair(s.geomean_ci)},
                          {"hl_ratio", num(s.hl_ratio)},
                          {"hl_ratio_ci", pair(s.hl_ratio_ci)},
                          {"unpaired_welch_p", num(s.unpaired_welch_p)},
                          {"verdict", {{"outcome", analysis::outcome_name(p.verdict.outcome)},
                                       {"primary_test", analysis::primary_test_name(p.verdict.primary)},
                                       {"p_adjusted", num(p.verdict.p_adjusted)},
                                       {"beyond_threshold", p.verdict.beyond_threshold},
                                       {"reason", report::verdict_reason(p.verdict)}}}});
        add_image_check_json(r, p.candidate, p.image_overruled, paired.back()["verdict"]);
    }
    doc["paired"] = std::move(paired);
}

}  // namespace gfxstat::cli
