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
    // Relative to the baseline's magnitude, so that the sign stays the sign
    // of the difference when the baseline is negative.
    c.relative_difference = m.baseline.mean != 0 ? m.difference / std::fabs(m.baseline.mean)
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
    // Scaled by the baseline mean before squaring, so that values near the
    // double range do not overflow the pooled variance.
    if (m.baseline.mean != 0) {
        const double ra = m.baseline.stddev / std::fabs(m.baseline.mean);
        const double rb = m.candidate.stddev / std::fabs(m.baseline.mean);
        c.cv = std::sqrt(((m.baseline.n - 1) * ra * ra + (m.candidate.n - 1) * rb * rb) /
                         static_cast<double>(m.baseline.n + m.candidate.n - 2));
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (c.primary.test == PrimaryTest::welch) {
        c.primary_p = c.welch.p;
        c.change = c.difference;
        c.relative_change = c.relative_difference;
    } else {
        c.primary_p = c.mann_whitney.p;
        c.change = c.hodges_lehmann.estimate;
        c.relative_change = c.baseline.median != 0 ? c.change / std::fabs(c.baseline.median) : nan;
    }
    return c;
}

}  // namespace gfxstat::analysis
