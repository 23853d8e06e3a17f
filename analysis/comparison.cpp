#include "analysis/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/order_stats.h"

namespace gfxstat::analysis {

namespace {

std::vector<double> as_doubles(const ScaledValues& v) {
    std::vector<double> out(v.size());
    for (size_t i = 0; i < out.size(); ++i) out[i] = v.at(i);
    return out;
}

// min and max from the doubles; the median by exact selection on the
// sample itself (which is reordered); the exact moments.
SampleSummary summarize(const std::vector<double>& values, MutableScaledValues exact,
                        const Moments& m) {
    SampleSummary s;
    s.n = m.n;
    s.mean = m.mean;
    s.stddev = m.stddev;
    double lo = values[0], hi = values[0];
    for (double x : values) lo = std::min(lo, x), hi = std::max(hi, x);
    s.min = lo;
    s.max = hi;
    s.median = median(exact);
    return s;
}

}  // namespace

TwoSampleComparison compare_samples(MutableScaledValues baseline_values,
                                    MutableScaledValues candidate_values, const ComparisonOptions& o) {
    const ScaledValues baseline = baseline_values.view(), candidate = candidate_values.view();
    TwoSampleComparison c;
    const TwoSampleMoments m = two_sample_moments(baseline, candidate);
    const std::vector<double> a = as_doubles(baseline), b = as_doubles(candidate);
    c.baseline = summarize(a, baseline_values, m.baseline);
    c.candidate = summarize(b, candidate_values, m.candidate);
    c.difference = m.difference;
    c.relative_difference = m.baseline.mean != 0 ? m.difference / m.baseline.mean
                                                 : std::numeric_limits<double>::quiet_NaN();
    c.student = student_t_test(m, o.confidence);
    c.welch = welch_t_test(m, o.confidence);
    c.mann_whitney = mann_whitney(a, b);
    c.hodges_lehmann = hodges_lehmann(a, b, o.confidence);
    if (o.bootstrap_resamples > 0) {
        BootstrapOptions bo;
        bo.seed = o.seed;
        bo.resamples = o.bootstrap_resamples;
        bo.confidence = o.confidence;
        bo.threads = o.threads;
        c.bootstrap = bootstrap_medians(a, b, bo);
    }
    c.effect = effect_size(m, o.confidence);
    c.equivalence = tost(m, o.threshold, 1 - o.confidence);
    c.primary = choose_primary(shape(baseline, m.baseline), shape(candidate, m.candidate));
    const double pooled_var =
        ((m.baseline.n - 1) * m.baseline.variance + (m.candidate.n - 1) * m.candidate.variance) /
        static_cast<double>(m.baseline.n + m.candidate.n - 2);
    c.cv = m.baseline.mean != 0 ? std::sqrt(pooled_var) / std::fabs(m.baseline.mean) : 0;
    if (c.primary.test == PrimaryTest::welch) {
        c.primary_p = c.welch.p;
        c.relative_change = std::isfinite(c.relative_difference) ? c.relative_difference : 0;
    } else {
        c.primary_p = c.mann_whitney.p;
        c.relative_change =
            c.baseline.median != 0 ? c.hodges_lehmann.estimate / std::fabs(c.baseline.median) : 0;
    }
    return c;
}

}  // namespace gfxstat::analysis
