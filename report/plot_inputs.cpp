// SPDX-License-Identifier: MIT
// compare's report as plot data (plot_inputs.h): the drawing needs the runs
// in the order they ran with their boots, which the report keeps, and the
// runs the analysis left out, which only the results files hold.
#include "report/image_check_words.h"
#include "report/plot_inputs.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "analysis/location_interval.h"
#include "report/headline_words.h"
#include "text/readable_units.h"

namespace gfxstat::cli {

namespace {

// The values as analysed, in run order when the report kept it.
std::vector<double> analysed_values(const ReportSample& s) {
    if (!s.run_order.empty()) return s.run_order;
    std::vector<double> v(s.sample.size());
    const analysis::ScaledValues view = s.sample.view();
    for (size_t i = 0; i < v.size(); ++i) v[i] = view.at(i);
    return v;
}

// One value of the variant's run order before --drop-outliers: analysed
// (its index among the analysed values) or dropped.
struct Slot {
    double value = 0;
    bool dropped = false;
    size_t analysed = 0;
};

std::vector<Slot> original_order(const ReportSample& s, const std::vector<double>& analysed) {
    std::vector<std::pair<size_t, double>> dropped = s.dropped;
    std::sort(dropped.begin(), dropped.end());
    std::vector<Slot> out;
    out.reserve(analysed.size() + dropped.size());
    size_t a = 0, d = 0;
    while (a < analysed.size() || d < dropped.size()) {
        if (d < dropped.size() && dropped[d].first == out.size()) {
            out.push_back({dropped[d++].second, true, 0});
        } else if (a < analysed.size()) {
            out.push_back({analysed[a], false, a});
            ++a;
        } else {  // a dropped position past the end: keep it, in order
            out.push_back({dropped[d++].second, true, 0});
        }
    }
    return out;
}

double token_value(const data::NumberToken& t) {
    if (t.status != data::TokenStatus::decimal) return t.value;
    // The correctly rounded double of the exact decimal, as the sample holds it.
    const std::string text = (t.negative ? "-" : "") + std::to_string(t.significand) + "e" + std::to_string(t.exponent);
    return std::strtod(text.c_str(), nullptr);
}

bool same_value(double a, double b) { return a == b || std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b)); }

// The file and variant name sample `index` (0 the baseline) came from:
// one file compared within itself names its variants by label; several
// files hold one variant each, in input order.
std::pair<const data::ResultsFile*, std::string> source_of(const std::vector<data::ResultsFile>& files, size_t index,
                                                           const std::string& label) {
    if (files.size() == 1) return {&files[0], label};
    if (index < files.size()) {
        const std::vector<std::string> vs = files[index].variants();
        if (vs.size() == 1) return {&files[index], vs[0]};
    }
    return {nullptr, ""};
}

// Every run of the variant with a value of the metric, in file order:
// warm-ups and invalid runs marked, the others lined up with `slots`.
// Empty when they do not line up (a filter, a projection, runs the
// selection counted differently): then only the analysed values are drawn.
std::vector<plot::RunPoint> runs_from_file(const data::ResultsFile& file, const std::string& variant,
                                           const std::string& metric, const std::vector<Slot>& slots,
                                           std::vector<std::string>& boot_of_slot) {
    std::vector<plot::RunPoint> out;
    size_t next = 0;
    boot_of_slot.assign(slots.size(), "");
    for (const data::RunRecord& run : file.runs()) {
        if (run.variant != variant) continue;
        const data::MetricValues* mv = run.metric(metric);
        if (!mv) continue;
        const bool used = !run.warmup && run.exit_class == data::ExitClass::ok;
        const bool invalid = !run.warmup && run.exit_class == data::ExitClass::invalid;
        if (!used && !run.warmup && !invalid) continue;  // failed, crashed: nothing measured to draw
        for (const data::NumberToken& t : mv->values) {
            plot::RunPoint p;
            p.value = token_value(t);
            p.order = out.size();
            p.boot = run.boot;
            p.block = run.block ? static_cast<int>(*run.block) : -1;
            p.warmup = run.warmup;
            p.invalid = invalid;
            if (used) {
                if (next >= slots.size() || !same_value(slots[next].value, p.value)) return {};
                p.dropped = slots[next].dropped;
                boot_of_slot[next] = run.boot;
                ++next;
            }
            out.push_back(std::move(p));
        }
    }
    if (next != slots.size()) return {};
    return out;
}

std::string short_boot(const std::string& boot) { return boot.size() > 8 ? boot.substr(0, 8) : boot; }

