// SPDX-License-Identifier: MIT
#include "report/summary_comparison_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "report/json_version.h"
#include "report/settling_advice_words.h"

namespace gfxstat::report {
namespace {

std::string where(const findings::SummarySide& s) { return s.file + ":" + std::to_string(s.row.line); }


const char* better_name(analysis::Better b) {
    return b == analysis::Better::lower ? "lower" : b == analysis::Better::higher ? "higher" : "unknown";
}


using Json = nlohmann::ordered_json;

Json num(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }
Json pair(const std::array<double, 2>& a) { return Json::array({num(a[0]), num(a[1])}); }

// Both sds 0: the test is undefined, with no p and no interval (analysis/
// keeps p 0 or 1 and [d, d], statements about the numbers, not noise).
Json ttest(const analysis::TTest& t) {
    return {{"t", num(t.t)},
            {"df", num(t.df)},
            {"p", t.defined ? num(t.p) : Json(nullptr)},
            {"ci", t.defined ? pair(t.ci) : Json(nullptr)},
            {"difference", num(t.difference)},
            {"stderr", num(t.stderr_)},
            {"defined", t.defined}};
}

}  // namespace

std::string summary_comparisons_json(const findings::SummaryComparisons& r) {
    const findings::SummaryCompareSettings& s = r.settings;
    Json doc;
    cli::add_gfxstat_version(doc);
    doc["from"] = "summaries";
    doc["note"] = findings::kFromSummaries;
    doc["confidence"] = s.confidence;
    doc["threshold"] = s.threshold;
    doc["direction"] = better_name(s.better);
    doc["adjustment"] = s.fdr ? "benjamini-hochberg" : "holm";
    doc["family_size"] = r.family_size;
    doc["comparisons"] = Json::array();
    for (const findings::SummaryComparison& c : r.comparisons) {
        const formats::SummaryRow &a = c.baseline.row, &b = c.candidate.row;
        Json j;
        j["bench"] = c.bench.empty() ? Json(nullptr) : Json(c.bench);
        j["baseline"] = a.label;
        j["candidate"] = b.label;
        j["lines"] = Json::array({where(c.baseline), where(c.candidate)});
        j["n"] = Json::array({a.n, b.n});
        j["mean"] = Json::array({num(a.mean), num(b.mean)});
        j["sd"] = Json::array({num(a.sd), num(b.sd)});
        j["welch"] = ttest(c.welch);
        j["student"] = ttest(c.student);
        j["relative_change"] = num(c.relative_change);
        j["relative_ci"] = c.welch.defined ? pair(c.relative_ci) : Json(nullptr);
        j["equivalence"] = {{"margin", num(c.equivalence.margin)},
                            {"p", c.welch.defined ? num(c.equivalence.p) : Json(nullptr)},
                            {"ci", c.welch.defined ? pair(c.equivalence.ci) : Json(nullptr)},
                            {"equivalent", c.welch.defined && c.equivalence.equivalent}};
        j["cohens_d"] = c.effect.defined ? num(c.effect.cohens_d) : Json(nullptr);
        j["hedges_g"] = c.effect.defined ? num(c.effect.hedges_g) : Json(nullptr);
        j["hedges_g_ci"] = c.effect.defined ? pair(c.effect.g_ci) : Json(nullptr);
        j["p_adjusted"] = num(c.p_adjusted);
        j["p_label"] = c.p_label;
        const analysis::Verdict& v = c.verdict;
        j["verdict"] = {{"outcome", analysis::outcome_name(v.outcome)},
                        {"primary_test", analysis::primary_test_name(v.primary)},
                        {"beyond_threshold", v.beyond_threshold},
                        {"constant", v.constant},
                        {"runs_needed", v.runs_needed ? Json(std::ceil(*v.runs_needed)) : Json(nullptr)},
                        {"detectable_change", v.detectable_change ? num(*v.detectable_change) : Json(nullptr)},
                        {"reason", verdict_reason(v)}};
        doc["comparisons"].push_back(std::move(j));
    }
    return doc.dump(2, ' ', false, Json::error_handler_t::replace);
}

}  // namespace gfxstat::report
