// SPDX-License-Identifier: MIT
// What `gfxstat bisect check` and `bisect step` start from: the good and
// bad builds' runs read from their results files (one variant, one per-run
// metric), and the bisection's plan made from them and the options: the
// threshold, the confidence, and the steps the error budget is split over
// (given, from a number of commits, or from git's bisection under way).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "analysis/bisect_classify.h"
#include "data/bisect_log.h"
#include "data/results_model.h"

namespace gfxstat::drivers {

// --good/--bad and what check and step share: the references and the analysis.
struct BisectReferenceOptions {
    std::string good, good_variant, bad, bad_variant, metric;
    double threshold_pct = 1, confidence = 0.95;
    size_t steps = 0, commits = 0, max_runs = 50, min_runs = 3;
};

struct BisectReference {
    data::BisectReferenceRecord record;
    data::MetricInfo metric;
    std::optional<data::WorkloadRecord> workload;
    size_t excluded = 0;  // runs not used: failed, warm-ups, without the metric
};

// The plan both check and step make from the options.
struct PreparedBisection {
    BisectReference good, bad;
    data::BisectPlanRecord plan;
    bool steps_given = false;
    std::string steps_said;  // where the expected steps came from, in words
};

// Throws data::InputError naming the file for references that cannot be
// bisected (no runs, several variants and none chosen, no such metric, a
// per-frame metric, the two files declaring the metric otherwise).
PreparedBisection prepare_bisection(const BisectReferenceOptions& o, const std::string& work_dir);

// How far apart the references are, at the plan's error budget (what
// `bisect check` decides on); std::invalid_argument when they cannot be
// analysed.
analysis::BisectReferences analyse_references(const PreparedBisection& p);

}  // namespace gfxstat::drivers
