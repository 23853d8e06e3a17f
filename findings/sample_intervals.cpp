// SPDX-License-Identifier: MIT
#include "findings/sample_intervals.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "analysis/location_interval.h"
#include "analysis/moments.h"
#include "analysis/student_t.h"

namespace gfxstat::findings {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The values as analysed, in the order they ran when it was kept
// (CompareReport::keep_run_order; the analysis sorts `sample`).
std::vector<double> analysed_values(const cli::ReportSample& s) {
    if (!s.run_order.empty()) return s.run_order;
    std::vector<double> v(s.sample.size());
    const analysis::ScaledValues view = s.sample.view();
    for (size_t i = 0; i < v.size(); ++i) v[i] = view.at(i);
    return v;
}

// `median`: the median's interval when the comparison has it already (of
// the same values at the same confidence), else null.
void describe(cli::ReportSample& s, double confidence, const analysis::LocationInterval* median) {
    cli::SampleIntervals& out = s.intervals;
    out = {};
    // The mean and the relative half-width of its t interval (NaN with one
    // value, or a mean of 0).
    if (s.sample.size() != 0) {
        const analysis::Moments m = analysis::moments(s.sample.view());
        out.mean = m.mean;
        if (m.n >= 2 && m.mean != 0) {
            const double half = analysis::t_quantile(1 - (1 - confidence) / 2, static_cast<double>(m.n - 1)) *
                                m.stddev / std::sqrt(static_cast<double>(m.n));
            out.mean_spread = std::fabs(half / m.mean);
        }
    }
    const std::vector<double> analysed = analysed_values(s);
    // The median and its distribution-free interval (undefined below 6
    // values at 95%).
    out.median = median ? *median : analysis::median_interval(analysed, confidence);
    // Per boot: the mean of its analysed values and its t interval.
    const data::BootLayout& layout = s.layout;
    if (layout.boot_of_value.size() != analysed.size() || analysed.empty()) return;
    std::vector<std::vector<double>> by_boot(layout.boots.size());
    for (size_t i = 0; i < analysed.size(); ++i) by_boot[layout.boot_of_value[i]].push_back(analysed[i]);
    out.boot_means.resize(by_boot.size());
    for (size_t b = 0; b < by_boot.size(); ++b) {
        if (by_boot[b].empty()) continue;
        analysis::LocationInterval mean = analysis::mean_interval(by_boot[b], confidence);
        // The mean of positive values is positive: the part of a t interval
        // below 0 (few runs, a wide spread) holds no mean they could have,
        // and leaving it out keeps the interval's coverage.
        const bool positive = std::all_of(by_boot[b].begin(), by_boot[b].end(), [](double x) { return x > 0; });
        if (mean.defined && positive) mean.low = std::max(mean.low, 0.0);
        out.boot_means[b] = {by_boot[b].size(), mean};
    }
}

}  // namespace

void describe_samples(cli::CompareReport& report) {
    for (cli::MetricReport& m : report.metrics) {
        // The comparisons ran on these very samples (after --drop-outliers)
        // at this confidence; a suite of paired benchmarks has none.
        const auto& c = m.comparisons;
        describe(m.baseline, report.confidence, c.empty() ? nullptr : &c.front().baseline_median);
        for (size_t k = 0; k < m.candidates.size(); ++k)
            describe(m.candidates[k], report.confidence, k < c.size() ? &c[k].candidate_median : nullptr);
    }
}

}  // namespace gfxstat::findings
