// SPDX-License-Identifier: MIT
// Change points over builds: binary segmentation with a permutation test
// over whole builds (analysis/change_points.h, docs/history.md).
#include "analysis/change_points.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <limits>
#include <stdexcept>

#include "analysis/student_t.h"
#include "analysis/xoshiro.h"

namespace gfxstat::analysis {

namespace {

// Prefix sums of one segment's weighted build means: every split's two
// sides then cost O(1), so a permutation costs O(length).
struct Prefix {
    std::vector<double> w, wm, wmm;  // size n + 1
};

// The largest |t| over the splits of `m` (weights `w`, mean 1 over the
// segment), and where: t is the difference of the two sides' weighted
// means over its standard error from the pooled variation of the build
// means about their own side's mean (n - 2 degrees of freedom).
std::pair<size_t, double> best_split(const double* m, const double* w, size_t n, size_t min_segment, Prefix& p) {
    p.w.assign(n + 1, 0.0);
    p.wm.assign(n + 1, 0.0);
    p.wmm.assign(n + 1, 0.0);
    for (size_t i = 0; i < n; ++i) {
        p.w[i + 1] = p.w[i] + w[i];
        p.wm[i + 1] = p.wm[i] + w[i] * m[i];
        p.wmm[i + 1] = p.wmm[i] + w[i] * m[i] * m[i];
    }
    const double W = p.w[n], WM = p.wm[n], WMM = p.wmm[n];
    const double df = static_cast<double>(n) - 2;
    size_t best_k = min_segment;
    double best = -1;
    for (size_t k = min_segment; k + min_segment <= n; ++k) {
        const double wl = p.w[k], wr = W - wl;
        const double ml = p.wm[k] / wl, mr = (WM - p.wm[k]) / wr;
        const double ss = std::max(0.0, (p.wmm[k] - wl * ml * ml) + (WMM - p.wmm[k] - wr * mr * mr));
        const double d = mr - ml;
        const double se2 = ss / df * (1 / wl + 1 / wr);
        double t;
        if (se2 > 0) t = std::fabs(d) / std::sqrt(se2);
        else t = d == 0 ? 0 : std::numeric_limits<double>::infinity();
        if (t > best) {
            best = t;
            best_k = k;
        }
    }
    return {best_k, best};
}

Xoshiro256ss seeded(uint64_t seed, uint64_t salt) {
    uint64_t s = seed ^ mix64(salt + 0x6a09e667f3bcc909ULL);
    std::array<uint64_t, 4> st{};
    for (auto& x : st) x = splitmix64(s);
    return Xoshiro256ss(st);
}

// Uniform in [0, n) (Lemire's multiply-shift; the bias for n of a few
// thousand builds is below 2^-50).
size_t below(Xoshiro256ss& g, size_t n) {
    return static_cast<size_t>((static_cast<unsigned __int128>(g.next()) * n) >> 64);
}

// A segment's weighted mean of build means and the variance of that mean
// (the sandwich form: s^2 / n for equal weights), with n - 1 degrees of
// freedom: each side of a change, for its interval.
struct SideMean {
    double mean = 0, var = 0;
    double df = 0;
};
SideMean side_mean(std::span<const double> m, std::span<const double> w) {
    SideMean s;
    double sw = 0, swm = 0;
    for (size_t i = 0; i < m.size(); ++i) {
        sw += w[i];
        swm += w[i] * m[i];
    }
    s.mean = swm / sw;
    double q = 0;
    for (size_t i = 0; i < m.size(); ++i) q += w[i] * w[i] * (m[i] - s.mean) * (m[i] - s.mean);
    const double n = static_cast<double>(m.size());
    s.var = n > 1 ? n / (n - 1) * q / (sw * sw) : 0;
    s.df = n - 1;
    return s;
}

double median_of(std::vector<double> v) {
    const size_t n = v.size();
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2), v.end());
    const double hi = v[n / 2];
    if (n % 2) return hi;
    return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2)) + hi) / 2;
}

}  // namespace

