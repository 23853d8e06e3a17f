// SPDX-License-Identifier: MIT
#include "analysis/pooled_t.h"

#include <algorithm>
#include <cmath>

namespace gfxstat::analysis {

PooledTInterval pooled_t_interval(const Moments& base, const Moments& cand, double t) {
    PooledTInterval r;
    const double n1 = static_cast<double>(cand.n), n2 = static_cast<double>(base.n);
    r.df = static_cast<int>(cand.n + base.n - 2);
    r.t = t;
    double spool;
    if (std::isfinite(base.variance) && std::isfinite(cand.variance)) {
        spool = (n1 - 1) * cand.variance + (n2 - 1) * base.variance;
        spool /= n1 + n2 - 2;
        spool = std::sqrt(spool);
    } else {
        // Scale by the larger standard deviation so nothing is squared past
        // the double range.
        const double s = std::max(base.stddev, cand.stddev);
        const double a = cand.stddev / s, b = base.stddev / s;
        spool = s * std::sqrt(((n1 - 1) * a * a + (n2 - 1) * b * b) / (n1 + n2 - 2));
    }
    const double s = spool * std::sqrt(1.0 / n1 + 1.0 / n2);
    // Means of opposite sign near the double limit: halve before subtracting.
    double d = cand.mean - base.mean;
    if (!std::isfinite(d)) d = 2 * (cand.mean / 2 - base.mean / 2);
    r.difference = d;
    r.halfwidth = t * s;
    r.pooled_sd = spool;
    r.relative_difference_percent = d * 100 / base.mean;
    r.relative_halfwidth_percent = r.halfwidth * 100 / std::fabs(base.mean);
    r.significant = std::fabs(d) > r.halfwidth;
    return r;
}

}  // namespace gfxstat::analysis
