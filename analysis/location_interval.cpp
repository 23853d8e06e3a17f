// SPDX-License-Identifier: MIT
#include "analysis/location_interval.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

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

LocationInterval median_interval(std::span<const double> values, double confidence) {
    require_confidence(confidence);
    LocationInterval r;
    const size_t n = values.size();
    if (n == 0) return r;
    const double tail = (1 - confidence) / 2;
    // The largest l (1-based, at most (n+1)/2) with P(B <= l - 1) <= tail,
    // by bisection: the cdf is increasing in l (a run loop asks after
    // every run, so this must not cost n cdf evaluations).
    const boost::math::binomial dist(static_cast<double>(n), 0.5);
    size_t lo = 0, hi = (n + 1) / 2;  // invariant: l in [lo, hi]
    while (lo < hi) {
        const size_t mid = lo + (hi - lo + 1) / 2;
        if (boost::math::cdf(dist, static_cast<double>(mid - 1)) <= tail) lo = mid;
        else hi = mid - 1;
    }
    const size_t l = lo;
    std::vector<double> v(values.begin(), values.end());
    std::sort(v.begin(), v.end());
    r.estimate = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    if (l == 0) return r;
    r.defined = true;
    r.low = v[l - 1];
    r.high = v[n - l];
    r.coverage = 1 - 2 * boost::math::cdf(dist, static_cast<double>(l - 1));
    set_relative(r);
    return r;
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