SplitTest test_best_split(std::span<const double> means, std::span<const double> weights, size_t min_segment,
                          size_t permutations, double alpha, uint64_t seed) {
    const size_t n = means.size();
    SplitTest r;
    if (n < 2 * min_segment || n < 3) return r;
    // Weights normalised to a mean of 1 over the segment: the pooled sum of
    // squares over n - 2 is then the variance of one build mean of average
    // weight, whatever the units of the weights.
    double wsum = 0;
    for (double w : weights) wsum += w;
    std::vector<double> m(means.begin(), means.end()), w(n);
    for (size_t i = 0; i < n; ++i) w[i] = weights[i] * static_cast<double>(n) / wsum;
    // Centred: the prefix sums of squares then lose no digits to a large
    // common level (log fps near 4.6, changes near 0.01).
    double c = 0;
    for (size_t i = 0; i < n; ++i) c += w[i] * m[i];
    c /= static_cast<double>(n);
    for (double& x : m) x -= c;
    Prefix p;
    const auto [k, t] = best_split(m.data(), w.data(), n, min_segment, p);
    r.split = k;
    r.statistic = t;
    // Permutations of whole builds (a build's mean travels with its
    // weight). A statistic equal to the observed one up to rounding counts
    // as at least as large: ties never make p smaller.
    const double bar = std::isinf(t) ? t : t * (1 - 1e-9);
    Xoshiro256ss g = seeded(seed, n);
    size_t at_least = 0, done = 0;
    const double stop_count = alpha * static_cast<double>(permutations + 1) - 1;
    for (; done < permutations;) {
        for (size_t i = n - 1; i > 0; --i) {
            const size_t j = below(g, i + 1);
            std::swap(m[i], m[j]);
            std::swap(w[i], w[j]);
        }
        ++done;
        if (best_split(m.data(), w.data(), n, min_segment, p).second >= bar) ++at_least;
        // p = (1 + at_least) / (1 + permutations) can no longer fall below
        // alpha: the test is decided, the rest would be wasted (Besag and
        // Clifford's sequential p for what was run).
        if (static_cast<double>(at_least) >= stop_count) break;
    }
    r.permutations = done;
    r.p = static_cast<double>(1 + at_least) / static_cast<double>(1 + done);
    return r;
}

