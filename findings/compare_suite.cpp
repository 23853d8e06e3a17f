// SPDX-License-Identifier: MIT
#include "findings/compare_suite.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/moments.h"
#include "analysis/paired_suite_verdict.h"
#include "analysis/t_tests.h"
#include "analysis/verdict.h"
#include "data/input_error.h"
#include "text/plural.h"

namespace gfxstat::cli {

namespace {

double mean_of(const ReportSample& s) { return analysis::moments(s.sample.view()).mean; }

}  // namespace

bool wants_paired_suite(const CompareReport& r) {
    size_t primaries = 0;
    bool single = false;
    for (const MetricReport& m : r.metrics) {
        if (m.exact) return false;
        if (!m.primary) continue;
        ++primaries;
        single |= m.baseline.sample.size() == 1;
        for (const ReportSample& c : m.candidates) single |= c.sample.size() == 1;
    }
    return primaries >= 2 && single;
}

void analyse_paired_suite(CompareReport& r, bool fdr) {
    r.paired_by_benchmark = true;
    r.paired.clear();
    std::vector<std::string> labels;
    for (const MetricReport& m : r.metrics)
        for (const ReportSample& c : m.candidates)
            if (std::find(labels.begin(), labels.end(), c.label) == labels.end()) labels.push_back(c.label);
    analysis::PairedSuiteOptions opt;
    opt.confidence = r.confidence;
    opt.threshold = r.threshold;
    for (const std::string& label : labels) {
        PairedSuiteReport p;
        p.candidate = label;
        std::vector<analysis::PairedValue> pairs;
        std::string first_unit;
        bool units_differ = false;
        for (const MetricReport& m : r.metrics) {
            if (!m.primary || m.baseline.sample.size() == 0) continue;
            const auto it = std::find_if(m.candidates.begin(), m.candidates.end(),
                                         [&](const ReportSample& c) { return c.label == label; });
            if (it == m.candidates.end() || it->sample.size() == 0) continue;
            const double b = mean_of(m.baseline), c = mean_of(*it);
            pairs.push_back({b, c, m.better});
            p.benchmarks.push_back(metric_title(m));
            p.baseline_values.push_back(b);
            p.candidate_values.push_back(c);
            p.directions.push_back(m.better);
            if (p.benchmarks.size() == 1) first_unit = m.unit;
            else units_differ |= m.unit != first_unit;
        }
        if (pairs.size() < 2)
            throw data::InputError("'" + label + "' and '" + r.metrics[0].baseline.label + "' share " +
                                   std::to_string(pairs.size()) +
                                   " benchmark; a suite measured once a side is tested as pairs, one per "
                                   "benchmark, and needs 2 or more (or measure each benchmark 2+ times a side)");
        const bool positive = std::all_of(pairs.begin(), pairs.end(), [](const analysis::PairedValue& v) {
            return v.baseline > 0 && v.candidate > 0;
        });
        if (!positive && units_differ)
            throw data::InputError("the benchmarks of '" + label +
                                   "' come in different units and not every value is positive: neither their "
                                   "ratios nor their differences compare across benchmarks");
        p.suite = analysis::analyse_paired_suite(pairs, opt);
        r.paired.push_back(std::move(p));
    }
    // The candidates' p-values are one family.
    std::vector<analysis::PrimaryChoice> choices;
    std::vector<double> pvals;
    for (const PairedSuiteReport& p : r.paired) {
        choices.push_back(analysis::paired_suite_primary(p.suite));
        pvals.push_back(analysis::paired_suite_p(p.suite, choices.back()));
    }
    const std::vector<double> adjusted = fdr ? analysis::benjamini_hochberg_adjust(pvals) : analysis::holm_adjust(pvals);
    r.family_size = pvals.size();
    for (size_t i = 0; i < r.paired.size(); ++i) {
        PairedSuiteReport& p = r.paired[i];
        const analysis::VerdictInputs in = analysis::paired_suite_verdict_inputs(
            p.suite, choices[i], p.baseline_values, r.confidence, r.threshold, adjusted[i],
            r.paired.size() > 1 ? (fdr ? "BH-adjusted p" : "Holm-adjusted p") : "p");
        analysis::VerdictInputs un = in;
        // Differences are oriented so that above 0 is better; when every
        // benchmark is lower-is-better (frame times, latencies) the verdict
        // reads the change as the rows do, candidate over baseline.
        const bool all_lower = p.suite.oriented && !p.directions.empty() &&
                               std::all_of(p.directions.begin(), p.directions.end(),
                                           [](analysis::Better b) { return b == analysis::Better::lower; });
        if (all_lower) {
            un.better = analysis::Better::lower;
            un.change = -in.change;
            un.relative_change = p.suite.log_ratio ? std::expm1(un.change) : -in.relative_change;
        }
        p.verdict = analysis::decide(un);
    }
}

void leave_out_unmeasured(CompareReport& r) {
    const auto least = [](const MetricReport& m) -> size_t { return m.exact ? 1 : 2; };
    // Nothing left would be no suite: then the comparison's error says why.
    const bool any_left = std::any_of(r.metrics.begin(), r.metrics.end(), [&](const MetricReport& m) {
        return m.baseline.sample.size() >= least(m) &&
               std::any_of(m.candidates.begin(), m.candidates.end(),
                           [&](const ReportSample& c) { return c.sample.size() >= least(m); });
    });
    if (!any_left) return;
    std::vector<MetricReport> kept;
    for (MetricReport& m : r.metrics) {
        const std::string title = metric_title(m);
        if (m.baseline.sample.size() < least(m)) {
            r.selection_notes.push_back(title + ": left out: the baseline " + m.baseline.label + " has " +
                                        text::plural(m.baseline.sample.size(), "value"));
            continue;
        }
        for (size_t k = 0; k < m.candidates.size();) {
            if (m.candidates[k].sample.size() >= least(m)) {
                ++k;
                continue;
            }
            r.selection_notes.push_back(title + ": " + m.candidates[k].label + " left out: it has " +
                                        text::plural(m.candidates[k].sample.size(), "value"));
            m.candidates.erase(m.candidates.begin() + static_cast<std::ptrdiff_t>(k));
            if (k < m.designs.size()) m.designs.erase(m.designs.begin() + static_cast<std::ptrdiff_t>(k));
        }
        if (!m.candidates.empty()) kept.push_back(std::move(m));
    }
    r.metrics = std::move(kept);
}

}  // namespace gfxstat::cli