plot::VariantPlot variant_plot(const MetricReport& m, const ReportSample& s, size_t index,
                               const std::vector<data::ResultsFile>& files) {
    plot::VariantPlot v;
    v.label = s.label;
    const std::vector<double> analysed = analysed_values(s);
    const std::vector<Slot> slots = original_order(s, analysed);
    std::vector<std::string> boot_of_slot;
    if (s.from_results && !files.empty() && !m.metric.empty()) {
        const auto [file, variant] = source_of(files, index, s.label);
        if (file) v.runs = runs_from_file(*file, variant, m.metric, slots, boot_of_slot);
    }
    const data::BootLayout& layout = s.layout;
    const bool boots_known = layout.boot_of_value.size() == analysed.size() && !analysed.empty();
    if (v.runs.empty()) {
        for (size_t i = 0; i < slots.size(); ++i) {
            plot::RunPoint p;
            p.value = slots[i].value;
            p.order = i;
            p.dropped = slots[i].dropped;
            if (boots_known && !slots[i].dropped) p.boot = layout.boots[layout.boot_of_value[slots[i].analysed]];
            v.runs.push_back(std::move(p));
        }
    }
    // The median and its distribution-free interval, as findings/ computed
    // it (undefined below 6 values at 95%: drawn as the median alone).
    const analysis::LocationInterval& med = s.intervals.median;
    v.median = {s.label, analysed.size(), med.estimate, med.defined ? med.low : med.estimate,
                med.defined ? med.high : med.estimate};
    // Per boot: the mean of its analysed values and its t interval.
    if (boots_known)
        for (size_t b = 0; b < s.intervals.boot_means.size() && b < layout.boots.size(); ++b) {
            const SampleIntervals::BootMean& boot = s.intervals.boot_means[b];
            if (boot.n == 0) continue;
            const analysis::LocationInterval& mean = boot.mean;
            v.boots.push_back({short_boot(layout.boots[b]), boot.n, mean.estimate,
                               mean.defined ? mean.low : mean.estimate, mean.defined ? mean.high : mean.estimate});
        }
    return v;
}

const char* direction_word(analysis::Better b) {
    switch (b) {
        case analysis::Better::lower: return "lower";
        case analysis::Better::higher: return "higher";
        case analysis::Better::unknown: return "unknown";
    }
    return "unknown";
}

}  // namespace

std::string verdict_caption(const CompareReport& report, const MetricReport& m, size_t k) {
    if (k >= m.comparisons.size() || k >= m.verdicts.size()) return "";
    const analysis::TwoSampleComparison& c = m.comparisons[k];
    const text::DisplayUnit du = text::readable_unit(m.unit, c.baseline.mean);
    return m.candidates[k].label + ": " + report::verdict_outcome_words(m, k) + ", " +
           headline_change(c, m.verdicts[k], report.confidence, m.unit.empty() ? nullptr : &du);
}

namespace {

// The magnitude compare chooses the metric's shown unit from (compare_text's
// heading, the markdown tables): the baseline's mean.
std::optional<double> unit_reference(const MetricReport& m) {
    if (m.comparisons.empty()) return std::nullopt;
    return m.comparisons[0].baseline.mean;
}

}  // namespace

std::string metric_heading(const MetricReport& m) {
    if (m.unit.empty()) return metric_title(m);
    const text::DisplayUnit du = text::readable_unit(m.unit, unit_reference(m).value_or(0.0));
    return metric_title(m) + " (" + du.unit + (du.scaled() ? ", recorded in " + m.unit : "") + ")";
}

plot::MetricPlot metric_plot(const CompareReport& report, const MetricReport& m,
                             const std::vector<data::ResultsFile>& files) {
    plot::MetricPlot p;
    p.metric = metric_title(m);
    p.unit = m.unit;
    p.unit_reference = unit_reference(m);
    p.direction = direction_word(m.better);
    p.variants.push_back(variant_plot(m, m.baseline, 0, files));
    for (size_t k = 0; k < m.candidates.size(); ++k)
        p.variants.push_back(variant_plot(m, m.candidates[k], k + 1, files));
    for (size_t k = 0; k < m.candidates.size(); ++k) {
        const std::string caption = verdict_caption(report, m, k);
        if (caption.empty()) continue;
        p.verdict += (p.verdict.empty() ? "" : "; ") + caption;
    }
    return p;
}

plot::ChartOptions forest_options(const plot::ForestPlot& f) {
    plot::ChartOptions o;
    const size_t rows = f.rows.size() + (f.geomean ? 1 : 0);
    o.height = static_cast<int>(std::min<size_t>(150 + 30 * rows, 4000));
    return o;
}

