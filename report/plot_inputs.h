// SPDX-License-Identifier: MIT
// What compare's pictures draw (plot/plot_data.h), filled from the report
// compare analysed: the runs as analysed (CompareReport::keep_run_order),
// their boots and blocks, the medians' and the boots' intervals, and the
// verdict in words. Neither plot/ nor this file computes a statistic: the
// intervals drawn are the ones findings/sample_intervals.h computed at the
// report's confidence, the median's distribution-free interval per variant
// and a t interval of the mean per boot (the boot means themselves are the
// ones compare's boot clustering tests).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "findings/compare_findings.h"
#include "data/results_model.h"
#include "plot/charts.h"
#include "plot/plot_data.h"

namespace gfxstat::cli {

// One metric of the report, the baseline first, then each candidate.
// `files` are the results files compare read, in input order (empty for
// column files): warm-ups and invalid runs, which the analysis leaves out,
// are drawn from them, marked, when their runs line up with the analysed
// values (same count and values in run order); otherwise only the analysed
// runs are drawn. Runs --drop-outliers left out are drawn, marked dropped.
// Needs report.keep_run_order to have been set before the analysis (the
// analysis sorts the samples); without it the values are drawn in sorted
// order.
plot::MetricPlot metric_plot(const CompareReport& report, const MetricReport& m,
                             const std::vector<data::ResultsFile>& files);

// A suite's forest: each metric's (benchmark's) relative change against the
// baseline with the primary test's interval, one row per metric and
// candidate, and each candidate's geomean turned into a change of the same
// orientation when every metric shares one direction (else "better is +").
// nullopt when no metric has a comparison (a suite measured once a side).
std::optional<plot::ForestPlot> forest_plot(const CompareReport& report);
// A forest's size: as tall as its rows need (a default-sized chart of two
// rows is mostly empty, one of fifty is cramped).
plot::ChartOptions forest_options(const plot::ForestPlot& f);

// The verdict of candidate k of m in words, for a caption:
// "loaded: regression, +3.2% (...): difference of means ...".
std::string verdict_caption(const CompareReport& report, const MetricReport& m, size_t k);

// A metric's title with the unit its charts and report show it in, which
// compare chooses from the baseline's mean: "latency_max (ms, recorded in
// us)", "fps (fps)", "value" without a unit.
std::string metric_heading(const MetricReport& m);

}  // namespace gfxstat::cli
