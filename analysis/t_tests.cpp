// SPDX-License-Identifier: MIT
#include "analysis/t_tests.h"

#include <algorithm>
#include <array>
#include <boost/math/distributions/non_central_t.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <variant>

namespace gfxstat::analysis {

namespace {

using i128 = __int128;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// x * 10^e with the power exact where it can be (a negative exponent
// divides by the exact 10^-e instead of multiplying by an inexact 10^e).
long double scale10(long double x, int e) {
    if (e < 0 && e >= -27) return x / pow10l(-e);
    return x * pow10l(e);
}

// ---- difference of means --------------------------------------------------

template <class T>
i128 exact_sum(std::span<const T> v) {
    i128 s = 0;
    for (T x : v) s += x;  // |x| < 2^63, n < 2^63: cannot overflow
    return s;
}

// s * 10^k, or nothing when that overflows 128 bits.
std::optional<i128> times_pow10(i128 s, int k) {
    for (int i = 0; i < k; ++i)
        if (__builtin_mul_overflow(s, i128{10}, &s)) return std::nullopt;
    return s;
}

// Exact (one final rounding) when both samples are integer significands and
// the rescaled cross products fit 128 bits.
std::optional<double> exact_difference(const ScaledValues& a, const ScaledValues& b) {
    if (std::holds_alternative<std::span<const double>>(a.values) ||
        std::holds_alternative<std::span<const double>>(b.values))
        return std::nullopt;
    const auto sum = [](const ScaledValues& v) {
        return std::visit(
            [](auto s) -> i128 {
                using T = typename decltype(s)::value_type;
                if constexpr (std::is_same_v<T, double>)
                    return 0;  // excluded above
                else
                    return exact_sum(s);
            },
            v.values);
    };
    const int e = std::min(a.exponent, b.exponent);
    // Exponent gaps beyond 38 digits cannot fit unless the sum is 0; leave
    // those (rare) inputs to the long-double path.
    if (a.exponent - e > 38 || b.exponent - e > 38) return std::nullopt;
    const auto sa = times_pow10(sum(a), a.exponent - e);
    const auto sb = times_pow10(sum(b), b.exponent - e);
    if (!sa || !sb) return std::nullopt;
    const i128 na = static_cast<i128>(a.size()), nb = static_cast<i128>(b.size());
    i128 x, y, num, den;
    if (__builtin_mul_overflow(*sb, na, &x) || __builtin_mul_overflow(*sa, nb, &y) ||
        __builtin_sub_overflow(x, y, &num) || __builtin_mul_overflow(na, nb, &den))
        return std::nullopt;
    if (num == 0) return 0.0;
    // num and den round to 64-bit significands at most once each, then one
    // division and one scaling: far inside a double's last bit.
    const long double q = static_cast<long double>(num) / static_cast<long double>(den);
    return static_cast<double>(scale10(q, e));
}

// value i as long double (exact for int32 significands times 10^e with
// |e| <= 27 up to the one rounding of the scaling; exact for doubles).
long double value_ld(const ScaledValues& v, size_t i) {
    return std::visit(
        [&](auto s) -> long double {
            using T = typename decltype(s)::value_type;
            if constexpr (std::is_same_v<T, double>)
                return s[i];
            else
                return scale10(static_cast<long double>(s[i]), v.exponent);
        },
        v.values);
}

// Mean of (v_i - pivot), Neumaier-compensated in long double.
long double centred_mean(const ScaledValues& v, long double pivot) {
    long double sum = 0, comp = 0;
    const size_t n = v.size();
    for (size_t i = 0; i < n; ++i) {
        const long double y = value_ld(v, i) - pivot;
        const long double t = sum + y;
        comp += std::fabs(sum) >= std::fabs(y) ? (sum - t) + y : (y - t) + sum;
        sum = t;
    }
    return (sum + comp) / static_cast<long double>(n);
}

// Both samples centred on one common value (the first baseline value), so
// that the large common part cancels exactly before anything is summed.
double long_double_difference(const ScaledValues& a, const ScaledValues& b) {
    const long double pivot = a.size() > 0 ? value_ld(a, 0) : b.size() > 0 ? value_ld(b, 0) : 0;
    long double d = centred_mean(b, pivot) - centred_mean(a, pivot);
    if (!std::isfinite(d)) d = static_cast<long double>(moments(b).mean) - moments(a).mean;
    return static_cast<double>(d);
}

// ---- t distribution helpers -------------------------------------------------

void check_confidence(double confidence) {
    if (!(confidence > 0 && confidence < 1))
        throw std::invalid_argument("confidence must lie in (0, 1)");
}

// P(T > x), T ~ t(df); complement keeps digits in the far tail.
double upper_tail(double x, double df) {
    if (std::isnan(x)) return kNaN;
    if (x == kInf) return 0;
    if (x == -kInf) return 1;
    boost::math::students_t dist(df);
    return boost::math::cdf(boost::math::complement(dist, x));
}

// Two-sided critical value: P(|T| > q) = 1 - confidence.
double critical(double confidence, double df) {
    boost::math::students_t dist(df);
    return boost::math::quantile(boost::math::complement(dist, (1 - confidence) / 2));
}

long double variance_ld(const Moments& m) {
    if (m.n < 2) return 0;
    if (std::isfinite(m.variance)) return m.variance;
    const long double s = m.stddev;  // squares of up to 1e308 fit a long double
    return s * s;
}

double nn(const Moments& m) { return static_cast<double>(m.n); }

TTest too_few(double difference) {
    TTest r;
    r.difference = difference;
    r.df = 0;
    r.t = kNaN;
    r.stderr_ = kNaN;
    r.p = 1;
    r.ci = {-kInf, kInf};
    r.defined = false;
    return r;
}

// Common finishing of both t tests. se > 0 finite or zero; df > 0.
TTest finish(double difference, long double se, double df, double confidence) {
    TTest r;
    r.difference = difference;
    r.df = df;
    r.stderr_ = static_cast<double>(se);
    if (std::isnan(difference) || std::isnan(static_cast<double>(se))) return too_few(difference);
    if (se == 0) {
        // Both samples constant: the difference is known exactly.
        r.defined = false;
        r.t = kNaN;
        r.p = difference == 0 ? 1 : 0;
        r.ci = {difference, difference};
        return r;
    }
    r.t = static_cast<double>(difference / se);
    r.p = std::min(1.0, 2 * upper_tail(std::fabs(r.t), df));
    const long double h = critical(confidence, df) * se;
    r.ci = {static_cast<double>(difference - h), static_cast<double>(difference + h)};
    return r;
}


// Pooled variance, or nothing when n1 + n2 < 3.
std::optional<long double> pooled_variance(const TwoSampleMoments& m) {
    const Moments &a = m.baseline, &b = m.candidate;
    if (a.n == 0 || b.n == 0 || a.n + b.n < 3) return std::nullopt;
    const long double df = nn(a) + nn(b) - 2;
    return ((nn(a) - 1) * variance_ld(a) + (nn(b) - 1) * variance_ld(b)) / df;
}

struct Welch {
    long double se;
    double df;
};

std::optional<Welch> welch_parts(const TwoSampleMoments& m) {
    const Moments &a = m.baseline, &b = m.candidate;
    if (a.n < 2 || b.n < 2) return std::nullopt;
    const long double u = variance_ld(a) / nn(a), w = variance_ld(b) / nn(b);
    Welch r;
    r.se = std::sqrt(u + w);
    if (u + w == 0) {
        r.df = nn(a) + nn(b) - 2;  // undefined (0/0); reported as the pooled df
    } else {
        r.df = static_cast<double>((u + w) * (u + w) /
                                   (u * u / (nn(a) - 1) + w * w / (nn(b) - 1)));
    }
    return r;
}

// ---- power ----------------------------------------------------------------

// power.t.test's power (strict = FALSE) minus the target, for n per group.
double power_gap(double n, double effect, double alpha, double power) {
    const double df = 2 * n - 2;
    boost::math::students_t central(df);
    const double q = boost::math::quantile(boost::math::complement(central, alpha / 2));
    const double ncp = std::sqrt(n / 2) * effect;
    // Boost's noncentral t series overflow an int for noncentralities far
    // beyond the critical value (a change of thousands of standard
    // deviations); the power there is 1 to double precision.
    if (ncp > 1e4 && ncp > 10 * q) return 1 - power;
    try {
        boost::math::non_central_t dist(df, ncp);
        return boost::math::cdf(boost::math::complement(dist, q)) - power;
    } catch (const std::exception&) {
        return (ncp > q ? 1 : 0) - power;
    }
}

void check_power_args(double cv, double rel_change, double alpha, double power) {
    if (!(cv >= 0) || !std::isfinite(cv) || !std::isfinite(rel_change))
        throw std::invalid_argument("cv must be finite and >= 0, rel_change finite");
    if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("alpha must lie in (0, 1)");
    if (!(power > 0 && power < 1)) throw std::invalid_argument("power must lie in (0, 1)");
}

double solve_n(double lo, double hi, double effect, double alpha, double power) {
    const auto f = [&](double n) { return power_gap(n, effect, alpha, power); };
    boost::uintmax_t iters = 200;
    // Stop when the bracket is within a few ulps.
    const auto tol = boost::math::tools::eps_tolerance<double>(std::numeric_limits<double>::digits - 3);
    const auto [x0, x1] = boost::math::tools::toms748_solve(f, lo, hi, tol, iters);
    return x0 + (x1 - x0) / 2;
}

}  // namespace

TwoSampleMoments two_sample_moments(const ScaledValues& baseline, const ScaledValues& candidate) {
    TwoSampleMoments r;
    r.baseline = moments(baseline);
    r.candidate = moments(candidate);
    if (baseline.size() == 0 || candidate.size() == 0) {
        r.difference = kNaN;
        return r;
    }
    if (auto d = exact_difference(baseline, candidate))
        r.difference = *d;
    else
        r.difference = long_double_difference(baseline, candidate);
    return r;
}

TTest student_t_test(const TwoSampleMoments& m, double confidence) {
    check_confidence(confidence);
    const auto sp2 = pooled_variance(m);
    if (!sp2) return too_few(m.difference);
    const double na = nn(m.baseline), nb = nn(m.candidate);
    const long double se = std::sqrt(*sp2 * (1.0L / na + 1.0L / nb));
    return finish(m.difference, se, na + nb - 2, confidence);
}

TTest welch_t_test(const TwoSampleMoments& m, double confidence) {
    check_confidence(confidence);
    const auto w = welch_parts(m);
    if (!w) return too_few(m.difference);
    return finish(m.difference, w->se, w->df, confidence);
}

EffectSize effect_size(const TwoSampleMoments& m, double confidence) {
    check_confidence(confidence);
    EffectSize r;
    const auto sp2 = pooled_variance(m);
    // The pooled variance of values near 1e300 exceeds a double but not a
    // long double: the check is on the long double.
    if (!sp2 || *sp2 == 0 || !std::isfinite(*sp2)) {
        r.defined = false;
        r.cohens_d = r.hedges_g = kNaN;
        r.g_ci = {kNaN, kNaN};
        return r;
    }
    const double na = nn(m.baseline), nb = nn(m.candidate), n = na + nb;
    r.cohens_d = static_cast<double>(m.difference / std::sqrt(*sp2));
    r.hedges_g = r.cohens_d * (1 - 3 / (4 * n - 9));
    const double g = r.hedges_g;
    const double se = std::sqrt(n / (na * nb) + g * g / (2 * n));
    const boost::math::normal z01;
    const double z = boost::math::quantile(boost::math::complement(z01, (1 - confidence) / 2));
    r.g_ci = {g - z * se, g + z * se};
    return r;
}

namespace {

// Mean and standard error of the mean, centred on the first value.
struct OneSample {
    double mean = 0;
    long double se = 0;
    double df = 0;
};
std::optional<OneSample> one_sample(std::span<const double> d) {
    if (d.size() < 2) return std::nullopt;
    const long double c = d[0];
    long double s = 0;
    for (double x : d) s += x - c;
    const long double n = static_cast<long double>(d.size()), m = s / n;
    long double ss = 0;
    for (double x : d) ss += ((x - c) - m) * ((x - c) - m);
    OneSample r;
    r.mean = static_cast<double>(c + m);
    r.se = std::sqrt(ss / (n - 1) / n);
    r.df = static_cast<double>(d.size() - 1);
    return r;
}

}  // namespace

TTest one_sample_t_test(std::span<const double> d, double confidence) {
    check_confidence(confidence);
    const auto o = one_sample(d);
    if (!o) return too_few(d.empty() ? kNaN : d[0]);
    return finish(o->mean, o->se, o->df, confidence);
}

Equivalence one_sample_tost(std::span<const double> d, double margin, double alpha) {
    if (!(alpha > 0 && alpha < 0.5)) throw std::invalid_argument("alpha must lie in (0, 0.5)");
    if (!(margin >= 0)) throw std::invalid_argument("margin must be >= 0");
    Equivalence r;
    r.margin = margin;
    const auto o = one_sample(d);
    if (!o) {
        r.p = 1;
        r.ci = {-kInf, kInf};
        return r;
    }
    if (o->se == 0) {
        const bool inside = -margin < o->mean && o->mean < margin;
        r.p = inside ? 0 : 1;
        r.ci = {o->mean, o->mean};
        r.equivalent = inside;
        return r;
    }
    const double p_lower = upper_tail(static_cast<double>((o->mean + margin) / o->se), o->df);
    const double p_upper = upper_tail(static_cast<double>((margin - o->mean) / o->se), o->df);
    r.p = std::max(p_lower, p_upper);
    const long double h = critical(1 - 2 * alpha, o->df) * o->se;
    r.ci = {static_cast<double>(o->mean - h), static_cast<double>(o->mean + h)};
    r.equivalent = r.p < alpha;
    return r;
}

Equivalence tost(const TwoSampleMoments& m, double threshold_relative, double alpha) {
    if (!(alpha > 0 && alpha < 0.5)) throw std::invalid_argument("alpha must lie in (0, 0.5)");
    if (!(threshold_relative >= 0)) throw std::invalid_argument("threshold must be >= 0");
    Equivalence r;
    r.margin = threshold_relative * std::fabs(m.baseline.mean);
    const double d = m.difference;
    const auto w = welch_parts(m);
    if (!w || std::isnan(d) || std::isnan(r.margin)) {
        r.p = 1;
        r.ci = {-kInf, kInf};
        return r;
    }
    if (w->se == 0) {
        // Both samples constant: the difference is exact, so it either lies
        // strictly inside the margin (both nulls rejected) or it does not.
        const bool inside = -r.margin < d && d < r.margin;
        r.p = inside ? 0 : 1;
        r.ci = {d, d};
        r.equivalent = inside;
        return r;
    }
    const long double se = w->se;
    // H0: d <= -margin, rejected for large (d + margin) / se.
    const double p_lower = upper_tail(static_cast<double>((d + r.margin) / se), w->df);
    // H0: d >= +margin, rejected for small (d - margin) / se.
    const double p_upper = upper_tail(static_cast<double>((r.margin - d) / se), w->df);
    r.p = std::max(p_lower, p_upper);
    const long double h = critical(1 - 2 * alpha, w->df) * se;
    r.ci = {static_cast<double>(d - h), static_cast<double>(d + h)};
    r.equivalent = r.p < alpha;
    return r;
}

double power_t_test_n(double cv, double rel_change, double alpha, double power) {
    check_power_args(cv, rel_change, alpha, power);
    const double delta = std::fabs(rel_change);
    if (delta == 0) return kInf;
    if (cv == 0) return 1;  // any n > 1 detects a change without noise
    const double effect = delta / cv;
    if (!std::isfinite(effect)) return 1;
    constexpr double kMax = 1e9;
    if (power_gap(2, effect, alpha, power) <= 0) {
        // Double the upper end until the power suffices: the bracket stays
        // where the noncentrality is moderate (Boost's series overflow an
        // int for noncentralities beyond ~6e4).
        double lo = 2, hi = 4;
        while (power_gap(hi, effect, alpha, power) < 0) {
            if (hi >= kMax) return kInf;
            lo = hi;
            hi = std::min(2 * hi, kMax);
        }
        return solve_n(lo, hi, effect, alpha, power);
    }
    // Already powerful enough at n = 2: R extends the interval downwards;
    // the power tends to 0 as n -> 1 (df -> 0).
    double lo = 1.5;
    for (int k = 2; k < 60; ++k, lo = 1 + std::ldexp(1.0, -k)) {
        double gap;
        try {
            gap = power_gap(lo, effect, alpha, power);
        } catch (const std::exception&) {
            gap = -power;  // df too small for the quantile: power 0
        }
        if (gap < 0) return solve_n(lo, 2, effect, alpha, power);
    }
    return 1;
}

double runs_per_group(double cv, double rel_change, double alpha, double power) {
    return std::max(2.0, power_t_test_n(cv, rel_change, alpha, power));
}

double whole_runs_per_group(double cv, double rel_change, double alpha, double power) {
    check_power_args(cv, rel_change, alpha, power);
    const double delta = std::fabs(rel_change);
    if (delta == 0) return kInf;
    if (cv == 0) return 2;
    const double effect = delta / cv;
    if (!std::isfinite(effect)) return 2;
    // The normal approximation n = 2 (z / effect)^2, plus 1 for the t's
    // heavier tails, is within a run or two of the root.
    const boost::math::normal_distribution<double> z01;
    const double z = boost::math::quantile(boost::math::complement(z01, alpha / 2)) + boost::math::quantile(z01, power);
    const double guess = std::ceil(2 * (z / effect) * (z / effect) + 1);
    const auto reaches = [&](double n) { return power_gap(n, effect, alpha, power) >= 0; };
    constexpr double kMaxSteps = 64;
    if (guess < 1e6) {
        double m = std::max(2.0, guess);
        if (reaches(m)) {
            while (m > 2 && reaches(m - 1)) --m;
            return m;
        }
        for (const double last = m + kMaxSteps; m < last;)
            if (reaches(++m)) return m;
    }
    return std::ceil(runs_per_group(cv, rel_change, alpha, power));  // far from the guess: solve
}

namespace {

double solve_detectable_effect(double n, double alpha, double power) {
    // The power grows with the effect (delta / sd): bracket, then solve.
    const auto f = [&](double effect) { return power_gap(n, effect, alpha, power); };
    double lo = 0, hi = 1;
    while (f(hi) < 0) {
        lo = hi;
        hi *= 2;
        if (hi > 1e8) return kInf;
    }
    boost::uintmax_t iters = 200;
    const auto tol = boost::math::tools::eps_tolerance<double>(std::numeric_limits<double>::digits - 3);
    const auto [e0, e1] = boost::math::tools::toms748_solve(f, lo, hi, tol, iters);
    return e0 + (e1 - e0) / 2;
}

// The smallest standardised effect (change / sd) the test detects: it
// depends on n, alpha and power only, so the last few solved are kept (a
// suite's comparisons share their n; a solve costs some 100 us).
struct EffectKey {
    double n, alpha, power;
    bool operator==(const EffectKey&) const = default;
};

double detectable_effect(double n, double alpha, double power) {
    thread_local std::array<std::pair<EffectKey, double>, 8> solved{};
    thread_local size_t used = 0, next = 0;
    const EffectKey key{n, alpha, power};
    for (size_t i = 0; i < used; ++i)
        if (solved[i].first == key) return solved[i].second;
    const double effect = solve_detectable_effect(n, alpha, power);
    solved[next] = {key, effect};
    next = (next + 1) % solved.size();
    used = std::max(used, next == 0 ? solved.size() : next);
    return effect;
}

}  // namespace

double detectable_relative_change(double cv, double n, double alpha, double power) {
    check_power_args(cv, 0, alpha, power);
    if (!(n >= 2) || !std::isfinite(n)) throw std::invalid_argument("n must be finite and >= 2");
    if (cv == 0) return 0;
    return detectable_effect(n, alpha, power) * cv;
}

std::vector<double> holm_adjust(const std::vector<double>& p) {
    std::vector<size_t> order;
    for (size_t i = 0; i < p.size(); ++i)
        if (!std::isnan(p[i])) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return p[x] < p[y]; });
    std::vector<double> out(p.size(), kNaN);
    const size_t m = order.size();
    double run = 0;
    for (size_t i = 0; i < m; ++i) {
        run = std::max(run, static_cast<double>(m - i) * p[order[i]]);
        out[order[i]] = std::min(1.0, run);
    }
    return out;
}

std::vector<double> benjamini_hochberg_adjust(const std::vector<double>& p) {
    std::vector<size_t> order;
    for (size_t i = 0; i < p.size(); ++i)
        if (!std::isnan(p[i])) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return p[x] > p[y]; });
    std::vector<double> out(p.size(), kNaN);
    const size_t m = order.size();
    double run = kInf;
    for (size_t k = 0; k < m; ++k) {
        const double rank = static_cast<double>(m - k);  // rank in ascending order
        run = std::min(run, static_cast<double>(m) / rank * p[order[k]]);
        out[order[k]] = std::min(1.0, run);
    }
    return out;
}

}  // namespace gfxstat::analysis