ChangePointResult find_change_points(std::span<const std::vector<double>> builds, const ChangePointOptions& o) {
    if (!(o.alpha > 0 && o.alpha < 0.5)) throw std::invalid_argument("change points: alpha must be in (0, 0.5)");
    // Below 1 / alpha - 1 permutations no p could fall below alpha.
    if (o.alpha * static_cast<double>(o.permutations + 1) <= 1)
        throw std::invalid_argument("change points: too few permutations for alpha (at least 1 / alpha)");
    if (o.min_segment < 2) throw std::invalid_argument("change points: segments of at least 2 builds");
    if (!(o.confidence > 0 && o.confidence < 1))
        throw std::invalid_argument("change points: confidence must be in (0, 1)");
    ChangePointResult r;
    const size_t n = builds.size();
    bool positive = true;
    for (const auto& b : builds) {
        if (b.empty()) throw std::invalid_argument("change points: a build without values");
        for (double x : b) {
            if (!std::isfinite(x)) throw std::invalid_argument("change points: a value that is not finite");
            positive &= x > 0;
        }
    }
    r.log_scale = o.log_when_positive && positive && n > 0;
    std::vector<double> means(n), weights(n);
    for (size_t i = 0; i < n; ++i) {
        double s = 0;
        for (double x : builds[i]) s += r.log_scale ? std::log(x) : x;
        means[i] = s / static_cast<double>(builds[i].size());
        weights[i] = static_cast<double>(builds[i].size());
    }
    r.too_few_builds = n < 2 * o.min_segment;

    // Breadth first: the largest structure is found before max_changes can
    // cut the search short inside one part of the series.
    struct Pending {
        size_t begin, end, depth;
    };
    std::deque<Pending> queue;
    if (!r.too_few_builds) queue.push_back({0, n, 0});
    while (!queue.empty()) {
        const Pending s = queue.front();
        queue.pop_front();
        if (s.end - s.begin < 2 * o.min_segment) continue;
        if (r.changes.size() >= o.max_changes) {
            r.hit_max_changes = true;
            break;
        }
        // Each segment's permutations have their own stream, from the seed
        // and the segment: a result does not depend on the order of tests.
        const uint64_t seed = o.seed ^ mix64((static_cast<uint64_t>(s.begin) << 32) ^ s.end);
        const SplitTest t = test_best_split(std::span(means).subspan(s.begin, s.end - s.begin),
                                            std::span(weights).subspan(s.begin, s.end - s.begin), o.min_segment,
                                            o.permutations, o.alpha, seed);
        ++r.tests;
        r.permutations += t.permutations;
        if (!(t.p < o.alpha)) continue;
        BuildChange c;
        c.after = s.begin + t.split;
        c.before = c.after - 1;
        c.p = t.p;
        c.permutations = t.permutations;
        c.statistic = t.statistic;
        c.depth = s.depth;
        r.changes.push_back(c);
        queue.push_back({s.begin, c.after, s.depth + 1});
        queue.push_back({c.after, s.end, s.depth + 1});
    }
    std::sort(r.changes.begin(), r.changes.end(),
              [](const BuildChange& a, const BuildChange& b) { return a.after < b.after; });

    // Segments between the changes, and each change's size against the
    // segments beside it as they finally are.
    std::vector<size_t> starts = {0};
    for (const auto& c : r.changes) starts.push_back(c.after);
    std::vector<SideMean> sides;
    for (size_t i = 0; i < starts.size() && n > 0; ++i) {
        ChangeSegment seg;
        seg.first = starts[i];
        seg.last = (i + 1 < starts.size() ? starts[i + 1] : n) - 1;
        seg.builds = seg.last - seg.first + 1;
        std::vector<double> all;
        for (size_t b = seg.first; b <= seg.last; ++b) all.insert(all.end(), builds[b].begin(), builds[b].end());
        seg.values = all.size();
        double sum = 0;
        for (double x : all) sum += x;
        seg.mean = sum / static_cast<double>(all.size());
        seg.median = median_of(std::move(all));
        r.segments.push_back(seg);
        sides.push_back(side_mean(std::span(means).subspan(seg.first, seg.builds),
                                  std::span(weights).subspan(seg.first, seg.builds)));
    }
    for (size_t i = 0; i < r.changes.size(); ++i) {
        const SideMean& a = sides[i];
        const SideMean& b = sides[i + 1];
        const double d = b.mean - a.mean;
        const double v = a.var + b.var;
        double half = 0;
        if (v > 0) {
            // Welch-Satterthwaite degrees of freedom (a side with zero
            // variance contributes none).
            const double den = (a.var > 0 ? a.var * a.var / a.df : 0) + (b.var > 0 ? b.var * b.var / b.df : 0);
            const double df = den > 0 ? v * v / den : 1;
            half = t_quantile(0.5 + o.confidence / 2, df) * std::sqrt(v);
        }
        BuildChange& c = r.changes[i];
        if (r.log_scale) {
            c.change_pct = std::expm1(d) * 100;
            c.low_pct = std::expm1(d - half) * 100;
            c.high_pct = std::expm1(d + half) * 100;
        } else {
            // Relative to the earlier segment's mean, taken as known: the
            // interval is the difference's, scaled.
            const double base = std::fabs(a.mean);
            const double nan = std::numeric_limits<double>::quiet_NaN();
            c.change_pct = base > 0 ? d / base * 100 : nan;
            c.low_pct = base > 0 ? (d - half) / base * 100 : nan;
            c.high_pct = base > 0 ? (d + half) / base * 100 : nan;
        }
    }
    // Runs of changes in one direction: a drift found as steps.
    for (size_t i = 0; i < r.changes.size();) {
        const bool up = r.changes[i].change_pct > 0;
        size_t j = i + 1;
        while (j < r.changes.size() && (r.changes[j].change_pct > 0) == up) ++j;
        if (j - i >= std::max<size_t>(2, o.drift_run)) {
            DriftRun d;
            d.first_change = i;
            d.changes = j - i;
            d.upwards = up;
            const double diff = sides[j].mean - sides[i].mean;
            d.total_pct = r.log_scale ? std::expm1(diff) * 100
                                      : (sides[i].mean != 0 ? diff / std::fabs(sides[i].mean) * 100
                                                            : std::numeric_limits<double>::quiet_NaN());
            r.drifts.push_back(d);
        }
        i = j;
    }
    return r;
}

double smallest_split_p(size_t builds) {
    if (builds < 2) return 1;
    // C(n, n/2) as a double: exact far beyond any series' length here.
    double c = 1;
    const size_t k = builds / 2;
    for (size_t i = 1; i <= k; ++i) c = c * static_cast<double>(builds - k + i) / static_cast<double>(i);
    return std::min(1.0, 2 / c);
}

size_t builds_for_alpha(double alpha) {
    size_t n = 2;
    while (smallest_split_p(n) > alpha && n < 1000) ++n;
    return n;
}

}  // namespace gfxstat::analysis
