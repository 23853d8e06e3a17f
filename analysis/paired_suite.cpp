// SPDX-License-Identifier: MIT
#include "analysis/paired_suite.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "analysis/scaled_values.h"

namespace gfxstat::analysis {
namespace {

// ln(c / b) for c, b > 0. Within a factor 2, c - b is exact (Sterbenz) and
// (c - b) / b is the one rounding of c/b - 1, so log1p keeps the digits that
// log(c / b) would lose to the rounding of a ratio near 1 (a 0.1% change
// would keep only 13 of them). Either way two benchmarks with the same
// exact ratio get the same double, so ties between them stay ties for the
// signed-rank test. A ratio past the double range is split into two logs.
double log_ratio(double b, double c) {
    if (c >= b / 2 && c <= 2 * b) return std::log1p((c - b) / b);
    const double r = c / b;
    if (std::isnormal(r)) return std::log(r);
    return std::log(c) - std::log(b);
}

double mean_abs(std::span<const double> v) {
    long double s = 0;
    for (double x : v) s += std::fabs(x);
    return static_cast<double>(s / static_cast<long double>(v.size()));
}

}  // namespace

PairedSuite analyse_paired_suite(std::span<const PairedValue> pairs, const PairedSuiteOptions& options) {
    if (pairs.size() < 2) throw std::invalid_argument("paired suite: needs at least 2 pairs");
    if (!(options.confidence > 0 && options.confidence < 1))
        throw std::invalid_argument("paired suite: confidence must lie in (0, 1)");
    if (!(options.threshold >= 0) || !std::isfinite(options.threshold))
        throw std::invalid_argument("paired suite: threshold must be finite and >= 0");
    PairedSuite s;
    s.pairs = pairs.size();
    std::vector<double> baseline, candidate;
    baseline.reserve(pairs.size());
    candidate.reserve(pairs.size());
    bool positive = true, known = true;
    for (const PairedValue& p : pairs) {
        if (!std::isfinite(p.baseline) || !std::isfinite(p.candidate))
            throw std::invalid_argument("paired suite: a value is not finite");
        positive &= p.baseline > 0 && p.candidate > 0;
        known &= p.better != Better::unknown;
        baseline.push_back(p.baseline);
        candidate.push_back(p.candidate);
    }
    s.log_ratio = positive;
    s.oriented = known;
    s.differences.reserve(pairs.size());
    for (const PairedValue& p : pairs) {
        const double raw = positive ? log_ratio(p.baseline, p.candidate) : p.candidate - p.baseline;
        if (!std::isfinite(raw)) throw std::invalid_argument("paired suite: a difference overflows");
        // Negated rather than recomputed: ln(b/c) = -ln(c/b) exactly, so
        // the orientation never changes a rank.
        s.differences.push_back(known && p.better == Better::lower ? -raw : raw);
    }

    const std::span<const double> d(s.differences);
    s.t = one_sample_t_test(d, options.confidence);
    s.wilcoxon = wilcoxon_signed_rank(d);
    s.hodges_lehmann = hodges_lehmann_one_sample(d, options.confidence);

    const double alpha = 1 - options.confidence;
    const double margin = positive ? std::log1p(options.threshold) : options.threshold * mean_abs(baseline);
    if (alpha < 0.5) {
        s.equivalence = one_sample_tost(d, margin, alpha);
    } else {
        const double inf = std::numeric_limits<double>::infinity();
        s.equivalence.margin = margin;
        s.equivalence.p = 1;
        s.equivalence.ci = {-inf, inf};
    }

    if (positive) {
        s.geomean_ratio = std::exp(s.t.difference);
        // No interval where the paired t is undefined (every benchmark's
        // ratio the same, or one benchmark): [r, r] would claim certainty.
        if (s.t.defined) s.geomean_ci = {std::exp(s.t.ci[0]), std::exp(s.t.ci[1])};
        s.hl_ratio = std::exp(s.hodges_lehmann.estimate);
        s.hl_ratio_ci = {std::exp(s.hodges_lehmann.ci[0]), std::exp(s.hodges_lehmann.ci[1])};
    }

    const TwoSampleMoments unpaired = two_sample_moments(ScaledValues{std::span<const double>(baseline), 0},
                                                         ScaledValues{std::span<const double>(candidate), 0});
    s.unpaired_welch_p = welch_t_test(unpaired, options.confidence).p;
    return s;
}

}  // namespace gfxstat::analysis
