// SPDX-License-Identifier: MIT
#include "report/verdict_rows.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "report/ci/ci_names.h"
#include "report/headline_words.h"
#include "report/image_check_words.h"

namespace gfxstat::cli {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double geometric_mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) {
        if (!(x > 0)) return kNaN;
        s += std::log(x);
    }
    return v.empty() ? kNaN : std::exp(s / static_cast<double>(v.size()));
}

std::string p_words(const std::optional<double>& p, const std::string& label) {
    if (!p) return "no p";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s = %.3g", label.c_str(), *p);
    return buf;
}

void settle_gate(VerdictRow& row, const GateSettings& gate) {
    if (!gate.gate || !row.primary) return;
    row.fails = row.verdict.outcome == analysis::Outcome::regression && row.verdict.beyond_threshold;
    row.inconclusive_fails = gate.strict && row.verdict.outcome == analysis::Outcome::inconclusive;
}

std::string one_line(const VerdictRow& row) {
    return row.metric + ", " + row.candidate + " vs " + row.baseline + ": " +
           (row.renders_differently ? std::string("renders differently") : analysis::outcome_words(row.verdict)) +
           ", " + row.change_words + ", " +
           p_words(row.p, row.p_label) + (row.fails ? " (fails the gate)" : "");
}

// The paired suite of one candidate, as one row.
VerdictRow paired_row(const CompareReport& r, const PairedSuiteReport& p) {
    VerdictRow row;
    row.metric = "suite";
    row.group = "gfxstat";
    row.paired_suite = true;
    row.baseline = r.metrics.empty() ? "" : r.metrics[0].baseline.label;
    row.candidate = p.candidate;
    const bool same_unit = std::all_of(r.metrics.begin(), r.metrics.end(),
                                       [&](const MetricReport& m) { return m.unit == r.metrics[0].unit; });
    row.unit = same_unit && !r.metrics.empty() ? r.metrics[0].unit : "";
    const bool all_lower = !p.directions.empty() &&
                           std::all_of(p.directions.begin(), p.directions.end(),
                                       [](analysis::Better b) { return b == analysis::Better::lower; });
    const bool all_higher = !p.directions.empty() &&
                            std::all_of(p.directions.begin(), p.directions.end(),
                                        [](analysis::Better b) { return b == analysis::Better::higher; });
    row.better = all_lower ? analysis::Better::lower : all_higher ? analysis::Better::higher : analysis::Better::unknown;
    row.baseline_centre = geometric_mean(p.baseline_values);
    row.candidate_centre = geometric_mean(p.candidate_values);
    row.baseline_n = row.candidate_n = p.suite.pairs;
    row.verdict = p.verdict;
    const analysis::PairedSuite& s = p.suite;
    const bool hl = p.verdict.primary == analysis::PrimaryTest::signed_rank_benchmarks;
    double ratio = hl ? s.hl_ratio : s.geomean_ratio;
    std::array<double, 2> ci = hl ? s.hl_ratio_ci : s.geomean_ci;
    // The ratios are turned so that above 1 is better; a suite of
    // lower-is-better benchmarks reads them back as the rows do.
    if (s.oriented && all_lower) {
        ratio = 1 / ratio;
        ci = {1 / ci[1], 1 / ci[0]};
    }
    row.relative_change = s.log_ratio ? ratio - 1 : kNaN;
    if (s.log_ratio && std::isfinite(ci[0]) && std::isfinite(ci[1])) row.relative_ci = std::array{ci[0] - 1, ci[1] - 1};
    if (p.verdict.p_adjusted >= 0 && p.verdict.p_adjusted <= 1) row.p = p.verdict.p_adjusted;
    row.p_label = r.paired.size() > 1 ? (r.adjustment == "holm" ? "Holm-adjusted p" : "BH-adjusted p") : "p";
    row.change_words = std::isfinite(row.relative_change)
                           ? change_percent(row.relative_change) +
                                 (row.relative_ci ? " [" + bound_percent((*row.relative_ci)[0]) + ", " +
                                                        bound_percent((*row.relative_ci)[1]) + "]"
                                                  : std::string(" (no CI)"))
                           : std::string("differences, not ratios");
    return row;
}

}  // namespace

