// SPDX-License-Identifier: MIT
#include "analysis/outliers.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "analysis/order_stats.h"
#include "analysis/outlier_cutoffs.h"

namespace gfxstat::analysis {

double outlier_cutoff(size_t n) {
    const std::span<const OutlierCutoff> t = outlier_cutoff_table();
    if (n < t.front().n) return std::numeric_limits<double>::infinity();
    const OutlierCutoff& last = t.back();
    // Past the table the cutoff grows as the largest of n t3 values does
    // (its tail falls as x^-3, so the quantile of the maximum as n^(1/3)).
    if (n >= last.n) return last.cutoff * std::cbrt(static_cast<double>(n) / static_cast<double>(last.n));
    size_t hi = 1;
    while (t[hi].n < n) ++hi;
    if (t[hi].n == n) return t[hi].cutoff;
    const OutlierCutoff& lo = t[hi - 1];
    const double f = std::log(static_cast<double>(n) / static_cast<double>(lo.n)) /
                     std::log(static_cast<double>(t[hi].n) / static_cast<double>(lo.n));
    return lo.cutoff + f * (t[hi].cutoff - lo.cutoff);
}

OutlierReport find_outliers(std::span<const double> values) {
    for (double v : values)
        if (!std::isfinite(v)) throw std::invalid_argument("find_outliers: non-finite value");
    OutlierReport r;
    const size_t n = values.size();
    r.n = n;
    if (n == 0) return r;

    // One scratch copy; each selection reorders it, which does not matter.
    std::vector<double> scratch(values.begin(), values.end());
    const MutableScaledValues s{std::span<double>(scratch), 0};
    r.median = median(s);
    r.q1 = quantile_type7(s, 1, 4);
    r.q3 = quantile_type7(s, 3, 4);
    const double iqr = r.q3 - r.q1;
    r.lower_fence = r.q1 - 1.5 * iqr;
    r.upper_fence = r.q3 + 1.5 * iqr;
    r.lower_far = r.q1 - 3 * iqr;
    r.upper_far = r.q3 + 3 * iqr;

    long double abs_sum = 0;
    for (size_t i = 0; i < n; ++i) {
        scratch[i] = std::fabs(values[i] - r.median);
        abs_sum += scratch[i];
    }
    r.mad = median(s);

    // modified z = (x - median) / scale
    double scale;
    if (r.mad > 0) {
        scale = r.mad / 0.6745;
    } else {
        r.mad_zero = true;
        scale = static_cast<double>(1.253314L * (abs_sum / static_cast<long double>(n)));
    }
    r.cutoff = outlier_cutoff(n);
    if (n < 3) return r;

    for (size_t i = 0; i < n; ++i) {
        const double x = values[i];
        Outlier o;
        o.index = i;
        o.value = x;
        if (scale > 0) {
            o.modified_z = r.mad_zero ? (x - r.median) / scale : 0.6745 * (x - r.median) / r.mad;
            o.modified_z_flag = std::fabs(o.modified_z) > 3.5;
        } else {
            o.modified_z = std::numeric_limits<double>::quiet_NaN();
        }
        o.tukey_flag = x < r.lower_fence || x > r.upper_fence;
        o.far_out = x < r.lower_far || x > r.upper_far;
        o.reported = !r.mad_zero && std::fabs(o.modified_z) > r.cutoff;
        if (!o.modified_z_flag && !o.tukey_flag) continue;
        r.by_modified_z += o.modified_z_flag;
        r.by_tukey += o.tukey_flag;
        r.far_out += o.far_out;
        r.reported += o.reported;
        r.outliers.push_back(o);
    }
    return r;
}

}  // namespace gfxstat::analysis
