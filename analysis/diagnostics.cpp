#include "analysis/diagnostics.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numbers>

namespace gfxstat::analysis {

namespace {

// Bias-corrected skewness G1 and excess kurtosis G2 (SAS/SPSS type 2),
// centred on the mean in long double.
struct ShapeMoments {
    bool defined = false;
    double g1 = 0, g2 = 0;
};

ShapeMoments shape_moments(std::span<const double> x) {
    ShapeMoments s;
    const size_t n = x.size();
    if (n < 4) return s;
    long double mean = 0;
    for (double v : x) mean += v;
    mean /= static_cast<long double>(n);
    long double m2 = 0, m3 = 0, m4 = 0;
    for (double v : x) {
        const long double d = v - mean, d2 = d * d;
        m2 += d2;
        m3 += d2 * d;
        m4 += d2 * d2;
    }
    const long double nn = static_cast<long double>(n);
    m2 /= nn;
    m3 /= nn;
    m4 /= nn;
    if (!(m2 > 0)) return s;
    const long double g1 = m3 / std::pow(m2, 1.5L), g2 = m4 / (m2 * m2) - 3;
    s.g1 = static_cast<double>(std::sqrt(nn * (nn - 1)) / (nn - 2) * g1);
    s.g2 = static_cast<double>((nn - 1) / ((nn - 2) * (nn - 3)) * ((nn + 1) * g2 + 6));
    s.defined = true;
    return s;
}

bool constant(std::span<const double> x) {
    return std::all_of(x.begin(), x.end(), [&](double v) { return v == x[0]; });
}

// Significant at `level` and larger than `threshold` (relative); a NaN
// relative size (zero reference) counts as large.
bool notable(double p, double relative, double level, double threshold) {
    return p < level && (std::isnan(relative) || std::fabs(relative) > threshold);
}

// -2 log L + 2 log n of the maximum-likelihood lognormal; NaN unless every
// value is positive.
double lognormal_bic(std::span<const double> x) {
    const size_t n = x.size();
    if (n < 2) return std::numeric_limits<double>::quiet_NaN();
    long double sum = 0;
    for (double v : x) {
        if (!(v > 0)) return std::numeric_limits<double>::quiet_NaN();
        sum += std::log(static_cast<long double>(v));
    }
    const long double nn = static_cast<long double>(n), mu = sum / nn;
    long double ss = 0;
    for (double v : x) {
        const long double d = std::log(static_cast<long double>(v)) - mu;
        ss += d * d;
    }
    const long double var = ss / nn;
    if (!(var > 0)) return std::numeric_limits<double>::quiet_NaN();
    // log L = -n/2 log(2 pi var) - n/2 - sum log x
    const long double loglik = -nn / 2 * std::log(2 * std::numbers::pi_v<long double> * var) - nn / 2 - sum;
    return static_cast<double>(-2 * loglik + 2 * std::log(nn));
}

// Residual sums of squares of a least-squares line over 0..n-1, and of two
// levels split before `split`; centred on the first value.
double line_sse(const std::vector<double>& y) {
    const size_t n = y.size();
    const long double c = y[0], xbar = (static_cast<long double>(n) - 1) / 2;
    long double my = 0;
    for (double v : y) my += v - c;
    my /= static_cast<long double>(n);
    long double sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; ++i) {
        const long double dx = static_cast<long double>(i) - xbar;
        sxy += dx * ((y[i] - c) - my);
        sxx += dx * dx;
    }
    const long double slope = sxx > 0 ? sxy / sxx : 0;
    long double sse = 0;
    for (size_t i = 0; i < n; ++i) {
        const long double e = (y[i] - c) - my - slope * (static_cast<long double>(i) - xbar);
        sse += e * e;
    }
    return static_cast<double>(sse);
}

double step_sse(const std::vector<double>& y, size_t split) {
    const long double c = y[0];
    long double sse = 0;
    for (const auto [from, to] : {std::pair<size_t, size_t>{0, split}, std::pair<size_t, size_t>{split, y.size()}}) {
        if (to <= from) continue;
        long double m = 0;
        for (size_t i = from; i < to; ++i) m += y[i] - c;
        m /= static_cast<long double>(to - from);
        for (size_t i = from; i < to; ++i) sse += ((y[i] - c) - m) * ((y[i] - c) - m);
    }
    return static_cast<double>(sse);
}

// The two groups of the sorted values with the least within-group sum of
// squares (1-D two-means, exact by prefix sums), as weights, means and
// population sds.
std::array<NormalComponent, 2> split_modes(std::span<const double> values) {
    std::vector<double> x(values.begin(), values.end());
    std::sort(x.begin(), x.end());
    const size_t n = x.size();
    const long double c = x[n / 2];
    std::vector<long double> s1(n + 1, 0), s2(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
        const long double d = x[i] - c;
        s1[i + 1] = s1[i] + d;
        s2[i + 1] = s2[i] + d * d;
    }
    const auto ss = [&](size_t from, size_t to) {
        const long double k = static_cast<long double>(to - from), sum = s1[to] - s1[from];
        return (s2[to] - s2[from]) - sum * sum / k;
    };
    size_t best = 1;
    long double best_ss = std::numeric_limits<long double>::infinity();
    for (size_t k = 1; k < n; ++k) {
        if (x[k] == x[k - 1]) continue;  // never split a run of equal values
        const long double t = ss(0, k) + ss(k, n);
        if (t < best_ss) best_ss = t, best = k;
    }
    std::array<NormalComponent, 2> out;
    for (int side = 0; side < 2; ++side) {
        const size_t from = side ? best : 0, to = side ? n : best;
        const long double k = static_cast<long double>(to - from);
        const long double mean = (s1[to] - s1[from]) / k;
        out[side].weight = static_cast<double>(k / static_cast<long double>(n));
        out[side].mean = static_cast<double>(c + mean);
        out[side].sd = static_cast<double>(std::sqrt(std::max(0.0L, ss(from, to) / k)));
    }
    return out;
}

}  // namespace

