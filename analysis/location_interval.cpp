// SPDX-License-Identifier: MIT
#include "analysis/location_interval.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "analysis/rank_tests.h"
#include "analysis/student_t.h"

namespace gfxstat::analysis {

namespace {

void require_confidence(double confidence) {
    if (!(confidence > 0 && confidence < 1))
        throw std::invalid_argument("confidence must be in (0, 1)");
}

void set_relative(LocationInterval& r) {
    const double half = (r.high - r.low) / 2;
    if (r.estimate != 0) r.relative_half_width_pct = half / std::fabs(r.estimate) * 100;
    else r.relative_half_width_pct = half == 0 ? 0 : std::numeric_limits<double>::infinity();
}

}  // namespace

MedianRank median_rank(size_t n, double confidence, std::optional<size_t> previous) {
    require_confidence(confidence);
    const double tail = (1 - confidence) / 2;
    const boost::math::binomial dist(static_cast<double>(n), 0.5);
    const size_t most = (n + 1) / 2;
    // Whether rank l's interval has the coverage asked: P(B <= l - 1) <= tail.
    const auto cdf_below = [&](size_t l) { return l == 0 ? 0.0 : boost::math::cdf(dist, static_cast<double>(l - 1)); };
    if (previous && *previous <= most) {
        // The predicate is monotone in l, so its last true l is the one
        // the bisection finds: p true, and p + 1 false (or past the end).
        const size_t p = *previous;
        const double at_p = cdf_below(p);
        if (at_p <= tail) {
            if (p + 1 > most) return {p, at_p};
            const double at_next = cdf_below(p + 1);
            if (at_next > tail) return {p, at_p};
            if (p + 2 > most || cdf_below(p + 2) > tail) return {p + 1, at_next};
        }
    }
    // The largest l (1-based, at most (n+1)/2) with P(B <= l - 1) <= tail,
    // by bisection: the cdf is increasing in l.
    size_t lo = 0, hi = most;  // invariant: l in [lo, hi]
    while (lo < hi) {
        const size_t mid = lo + (hi - lo + 1) / 2;
        if (cdf_below(mid) <= tail) lo = mid;
        else hi = mid - 1;
    }
    return {lo, cdf_below(lo)};
}

LocationInterval median_interval_of_order(size_t n, const MedianRank& rank, double lower_middle, double upper_middle,
                                          double low, double high) {
    LocationInterval r;
    r.estimate = n % 2 ? upper_middle : (lower_middle + upper_middle) / 2;
    if (rank.l == 0) return r;
    r.defined = true;
    r.low = low;
    r.high = high;
    r.coverage = 1 - 2 * rank.cdf_below;
    set_relative(r);
    return r;
}

LocationInterval median_interval(std::span<const double> values, double confidence) {
    // A radix sort: three times faster than std::sort at a million values.
    return median_interval_sorted(sorted_ascending(values), confidence);
}

LocationInterval median_interval_sorted(std::span<const double> v, double confidence) {
    require_confidence(confidence);
    const size_t n = v.size();
    if (n == 0) return {};
    const MedianRank rank = median_rank(n, confidence);
    const size_t l = rank.l;
    return median_interval_of_order(n, rank, v[(n - 1) / 2], v[n / 2], l ? v[l - 1] : 0, l ? v[n - l] : 0);
}

LocationInterval mean_interval(std::span<const double> values, double confidence) {
    require_confidence(confidence);
    LocationInterval r;
    const size_t n = values.size();
    if (n == 1) r.estimate = values[0];
    if (n < 2) return r;
    // Centred on the first value in long double, so offsets like 1e9 keep
    // their noise digits.
    const long double c = values[0];
    long double s = 0;
    for (double x : values) s += x - c;
    const long double mean = s / static_cast<long double>(n);
    long double ss = 0;
    for (double x : values) ss += ((x - c) - mean) * ((x - c) - mean);
    const double sd = static_cast<double>(std::sqrt(ss / static_cast<long double>(n - 1)));
    const double half = t_quantile((1 + confidence) / 2, static_cast<double>(n - 1)) * sd / std::sqrt(static_cast<double>(n));
    r.defined = true;
    r.estimate = static_cast<double>(c + mean);
    r.low = r.estimate - half;
    r.high = r.estimate + half;
    r.coverage = confidence;
    set_relative(r);
    return r;
}

}  // namespace gfxstat::analysis
