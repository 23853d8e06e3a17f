// SPDX-License-Identifier: MIT
#include "analysis/diagnostics.h"

#include "analysis/moments.h"
#include "analysis/rank_tests.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numbers>

namespace gfxstat::analysis {

namespace {

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
    // Each logarithm computed once (long double logs are most of the cost).
    std::vector<long double> logs(n);
    long double sum = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!(x[i] > 0)) return std::numeric_limits<double>::quiet_NaN();
        logs[i] = std::log(static_cast<long double>(x[i]));
        sum += logs[i];
    }
    const long double nn = static_cast<long double>(n), mu = sum / nn;
    long double ss = 0;
    for (const long double l : logs) {
        const long double d = l - mu;
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

// log Phi(z), finite far into the lower tail (where erfc underflows, the
// asymptotic series' first terms).
double log_normal_cdf(double z) {
    if (z > -30) return std::log(0.5 * std::erfc(-z / std::numbers::sqrt2));
    return -0.5 * z * z - std::log(-z) - 0.5 * std::log(2 * std::numbers::pi) + std::log1p(-1 / (z * z));
}

// -2 log L of the ex-Gaussian N(mu, sigma^2) + Exp(mean tau) at `x`.
double ex_gaussian_deviance(std::span<const double> x, double mu, double sigma, double tau) {
    long double ll = 0;
    for (double v : x)
        ll += -std::log(tau) + (mu - v) / tau + sigma * sigma / (2 * tau * tau) +
              log_normal_cdf((v - mu) / sigma - sigma / tau);
    return static_cast<double>(-2 * ll);
}

// BIC (-2 log L + 3 log n) of the maximum-likelihood ex-Gaussian: a normal
// core with an exponential tail, the textbook shape of a latency (and of a
// run time that is a fixed cost plus a waiting time). Fitted to the values
// and to their mirror image (a tail to the left: frame rates, throughput),
// the better of the two. Nelder-Mead on (mu, log sigma, log tau) from the
// method of moments; NaN when it cannot start (fewer than 4 values or no
// spread).
double fit_ex_gaussian_bic(std::span<const double> values) {
    const size_t n = values.size();
    if (n < 4) return std::numeric_limits<double>::quiet_NaN();
    double best = std::numeric_limits<double>::infinity();
    std::vector<double> x(values.begin(), values.end());
    for (int side = 0; side < 2; ++side) {
        if (side) for (double& v : x) v = -v;
        long double m = 0;
        for (double v : x) m += v;
        m /= static_cast<long double>(n);
        long double m2 = 0, m3 = 0;
        for (double v : x) {
            const long double d = v - m;
            m2 += d * d;
            m3 += d * d * d;
        }
        m2 /= static_cast<long double>(n);
        m3 /= static_cast<long double>(n);
        if (!(m2 > 0)) return std::numeric_limits<double>::quiet_NaN();
        const double sd = static_cast<double>(std::sqrt(m2));
        // Moments: skewness = 2 tau^3 / sd^3, so tau = sd (skew/2)^(1/3);
        // kept inside (0.05, 0.95) sd so that both parts start alive.
        const double skew = static_cast<double>(m3 / std::pow(m2, 1.5L));
        const double tau0 = sd * std::clamp(std::cbrt(std::max(skew, 0.0) / 2), 0.05, 0.95);
        const double sigma0 = std::sqrt(std::max(sd * sd - tau0 * tau0, 0.01 * sd * sd));
        const double mu0 = static_cast<double>(m) - tau0;
        // Centred and scaled so that the simplex steps mean the same for any data.
        const double c = static_cast<double>(m);
        for (double& v : x) v = (v - c) / sd;
        const auto f = [&](const std::array<double, 3>& p) {
            return ex_gaussian_deviance(x, p[0], std::exp(p[1]), std::exp(p[2]));
        };
        std::array<std::array<double, 3>, 4> simplex;
        simplex.fill({(mu0 - c) / sd, std::log(sigma0 / sd), std::log(tau0 / sd)});
        for (int k = 0; k < 3; ++k) simplex[k + 1][k] += k == 0 ? 0.3 : 0.5;
        std::array<double, 4> fv;
        for (int k = 0; k < 4; ++k) fv[k] = f(simplex[k]);
        for (int iter = 0; iter < 400; ++iter) {
            std::array<int, 4> o = {0, 1, 2, 3};
            std::sort(o.begin(), o.end(), [&](int a, int b) { return fv[a] < fv[b]; });
            if (fv[o[3]] - fv[o[0]] < 1e-7 * (1 + std::fabs(fv[o[0]]))) break;
            std::array<double, 3> cen{0, 0, 0};
            for (int k = 0; k < 3; ++k)
                for (int j = 0; j < 3; ++j) cen[j] += simplex[o[k]][j] / 3;
            const auto along = [&](double t) {
                std::array<double, 3> p;
                for (int j = 0; j < 3; ++j) p[j] = cen[j] + t * (simplex[o[3]][j] - cen[j]);
                return p;
            };
            const auto r = along(-1);
            const double fr = f(r);
            if (fr < fv[o[0]]) {
                const auto e = along(-2);
                const double fe = f(e);
                if (fe < fr) simplex[o[3]] = e, fv[o[3]] = fe;
                else simplex[o[3]] = r, fv[o[3]] = fr;
            } else if (fr < fv[o[2]]) {
                simplex[o[3]] = r, fv[o[3]] = fr;
            } else {
                const auto k = along(fr < fv[o[3]] ? -0.5 : 0.5);
                const double fk = f(k);
                if (fk < std::min(fr, fv[o[3]])) {
                    simplex[o[3]] = k, fv[o[3]] = fk;
                } else {
                    for (int j = 1; j < 4; ++j) {
                        for (int q = 0; q < 3; ++q)
                            simplex[o[j]][q] = simplex[o[0]][q] + 0.5 * (simplex[o[j]][q] - simplex[o[0]][q]);
                        fv[o[j]] = f(simplex[o[j]]);
                    }
                }
            }
        }
        // Back to the data's scale: the density gains a factor 1/sd per value.
        const double dev = *std::min_element(fv.begin(), fv.end()) + 2 * static_cast<double>(n) * std::log(sd);
        if (std::isfinite(dev)) best = std::min(best, dev);
        for (double& v : x) v = v * sd + c;
    }
    return best + 3 * std::log(static_cast<double>(n));
}

// Values quantised to a step (a timer's resolution, frame rates of whole
// numbers) repeat, and a repeated value is a spike that the dip test reads
// as a mode and a normal mixture fits with a component of almost no width:
// 16, 17 and 18 ms would be "bimodal". Where values repeat, each group of k
// equal values v is spread evenly over its rounding cell, v + q ((j + 1/2)
// / k - 1/2), j < k, with q the smallest gap between distinct values (the
// step as far as the data shows it): the sample a continuous quantity would
// have given. Two distinct values then fill the cells between them and show
// no mode: whether 30 and 60 are two modes or two steps of a grid 30 wide,
// values alone cannot tell. Unchanged when no value repeats. `sorted`: the
// values in ascending order; so is the result.
std::vector<double> spread_ties(std::span<const double> sorted, bool& spread) {
    std::vector<double> x(sorted.begin(), sorted.end());
    double q = std::numeric_limits<double>::infinity();
    bool ties = false;
    for (size_t i = 1; i < x.size(); ++i) {
        if (x[i] == x[i - 1]) ties = true;
        else q = std::min(q, x[i] - x[i - 1]);
    }
    spread = ties && std::isfinite(q);
    if (!spread) return x;
    for (size_t a = 0; a < x.size();) {
        size_t b = a + 1;
        while (b < x.size() && x[b] == x[a]) ++b;
        const double v = x[a], k = static_cast<double>(b - a);
        for (size_t j = a; j < b; ++j) x[j] = v + q * ((static_cast<double>(j - a) + 0.5) / k - 0.5);
        a = b;
    }
    return x;
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

double ex_gaussian_bic(std::span<const double> values) { return fit_ex_gaussian_bic(values); }

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

Bimodality judge_bimodality(std::span<const double> values, const ScaledValues* exact,
                            std::span<const double> sorted) {
    Bimodality b;
    const size_t n = values.size();
    const ShapeMoments s = exact && exact->size() == n ? shape_moments(*exact) : shape_moments(ScaledValues{values, 0});
    b.coefficient = std::numeric_limits<double>::quiet_NaN();
    if (s.defined) {
        const double nn = static_cast<double>(n);
        b.coefficient = (s.g1 * s.g1 + 1) / (s.g2 + 3 * (nn - 1) * (nn - 1) / ((nn - 2) * (nn - 3)));
    }
    b.coefficient_high = b.coefficient > kBimodalityCoefficientCut;
    if (n < kMinValuesForShape || constant(values)) {
        b.dip = dip_test(values);
        return b;
    }
    b.judged = true;
    // The shape is judged on the values with repeats spread over their
    // rounding cells (spread_ties); the modes reported are of the values.
    std::vector<double> own;
    if (sorted.size() != n) {
        own = sorted_ascending(values);
        sorted = own;
    }
    const std::vector<double> x = spread_ties(sorted, b.ties_spread);
    // Spread ties stay in order but for a rounding in the last bit.
    b.dip = std::is_sorted(x.begin(), x.end()) ? dip_test_sorted(x) : dip_test(x);
    b.mixture = fit_normal_mixture(x);
    b.bic_lognormal = lognormal_bic(x);
    b.dip_significant = b.dip.p < kBimodalDipLevel;
    const auto& m = b.mixture;
    // A long right tail is fitted better by two normals than by one, but
    // not better than by a lognormal: without that comparison every
    // skewed latency sample would be called bimodal.
    const double unimodal_bic = std::isnan(b.bic_lognormal) ? m.bic_one : std::min(m.bic_one, b.bic_lognormal);
    b.mixture_separated = m.two_fitted && unimodal_bic - m.bic_two > kMixtureBicMargin &&
                          m.ashman_d > kMixtureMinSeparation &&
                          std::min(m.components[0].weight, m.components[1].weight) * static_cast<double>(n) >= 3;
    b.bic_ex_gaussian = std::numeric_limits<double>::quiet_NaN();
    if (b.mixture_separated && b.dip_significant) {
        b.bimodal = true;
    } else if (b.mixture_separated && m.ashman_d > kMixtureClearSeparation) {
        // The dip test misses a small second mode (7 of 40 values) however
        // far it lies; the mixture alone may say so only when it also fits
        // better than a skewed unimodal shape, a normal core with a shifted
        // exponential tail on either side: a tail is not a mode.
        b.bic_ex_gaussian = fit_ex_gaussian_bic(x);
        b.bimodal = !(b.bic_ex_gaussian - m.bic_two <= kMixtureOverExGaussian);
    }
    if (b.bimodal) {
        b.modes = m.components;
        if (b.ties_spread) {
            // Repeated values: the modes of the values themselves (a mode
            // of one repeated value has sd 0), split where the mixture's
            // components meet.
            b.modes = split_modes(values);
            b.modes_from_split = true;
        }
    } else if (!m.two_fitted && b.dip_significant) {
        b.bimodal = true;
        b.modes = split_modes(values);
        b.modes_from_split = true;
    }
    return b;
}

SampleDiagnostics diagnose_sample(std::span<const double> values, const SampleLayout& layout,
                                  const DiagnosticOptions& o, const ScaledValues* exact,
                                  std::span<const double> sorted) {
    SampleDiagnostics d;
    d.n = values.size();
    // One ascending copy for the shape and the outliers.
    std::vector<double> own;
    if (sorted.size() != values.size()) {
        own = sorted_ascending(values);
        sorted = own;
    }
    d.bimodality = judge_bimodality(values, exact, sorted);
    // Outliers and bimodality keep the values themselves (--drop-outliers
    // drops what the outlier sentence names); what is about the order of
    // runs and boots is judged within machines.
    const std::span<const double> all = values;
    std::vector<double> centred;
    if (layout.machine_of_value.size() == values.size() && !values.empty()) {
        const uint32_t count = *std::max_element(layout.machine_of_value.begin(), layout.machine_of_value.end()) + 1;
        std::vector<double> sum(count, 0);
        std::vector<size_t> n(count, 0);
        double grand = 0;
        for (size_t i = 0; i < values.size(); ++i) {
            sum[layout.machine_of_value[i]] += values[i];
            ++n[layout.machine_of_value[i]];
            grand += values[i];
        }
        grand /= static_cast<double>(values.size());
        d.machines = static_cast<size_t>(std::count_if(n.begin(), n.end(), [](size_t k) { return k > 0; }));
        // (The boot F test on centred values keeps boots - 1 numerator
        // degrees of freedom where boots - machines are left: it errs
        // towards saying nothing, which is what a diagnostic may do.)
        if (d.machines >= 2) {
            centred.resize(values.size());
            for (size_t i = 0; i < values.size(); ++i) {
                const uint32_t m = layout.machine_of_value[i];
                centred[i] = values[i] - sum[m] / static_cast<double>(n[m]) + grand;
            }
            values = centred;
        } else {
            d.machines = 0;
        }
    }
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
    }
    // One drift sentence at most kDriftLevel of the time on a drift-free
    // series: the trend, the change point (and the trend within boots,
    // when it is judged) share the level equally (Bonferroni). At 0.01
    // each, their union fired on 1.1-1.8% of normal samples.
    const size_t drift_tests = 2 + (d.drift_over_boots && d.within_boots.defined);
    const double level = kDriftLevel / static_cast<double>(drift_tests);
    d.trending_within_boots = d.drift_over_boots && d.within_boots.defined &&
                              notable(d.within_boots.p, d.within_boots.relative_drift, level, o.threshold);
    const Trend& t = d.drift.trend;
    d.trending = t.defined && notable(t.spearman_p, t.relative_drift, level, o.threshold);
    const ChangePoint& c = d.drift.change_point;
    d.shifted = c.defined && notable(c.p, c.relative_shift, level, o.threshold);
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
    d.first_run_p = f.p;
    if (f.defined && std::all_of(values.begin(), values.end(), [](double v) { return v > 0; })) {
        std::vector<double> logs(values.size());
        for (size_t i = 0; i < values.size(); ++i) logs[i] = std::log(values[i]);
        const FirstRunEffect lf = first_run_effect(logs, firsts);
        d.first_run_p = lf.defined ? lf.p : 1;
    }
    d.first_run_differs = f.defined && notable(d.first_run_p, f.relative_difference, kFirstRunLevel, o.threshold);
    d.outliers = find_outliers(all, sorted);
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