WithinBootTrend within_boot_trend(std::span<const double> values, std::span<const uint32_t> boot,
                                  double confidence) {
    WithinBootTrend r;
    if (values.size() != boot.size() || values.empty()) return r;
    const size_t groups = static_cast<size_t>(*std::max_element(boot.begin(), boot.end())) + 1;
    // Position of each value within its boot, and per-boot sums, centred
    // on the first value.
    std::vector<size_t> count(groups, 0);
    std::vector<double> x(values.size());
    const long double c = values[0];
    std::vector<long double> sx(groups, 0), sy(groups, 0);
    long double total = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        x[i] = static_cast<double>(count[boot[i]]++);
        sx[boot[i]] += x[i];
        sy[boot[i]] += values[i] - c;
        total += values[i] - c;
    }
    size_t used = 0;
    for (size_t k : count) used += k > 0;
    const size_t n = values.size();
    if (used < 2 || n < used + 2) return r;
    long double sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; ++i) {
        const long double k = static_cast<long double>(count[boot[i]]);
        const long double dx = x[i] - sx[boot[i]] / k, dy = (values[i] - c) - sy[boot[i]] / k;
        sxx += dx * dx;
        sxy += dx * dy;
    }
    if (!(sxx > 0)) return r;
    const long double slope = sxy / sxx;
    long double rss = 0;
    for (size_t i = 0; i < n; ++i) {
        const long double k = static_cast<long double>(count[boot[i]]);
        const long double e = ((values[i] - c) - sy[boot[i]] / k) - slope * (x[i] - sx[boot[i]] / k);
        rss += e * e;
    }
    const double df = static_cast<double>(n - used - 1);
    r.defined = true;
    r.slope = static_cast<double>(slope);
    const double se = static_cast<double>(std::sqrt(rss / df / sxx));
    const boost::math::students_t t(df);
    const double q = boost::math::quantile(boost::math::complement(t, (1 - confidence) / 2));
    r.slope_ci_low = r.slope - q * se;
    r.slope_ci_high = r.slope + q * se;
    r.p = se > 0 ? 2 * boost::math::cdf(boost::math::complement(t, std::fabs(r.slope) / se)) : (slope == 0 ? 1 : 0);
    const long double mean = c + total / static_cast<long double>(n);
    const double mean_size = static_cast<double>(n) / static_cast<double>(used);
    r.relative_drift = mean != 0 ? static_cast<double>(slope * (mean_size - 1) / std::fabs(mean))
                                 : std::numeric_limits<double>::quiet_NaN();
    return r;
}

