// SPDX-License-Identifier: MIT
// Hartigan's dip (Hartigan & Hartigan 1985, Ann. Statist. 13:70-84) computed
// with the greatest-convex-minorant / least-concave-majorant iteration that
// P. M. Hartigan describes in Applied Statistics algorithm AS 217 (1985).
//
// Geometry. For a sorted sample x_0 <= ... <= x_{n-1} put the points
// P_i = (x_i, i + 1): the empirical distribution function, counted in
// observations, is i + 1 just after x_i and i just before it. All distances
// below are in these counts; the dip is the largest count distance divided by
// 2n (the closest unimodal fit sits half-way), and it is never below 1/(2n),
// the value R's diptest::dip reports for one observation or a constant sample.
//
// The iteration keeps a candidate modal interval [low, high] (indices), which
// starts as the whole sample. On it:
//   * the greatest convex minorant (GCM) is the lower hull of the points
//     low..high, drawn through the left limits (height i at x_i);
//   * the least concave majorant (LCM) is the upper hull, drawn through the
//     right limits (height i + 1).
// The largest vertical gap d between the two hulls, looked for at every hull
// vertex, says where a unimodal fit is worst. If d is below the dip found so
// far, no narrower modal interval can do worse: stop. Otherwise the new
// interval runs from the GCM vertex to the LCM vertex that bound that gap;
// the empirical function's distance from the GCM to the left of the new
// interval and from the LCM to its right is a lower bound on the dip (those
// parts are final from now on) and is added to the running maximum. When the
// interval stops shrinking, the running maximum is the dip.
//
// Hull neighbours are computed once for the whole sample (each point's left
// neighbour on the lower hull of the points before it, its right neighbour on
// the upper hull of the points after it): the hulls of low..high are then
// read off by following those links from high down and from low up, since
// low stays a vertex of the lower hull of the points up to high and high of
// the upper hull of the points from low. Every point is scanned by the
// distance loops at most once, so the work after sorting is linear in n plus
// the hull walks, which visit only vertices (a million values: tens of ms).
#include "analysis/dip.h"

#include "analysis/dip_simulation.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace gfxstat::analysis {