std::string change_cell(const analysis::TwoSampleComparison& c, const analysis::Verdict& v,
                        const text::DisplayUnit& du) {
    const bool relative = std::isfinite(c.relative_change);
    // The spellings of the full report's headline (headline_words.h).
    double magnitude = std::fabs(c.change);
    if (!(magnitude > 0) && c.change_ci_defined)
        magnitude = std::max(std::fabs(c.change_ci[0]), std::fabs(c.change_ci[1]));
    const text::DisplayUnit dd = text::difference_unit(du, magnitude);
    std::string t = relative ? change_percent(c.relative_change) : text::scaled_value(c.change, dd, 3, true);
    if (v.primary == analysis::PrimaryTest::exact) return t + " (exact)";
    if (!c.change_ci_defined || !c.change_ci_withheld.empty()) return t + " (no CI)";
    if (relative && std::isfinite(c.relative_change_ci[0]) && std::isfinite(c.relative_change_ci[1]))
        return t + " [" + bound_percent(c.relative_change_ci[0]) + ", " + bound_percent(c.relative_change_ci[1]) + "]";
    return t + " [" + text::scaled_number(c.change_ci[0], dd, 3, true) + ", " +
           text::scaled_number(c.change_ci[1], dd, 3, true) + "]";
}

std::vector<VerdictRow> verdict_rows(const CompareReport& r, const GateSettings& gate) {
    std::vector<VerdictRow> rows;
    if (r.paired_by_benchmark) {
        for (const PairedSuiteReport& p : r.paired) {
            VerdictRow row = paired_row(r, p);
            row.renders_differently = p.image_overruled;
            settle_gate(row, gate);
            row.line = one_line(row);
            rows.push_back(std::move(row));
        }
        return rows;
    }
    for (const MetricReport& m : r.metrics) {
        if (m.comparisons.empty()) continue;
        const text::DisplayUnit du = text::readable_unit(m.unit, m.comparisons[0].baseline.mean);
        for (size_t k = 0; k < m.comparisons.size() && k < m.verdicts.size(); ++k) {
            const analysis::TwoSampleComparison& c = m.comparisons[k];
            VerdictRow row;
            row.metric = metric_title(m);
            row.group = benchmark_group(m.metric);
            row.unit = m.unit;
            row.better = m.better;
            row.baseline = m.baseline.label;
            row.candidate = m.candidates[k].label;
            row.primary = m.primary;
            row.renders_differently = m.overruled(k);
            row.baseline_centre = c.baseline.mean;
            row.candidate_centre = c.candidate.mean;
            row.baseline_n = c.baseline.n;
            row.candidate_n = c.candidate.n;
            row.relative_change = c.relative_change;
            if (c.change_ci_defined && c.change_ci_withheld.empty() && std::isfinite(c.relative_change_ci[0]) &&
                std::isfinite(c.relative_change_ci[1]))
                row.relative_ci = c.relative_change_ci;
            row.verdict = m.verdicts[k];
            if (c.primary_defined && m.verdicts[k].p_adjusted >= 0 && m.verdicts[k].p_adjusted <= 1)
                row.p = m.verdicts[k].p_adjusted;
            row.p_label = p_label(r, m, k);
            row.change_words = change_cell(c, m.verdicts[k], du);
            row.baseline_side = &m.baseline;
            row.candidate_side = &m.candidates[k];
            settle_gate(row, gate);
            row.line = one_line(row);
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

std::vector<ImageCheckRow> image_check_rows(const CompareReport& r, const GateSettings& gate) {
    std::vector<ImageCheckRow> rows;
    if (!r.images) return rows;
    for (const findings::ImageComparison& c : r.images->comparisons) {
        ImageCheckRow row;
        row.comparison = &c;
        row.words = report::image_verdict_words(c);
        row.line = "images, " + c.candidate + " vs " + c.baseline + ": " + row.words;
        row.fails = gate.gate && findings::image_gate_fails(c, r.allow_image_change);
        row.allowed = findings::image_rules_out_improvement(c) && r.allow_image_change;
        if (row.allowed) row.line += " (allowed: --allow-image-change)";
        if (row.fails) row.line += " (fails the gate)";
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace gfxstat::cli