Bimodality judge_bimodality(std::span<const double> values) {
    Bimodality b;
    const size_t n = values.size();
    b.dip = dip_test(values);
    const ShapeMoments s = shape_moments(values);
    b.coefficient = std::numeric_limits<double>::quiet_NaN();
    if (s.defined) {
        const double nn = static_cast<double>(n);
        b.coefficient = (s.g1 * s.g1 + 1) / (s.g2 + 3 * (nn - 1) * (nn - 1) / ((nn - 2) * (nn - 3)));
    }
    if (n < kMinValuesForShape || constant(values)) return b;
    b.judged = true;
    b.mixture = fit_normal_mixture(values);
    b.bic_lognormal = lognormal_bic(values);
    b.dip_significant = b.dip.p < kBimodalDipLevel;
    b.coefficient_high = b.coefficient > kBimodalityCoefficientCut;
    const auto& m = b.mixture;
    // A long right tail is fitted better by two normals than by one, but
    // not better than by a lognormal: without that comparison every
    // skewed latency sample would be called bimodal.
    const double unimodal_bic = std::isnan(b.bic_lognormal) ? m.bic_one : std::min(m.bic_one, b.bic_lognormal);
    b.mixture_separated = m.two_fitted && unimodal_bic - m.bic_two > kMixtureBicMargin &&
                          m.ashman_d > kMixtureMinSeparation &&
                          std::min(m.components[0].weight, m.components[1].weight) * static_cast<double>(n) >= 3;
    b.bimodal = b.mixture_separated &&
                (b.dip_significant || b.coefficient_high || m.ashman_d > kMixtureClearSeparation);
    if (b.bimodal) {
        b.modes = m.components;
    } else if (!m.two_fitted && b.dip_significant && b.coefficient_high) {
        b.bimodal = true;
        b.modes = split_modes(values);
        b.modes_from_split = true;
    }
    return b;
}

SampleDiagnostics diagnose_sample(std::span<const double> values, const SampleLayout& layout,
                                  const DiagnosticOptions& o) {
    SampleDiagnostics d;
    d.n = values.size();
    d.bimodality = judge_bimodality(values);
    const size_t zero = 0;
    const std::span<const size_t> firsts = layout.firsts.empty() ? std::span<const size_t>(&zero, 1) : layout.firsts;
    if (!layout.boot_of_value.empty()) d.boots = boot_variance(values, layout.boot_of_value);
    if (!values.empty()) d.drift = analyse_drift(values, firsts, o.confidence);
    if (d.boots && d.boots->defined && d.boots->f_p < 1 - o.confidence) {
        const std::vector<double> means = boot_means(values, layout.boot_of_value);
        d.drift.trend = trend(means, o.confidence);
        d.drift.change_point = change_point(means);
        d.drift_over_boots = true;
        d.within_boots = within_boot_trend(values, layout.boot_of_value, o.confidence);
        d.trending_within_boots = d.within_boots.defined &&
                                  notable(d.within_boots.p, d.within_boots.relative_drift, kDriftLevel, o.threshold);
    }
    const Trend& t = d.drift.trend;
    d.trending = t.defined && notable(t.spearman_p, t.relative_drift, kDriftLevel, o.threshold);
    const ChangePoint& c = d.drift.change_point;
    d.shifted = c.defined && notable(c.p, c.relative_shift, kDriftLevel, o.threshold);
    if (d.trending && d.shifted) {
        // A steady drift also shows a "change point" half-way, and a step
        // also shows a trend: say whichever describes the series better
        // (smaller residual sum of squares: a line, or two levels).
        const std::vector<double> series =
            d.drift_over_boots ? boot_means(values, layout.boot_of_value) : std::vector<double>(values.begin(), values.end());
        if (line_sse(series) <= step_sse(series, c.index)) d.shifted = false;
        else d.trending = false;
    }
    const FirstRunEffect& f = d.drift.first_run;
    d.first_run_differs = f.defined && notable(f.p, f.relative_difference, kDriftLevel, o.threshold);
    d.outliers = find_outliers(values);
    return d;
}

std::array<double, 2> mode_weights(const std::array<NormalComponent, 2>& c, std::span<const double> values) {
    std::array<double, 2> w{0, 0};
    if (values.empty() || !(c[0].weight > 0) || !(c[1].weight > 0)) return w;
    if (!(c[0].sd > 0) || !(c[1].sd > 0)) {
        // A mode of one repeated value: each value goes to the nearer mode.
        for (double x : values) {
            const double d0 = std::fabs(x - c[0].mean), d1 = std::fabs(x - c[1].mean);
            (d0 <= d1 ? w[0] : w[1]) += 1;
        }
        w[0] /= static_cast<double>(values.size());
        w[1] /= static_cast<double>(values.size());
        return w;
    }
    // Log densities, so that values far in either tail still assign cleanly.
    const auto logdens = [](const NormalComponent& k, double x) {
        const double z = (x - k.mean) / k.sd;
        return std::log(k.weight) - std::log(k.sd) - 0.5 * z * z;
    };
    for (double x : values) {
        const double l0 = logdens(c[0], x), l1 = logdens(c[1], x);
        const double top = std::max(l0, l1);
        const double e0 = std::exp(l0 - top), e1 = std::exp(l1 - top);
        w[0] += e0 / (e0 + e1);
        w[1] += e1 / (e0 + e1);
    }
    w[0] /= static_cast<double>(values.size());
    w[1] /= static_cast<double>(values.size());
    return w;
}

}  // namespace gfxstat::analysis