namespace {

// A suite tested as pairs (each benchmark one value a side): the rows are
// the benchmarks' ratios as the suite table prints them, untested on their
// own (no interval, no verdict); the suite's own estimate, the geomean of
// the ratios with the paired t's interval, is the emphasised row.
std::optional<plot::ForestPlot> paired_forest(const CompareReport& report) {
    const PairedSuiteReport& p = report.paired.front();
    plot::ForestPlot f;
    f.threshold = report.threshold;
    f.title = p.candidate + " against " + report.metrics.front().baseline.label + " (benchmarks paired)";
    bool same = !p.directions.empty();
    for (size_t i = 0; i < p.benchmarks.size() && i < p.baseline_values.size() && i < p.candidate_values.size();
         ++i) {
        if (!(p.baseline_values[i] != 0)) continue;
        plot::ForestRow row;
        row.label = p.benchmarks[i];
        row.change = row.low = row.high = p.candidate_values[i] / p.baseline_values[i] - 1;
        f.rows.push_back(std::move(row));
        same &= p.directions[i] == p.directions[0];
    }
    if (f.rows.empty()) return std::nullopt;
    const analysis::PairedSuite& s = p.suite;
    if (s.log_ratio && std::isfinite(s.geomean_ratio)) {
        // geomean_ratio is oriented (above 1 better) when every direction
        // is known: back into the rows' orientation when they share one.
        const bool lower = s.oriented && same && p.directions[0] == analysis::Better::lower;
        const auto as_change = [&](double ratio) { return lower ? 1 / ratio - 1 : ratio - 1; };
        plot::ForestRow row;
        row.label = std::string("geomean") + (s.oriented && !same ? " (better is +)" : "");
        row.change = as_change(s.geomean_ratio);
        const bool ci = std::isfinite(s.geomean_ci[0]) && std::isfinite(s.geomean_ci[1]);
        row.low = ci ? as_change(lower ? s.geomean_ci[1] : s.geomean_ci[0]) : row.change;
        row.high = ci ? as_change(lower ? s.geomean_ci[0] : s.geomean_ci[1]) : row.change;
        row.verdict = analysis::outcome_name(p.verdict.outcome);
        f.geomean = std::move(row);
    }
    return f;
}

}  // namespace

std::optional<plot::ForestPlot> forest_plot(const CompareReport& report) {
    if (report.metrics.empty()) return std::nullopt;
    if (report.paired_by_benchmark && !report.paired.empty()) return paired_forest(report);
    plot::ForestPlot f;
    f.threshold = report.threshold;
    f.title = "change against " + report.metrics.front().baseline.label;
    size_t candidates = 0;
    for (const MetricReport& m : report.metrics) candidates = std::max(candidates, m.candidates.size());
    std::optional<analysis::Better> shared;  // the one direction of every metric, if any
    bool mixed = false;
    for (const MetricReport& m : report.metrics) {
        for (size_t k = 0; k < m.comparisons.size() && k < m.verdicts.size(); ++k) {
            const analysis::TwoSampleComparison& c = m.comparisons[k];
            plot::ForestRow row;
            row.label = metric_title(m) + (candidates > 1 ? " (" + m.candidates[k].label + ")" : "");
            row.change = c.relative_change;
            const bool ci = c.change_ci_defined && std::isfinite(c.relative_change_ci[0]) &&
                            std::isfinite(c.relative_change_ci[1]);
            row.low = ci ? c.relative_change_ci[0] : c.relative_change;
            row.high = ci ? c.relative_change_ci[1] : c.relative_change;
            row.verdict = analysis::outcome_name(m.verdicts[k].outcome);
            f.rows.push_back(std::move(row));
        }
        if (!shared) shared = m.better;
        else if (*shared != m.better) mixed = true;
    }
    if (f.rows.empty()) return std::nullopt;
    if (!report.geomeans.empty()) {
        // The first candidate's geomean (analysis/geomean.h: oriented, above
        // 1 better), as a change in the rows' orientation when they share one.
        const GeomeanReport& g = report.geomeans.front();
        plot::ForestRow row;
        const bool lower = !mixed && shared == analysis::Better::lower;
        const auto as_change = [&](double ratio) { return lower ? 1 / ratio - 1 : ratio - 1; };
        row.label = "geomean" + std::string(candidates > 1 ? " (" + g.candidate + ")" : "") +
                    (mixed ? " (better is +)" : "");
        row.change = as_change(g.geomean.ratio);
        row.low = g.geomean.ci_defined ? as_change(lower ? g.geomean.ci[1] : g.geomean.ci[0]) : row.change;
        row.high = g.geomean.ci_defined ? as_change(lower ? g.geomean.ci[0] : g.geomean.ci[1]) : row.change;
        row.verdict = "geomean";
        f.geomean = std::move(row);
    }
    return f;
}

}  // namespace gfxstat::cli
