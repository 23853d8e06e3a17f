// SPDX-License-Identifier: MIT
#include "analysis/outliers.h"

#include <algorithm>
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

namespace {

// quantile_type7's interpolation (order_stats.cpp) between the order
// statistics a <= b at h = lo + k/den, in the same long double arithmetic,
// so that a quantile read off a sorted copy is the selected one, bit for bit.
double type7_between(double a, double b, size_t k, int den) {
    if (k == 0) return a;
    const long double la = a, lb = b;
    return static_cast<double>(la + (lb - la) * static_cast<int>(k) / den);
}

// The quantile (num/den, type 7) of ascending values.
double sorted_quantile(std::span<const double> s, int num, int den) {
    const size_t h = (s.size() - 1) * static_cast<size_t>(num);
    const size_t lo = h / static_cast<size_t>(den), k = h % static_cast<size_t>(den);
    return type7_between(s[lo], k ? s[lo + 1] : s[lo], k, den);
}

// The median of |x - m| over ascending x: the distances below m (read
// leftwards) and above it (rightwards) are each ascending, so merging them
// from m outwards reaches the middle two after n/2 steps.
double sorted_mad(std::span<const double> s, double m) {
    const size_t n = s.size();
    size_t right = static_cast<size_t>(std::lower_bound(s.begin(), s.end(), m) - s.begin());
    size_t left = right;  // s[left - 1] is the next value below m
    const auto next = [&] {
        const bool take_left =
            left > 0 && (right == n || std::fabs(s[left - 1] - m) <= std::fabs(s[right] - m));
        return take_left ? std::fabs(s[--left] - m) : std::fabs(s[right++] - m);
    };
    const size_t h = n - 1, lo = h / 2, k = h % 2;
    double a = 0;
    for (size_t i = 0; i <= lo; ++i) a = next();
    return type7_between(a, k ? next() : a, k, 2);
}

void set_fences(OutlierReport& r) {
    const double iqr = r.q3 - r.q1;
    r.lower_fence = r.q1 - 1.5 * iqr;
    r.upper_fence = r.q3 + 1.5 * iqr;
    r.lower_far = r.q1 - 3 * iqr;
    r.upper_far = r.q3 + 3 * iqr;
}

void check_finite(std::span<const double> values) {
    for (double v : values)
        if (!std::isfinite(v)) throw std::invalid_argument("find_outliers: non-finite value");
}

// The flags, once the summaries (median, quartiles, fences, MAD) are known;
// abs_sum is the sum of |x - median|.
void flag_outliers(std::span<const double> values, long double abs_sum, OutlierReport& r);

}  // namespace

OutlierReport find_outliers(std::span<const double> values) {
    check_finite(values);
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
    set_fences(r);

    long double abs_sum = 0;
    for (size_t i = 0; i < n; ++i) {
        scratch[i] = std::fabs(values[i] - r.median);
        abs_sum += scratch[i];
    }
    r.mad = median(s);
    flag_outliers(values, abs_sum, r);
    return r;
}

OutlierReport find_outliers(std::span<const double> values, std::span<const double> sorted) {
    if (sorted.size() != values.size()) return find_outliers(values);
    check_finite(sorted);
    OutlierReport r;
    const size_t n = values.size();
    r.n = n;
    if (n == 0) return r;
    r.median = sorted_quantile(sorted, 1, 2);
    r.q1 = sorted_quantile(sorted, 1, 4);
    r.q3 = sorted_quantile(sorted, 3, 4);
    set_fences(r);
    long double abs_sum = 0;  // in the values' order, as find_outliers sums it
    for (double x : values) abs_sum += std::fabs(x - r.median);
    r.mad = sorted_mad(sorted, r.median);
    flag_outliers(values, abs_sum, r);
    return r;
}

namespace {

void flag_outliers(std::span<const double> values, long double abs_sum, OutlierReport& r) {
    const size_t n = values.size();
    // modified z = (x - median) / scale
    double scale;
    if (r.mad > 0) {
        scale = r.mad / 0.6745;
    } else {
        r.mad_zero = true;
        scale = static_cast<double>(1.253314L * (abs_sum / static_cast<long double>(n)));
    }
    r.cutoff = outlier_cutoff(n);
    if (n < 3) return;

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
}

}  // namespace

}  // namespace gfxstat::analysis
