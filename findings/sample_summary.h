// SPDX-License-Identifier: MIT
// gfxstat summary's model: per data set, its count, quantiles, mean and
// standard deviation, and (when asked) the diagnostics of its values in
// run order. Renderers: report/summary_text.h, report/summary_json.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnostics.h"
#include "data/results_model.h"
#include "data/results_select.h"
#include "data/sample.h"

namespace gfxstat::findings {

struct SampleSummary {
    std::string name;
    size_t n = 0;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0, mean = 0, stddev = 0;
    bool exact = true;
    size_t binary_tokens = 0;
    std::string metric, unit;  // results files only
    data::Direction direction = data::Direction::unknown;
    size_t excluded = 0;       // runs left out (failed, warm-up, ...)
    std::optional<analysis::SampleDiagnostics> diagnostics;
};

// A sample of a results file: the metric it measures and how many runs
// the selection left out (failed, warm-up, ...).
struct SampleOrigin {
    data::MetricInfo metric;
    size_t excluded = 0;
};

// `s` is reordered by the quantiles (its values in run order are read
// first, for the diagnostics). `origin`: null for a column file.
SampleSummary summarize_sample(data::Sample& s, const data::BootLayout& boots, const SampleOrigin* origin,
                               bool diagnose);

// Rows grouped by metric, in order of first appearance.
std::vector<std::vector<SampleSummary>> by_metric(const std::vector<SampleSummary>& rows);

}  // namespace gfxstat::findings