namespace {

struct DipResult {
    double count_gap = 1;  // 2n * dip
    size_t low = 0, high = 0;
};

// Do the three points a < b < c (indices, heights a, b, c) turn strictly
// left, i.e. is slope(a, b) < slope(b, c)? Cross-multiplied so that equal x
// values (vertical steps) need no division; ties in x therefore count as
// "not a strict turn" exactly when both differences are zero.
inline bool convex_turn(const double* x, size_t a, size_t b, size_t c) {
    return (x[c] - x[b]) * static_cast<double>(b - a) <
           (x[b] - x[a]) * static_cast<double>(c - b);
}

// slope(a, b) > slope(b, c): a strict concave turn at b (mirror of the above).
inline bool concave_turn(const double* x, size_t a, size_t b, size_t c) {
    return (x[b] - x[a]) * static_cast<double>(c - b) <
           (x[c] - x[b]) * static_cast<double>(b - a);
}

DipResult compute_dip(std::span<const double> sorted) {
    const size_t n = sorted.size();
    const double* x = sorted.data();
    DipResult r;
    r.low = 0;
    r.high = n == 0 ? 0 : n - 1;
    if (n < 2 || x[0] == x[n - 1]) return r;

    // left[j]: j's left neighbour on the lower hull of points 0..j.
    // right[j]: j's right neighbour on the upper hull of points j..n-1.
    // Both are built like a monotone-chain hull whose "stack" is the chain
    // of links itself; the end points 0 and n-1 are never removed.
    std::vector<size_t> left(n), right(n);
    left[0] = 0;
    for (size_t j = 1; j < n; ++j) {
        size_t b = j - 1;
        while (b != 0 && !convex_turn(x, left[b], b, j)) b = left[b];
        left[j] = b;
    }
    right[n - 1] = n - 1;
    for (size_t k = n - 1; k-- > 0;) {
        size_t b = k + 1;
        while (b != n - 1 && !concave_turn(x, k, b, right[b])) b = right[b];
        right[k] = b;
    }

    double gap = 1;  // running maximum, in counts (2n * dip)
    size_t low = 0, high = n - 1;
    std::vector<size_t> gcm, lcm;  // hull vertices in increasing order
    for (;;) {
        gcm.clear();
        for (size_t v = high;; v = left[v]) {
            gcm.push_back(v);
            if (v <= low) break;
        }
        std::reverse(gcm.begin(), gcm.end());
        lcm.clear();
        for (size_t v = low;; v = right[v]) {
            lcm.push_back(v);
            if (v >= high) break;
        }
        if (gcm.size() < 2 || lcm.size() < 2) break;  // defensive: low < high always

        // Walk the vertices of both hulls in increasing index order and
        // measure the gap LCM - GCM at each one. best_g / best_l are the
        // positions (in gcm / lcm) of the GCM vertex on the left and the LCM
        // vertex on the right of the widest gap; later maxima win ties.
        // Extended precision as in AS 217's reference implementation: this
        // value only decides when to stop.
        long double widest = 0;
        size_t best_g = 0, best_l = lcm.size() - 1;
        if (gcm.size() == 2 && lcm.size() == 2) {
            widest = 1;  // both hulls are the chord low-high: one step apart
        } else {
            size_t gi = 1, li = 1;
            const size_t g_last = gcm.size() - 1, l_last = lcm.size() - 1;
            do {
                const size_t g = gcm[gi], l = lcm[li];
                long double dx;
                if (g > l) {
                    // LCM vertex l inside the GCM segment gcm[gi-1]..gcm[gi].
                    const size_t a = gcm[gi - 1];
                    dx = static_cast<long double>(l - a + 1) -
                         (static_cast<long double>(x[l]) - x[a]) * static_cast<long double>(g - a) /
                             static_cast<long double>(x[g] - x[a]);
                    ++li;
                    if (dx >= widest) {
                        widest = dx;
                        best_g = gi - 1;
                        best_l = li - 1;
                    }
                } else {
                    // GCM vertex g inside the LCM segment lcm[li-1]..lcm[li].
                    const size_t a = lcm[li - 1];
                    dx = (static_cast<long double>(x[g]) - x[a]) * static_cast<long double>(l - a) /
                             static_cast<long double>(x[l] - x[a]) -
                         static_cast<long double>(g - a - 1);
                    ++gi;
                    if (dx >= widest) {
                        widest = dx;
                        best_g = gi - 1;
                        best_l = li;
                    }
                }
                gi = std::min(gi, g_last);
                li = std::min(li, l_last);
            } while (gcm[gi] != lcm[li]);
        }
        if (widest < gap) break;

        // Distance of the empirical function from the GCM left of the new
        // interval: at each point, its right limit (height i + 1) minus the
        // GCM chord (through left limits, height i) below it.
        double left_gap = 0;
        for (size_t s = 0; s < best_g; ++s) {
            const size_t a = gcm[s], b = gcm[s + 1];
            double seg = 1;
            if (b - a > 1 && x[b] != x[a]) {
                const double slope = static_cast<double>(b - a) / (x[b] - x[a]);
                for (size_t i = a; i <= b; ++i)
                    seg = std::max(seg, static_cast<double>(i - a + 1) - (x[i] - x[a]) * slope);
            }
            left_gap = std::max(left_gap, seg);
        }
        // Distance of the LCM (through right limits) above the empirical
        // function's left limits, right of the new interval.
        double right_gap = 0;
        for (size_t s = best_l; s + 1 < lcm.size(); ++s) {
            const size_t a = lcm[s], b = lcm[s + 1];
            double seg = 1;
            if (b - a > 1 && x[b] != x[a]) {
                const double slope = static_cast<double>(b - a) / (x[b] - x[a]);
                for (size_t i = a; i <= b; ++i)
                    seg = std::max(seg, (x[i] - x[a]) * slope - (static_cast<double>(i - a) - 1));
            }
            right_gap = std::max(right_gap, seg);
        }
        gap = std::max({gap, left_gap, right_gap});

        const size_t new_low = gcm[best_g], new_high = lcm[best_l];
        if (new_low == low && new_high == high) break;
        low = new_low;
        high = new_high;
    }
    r.count_gap = gap;
    r.low = low;
    r.high = high;
    return r;
}

// R's approx(x, y, xout, rule = 2, ties = mean) for one xout: points with
// equal x are merged into one whose y is the mean of theirs, then linear
// interpolation, and the end values outside the range.
double approx_ties_mean(std::vector<std::pair<double, double>>& xy, double xout) {
    std::stable_sort(xy.begin(), xy.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<double, double>> merged;
    merged.reserve(xy.size());
    for (size_t i = 0; i < xy.size();) {
        size_t j = i;
        double sum = 0;
        while (j < xy.size() && xy[j].first == xy[i].first) sum += xy[j++].second;
        merged.emplace_back(xy[i].first, sum / static_cast<double>(j - i));
        i = j;
    }
    if (xout <= merged.front().first) return merged.front().second;
    if (xout >= merged.back().first) return merged.back().second;
    // First merged point strictly above xout; its predecessor is <= xout.
    const auto hi = std::upper_bound(merged.begin(), merged.end(), xout,
                                     [](double v, const auto& p) { return v < p.first; });
    const auto lo = hi - 1;
    if (xout == lo->first) return lo->second;
    return lo->second + (hi->second - lo->second) * ((xout - lo->first) / (hi->first - lo->first));
}

}  // namespace

double dip_statistic(std::span<const double> sorted) {
    if (sorted.empty()) return 0;
    return compute_dip(sorted).count_gap / (2.0 * static_cast<double>(sorted.size()));
}

DipTest dip_test(std::span<const double> values) {
    std::vector<double> v(values.begin(), values.end());
    std::sort(v.begin(), v.end());
    return dip_test_sorted(v);
}

DipTest dip_test_sorted(std::span<const double> v) {
    DipTest t;
    t.n = v.size();
    if (v.empty()) return t;
    const DipResult r = compute_dip(v);
    t.dip = r.count_gap / (2.0 * static_cast<double>(v.size()));
    t.modal_low = v[r.low];
    t.modal_high = v[r.high];
    t.p = dip_p_value(t.dip, t.n);
    return t;
}

// As R's dip.test() does with its qDiptab, but in gfxstat's own table:
// between tabulated sizes n0 <= n < n1 the rows sqrt(n0) q(n0) and
// sqrt(n1) q(n1) are interpolated linearly in n; sqrt(n) * dip is then
// located in that row of quantiles by approx(rule = 2, ties = mean), and the
// p-value is one minus the probability found. Sizes beyond the table use its
// largest row. Where several tabulated probabilities share one quantile (an
// atom of the discrete small-n distribution, e.g. the smallest dip 1/(2n)),
// a dip equal to it gets the mean of those probabilities, as in R.
double dip_p_value(double dip, size_t n) {
    if (n <= 3) return 1;
    const DipTable& table = dip_table();
    const size_t m = table.probabilities.size();
    const size_t rows = table.sizes.size();
    if (m == 0 || rows == 0) return 1;
    size_t i0, i1;
    if (n >= table.sizes[rows - 1]) {
        i0 = i1 = rows - 1;
    } else {
        // Largest i0 with sizes[i0] <= n (R's findInterval); sizes[0] <= 4.
        const auto it = std::upper_bound(table.sizes.begin(), table.sizes.end(), n);
        i0 = it == table.sizes.begin() ? 0 : static_cast<size_t>(it - table.sizes.begin()) - 1;
        i1 = std::min(i0 + 1, rows - 1);
    }
    const double n0 = static_cast<double>(table.sizes[i0]);
    const double n1 = static_cast<double>(table.sizes[i1]);
    const double f = i0 == i1 ? 0.0 : (static_cast<double>(n) - n0) / (n1 - n0);
    const double s0 = std::sqrt(n0), s1 = std::sqrt(n1);
    std::vector<std::pair<double, double>> xy(m);
    for (size_t j = 0; j < m; ++j) {
        const double y0 = s0 * table.quantiles[i0 * m + j];
        const double y1 = s1 * table.quantiles[i1 * m + j];
        xy[j] = {y0 + f * (y1 - y0), table.probabilities[j]};
    }
    const double prob = approx_ties_mean(xy, std::sqrt(static_cast<double>(n)) * dip);
    return 1.0 - prob;
}

}  // namespace gfxstat::analysis
