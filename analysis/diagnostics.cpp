#include "analysis/diagnostics.h"

#include <algorithm>
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

}  // namespace

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

std::array<double, 2> mode_weights(const NormalMixtureFit& modes, std::span<const double> values) {
    std::array<double, 2> w{0, 0};
    if (!modes.two_fitted || values.empty()) return w;
    const auto& c = modes.components;
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
