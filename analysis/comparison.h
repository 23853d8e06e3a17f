// Every statistic `gfxstat compare` reports for one baseline/candidate pair
// of one metric, computed in one place: summaries, Student and Welch t,
// Mann-Whitney U with the Hodges-Lehmann shift, bootstrap intervals of the
// median difference and ratio, effect sizes, and the TOST equivalence test.
// The verdict needs the p-values of every comparison (multiplicity), so it
// is made afterwards (verdict.h).
#pragma once

#include <optional>
#include <vector>

#include "analysis/bootstrap.h"
#include "analysis/order_stats.h"
#include "analysis/rank_tests.h"
#include "analysis/t_tests.h"
#include "analysis/verdict.h"

namespace gfxstat::analysis {

struct SampleSummary {
    size_t n = 0;
    double min = 0, max = 0, median = 0, mean = 0, stddev = 0;
};

struct ComparisonOptions {
    double confidence = 0.95;
    double threshold = 0.01;     // relative
    int bootstrap_resamples = 9999;  // 0: no bootstrap
    uint64_t seed = 12345;
    int threads = 2;
};

struct TwoSampleComparison {
    SampleSummary baseline, candidate;
    double difference = 0;           // mean(candidate) - mean(baseline)
    double relative_difference = 0;  // difference / mean(baseline); NaN when that mean is 0
    TTest student, welch;
    MannWhitney mann_whitney;
    HodgesLehmann hodges_lehmann;
    std::optional<BootstrapResult> bootstrap;
    EffectSize effect;
    Equivalence equivalence;
    PrimaryChoice primary;
    double primary_p = 1;            // unadjusted
    double change = 0;               // the primary test's estimate of the change
    // ... relative to the baseline's magnitude (mean or median); NaN when
    // that is 0
    double relative_change = 0;
    double cv = 0;                   // pooled sd / |mean(baseline)|
};

// Both samples need at least 2 values. They are the exact samples (the
// median is selected in place, so their order changes); the rank tests and
// the bootstrap use their correctly rounded doubles.
TwoSampleComparison compare_samples(MutableScaledValues baseline, MutableScaledValues candidate,
                                    const ComparisonOptions& options);

}  // namespace gfxstat::analysis
