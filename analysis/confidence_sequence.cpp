// SPDX-License-Identifier: MIT
// The t-mixture confidence sequence of confidence_sequence.h: closed forms, one
// pass over the block differences per look.
#include "analysis/confidence_sequence.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <vector>

#include "analysis/enum_names.h"
#include "analysis/group_sequential.h"
#include "analysis/student_t.h"

namespace gfxstat::analysis {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Running mean and sum of squared deviations (Welford): one difference at
// a time, so that every prefix's Bayes factor costs O(1).
struct Running {
    size_t n = 0;
    double mean = 0, m2 = 0;
    void add(double x) {
        ++n;
        const double d = x - mean;
        mean += d / static_cast<double>(n);
        m2 += d * (x - mean);
    }
};

// No spread: identical differences, up to the rounding of their mean.
bool no_spread(const Running& r, double mu) {
    const double scale = std::max(std::fabs(r.mean), std::fabs(mu));
    return !(r.m2 > 0) || r.m2 <= 1e-28 * static_cast<double>(r.n) * scale * scale;
}

// The two-sided p of the one-sample t of "the mean is 0" for the prefix
// (a group design's look). Without spread: 0 for an exact metric whose
// difference is not 0 (the change is known), else 1 (no evidence).
double nominal_p(const Running& r, bool exact) {
    if (r.n < 2) return 1;
    if (no_spread(r, 0)) return exact && r.mean != 0 ? 0 : 1;
    const double n = static_cast<double>(r.n);
    return t_two_sided_p(std::fabs(r.mean) / std::sqrt(r.m2 / (n - 1) / n), n - 1);
}

// log B_n(mu) from the prefix's moments. Without spread its limit for
// t -> infinity, (n - 1)/2 log(1 + n g), when `exact`; else 0 (ties are no
// evidence, SequentialOptions::exact).
double log_bayes_factor(const Running& r, double mu, double g, bool exact = true) {
    if (r.n < 2) return 0;
    const double n = static_cast<double>(r.n), nu = n - 1, ng1 = 1 + n * g;
    const double dev = r.mean - mu;
    if (no_spread(r, mu)) return dev == 0 || !exact ? 0 : nu / 2 * std::log(ng1);
    const double s2 = r.m2 / nu;
    const double t2 = dev * dev / (s2 / n);
    return -0.5 * std::log(ng1) + n / 2 * (std::log1p(t2 / nu) - std::log1p(t2 / (nu * ng1)));
}

// log((1 - w) e^main + w e^wide), without overflow: the two-part prior's
// Bayes factor from its parts' logs (w > 0).
double log_mix(double w, double main, double wide) {
    const double a = std::log1p(-w) + main, b = std::log(w) + wide;
    return std::max(a, b) + std::log1p(std::exp(-std::fabs(a - b)));
}

// log of (1 - w) B_n(mu; g) + w B_n(mu; G): the two-part prior.
double log_bayes_factor(const Running& r, double mu, double g, double big_g, double w, bool exact = true) {
    const double main = log_bayes_factor(r, mu, g, exact);
    if (!(w > 0)) return main;
    return log_mix(w, main, log_bayes_factor(r, mu, big_g, exact));
}

void check_mixture(const char* who, double g, double big_g, double w) {
    if (!(g > 0) || !std::isfinite(g)) throw std::invalid_argument(std::string(who) + ": the mixture must be > 0");
    if (!(big_g > 0) || !std::isfinite(big_g))
        throw std::invalid_argument(std::string(who) + ": the wide mixture must be > 0");
    if (!(w >= 0 && w < 1)) throw std::invalid_argument(std::string(who) + ": the wide weight must be in [0, 1)");
}

// log B_n at a given t^2 for n differences (s > 0), the two parts mixed.
double log_bayes_at(double n, double t2, double g, double big_g, double w) {
    const auto part = [&](double gg) {
        const double nu = n - 1, ng1 = 1 + n * gg;
        return -0.5 * std::log(ng1) + n / 2 * (std::log1p(t2 / nu) - std::log1p(t2 / (nu * ng1)));
    };
    return log_mix(w, part(g), part(big_g));
}

// T_n of the two-part prior: the t at which the mixed Bayes factor reaches
// 1/alpha. Each part grows with t^2 towards (1 + n g)^((n - 1)/2), so the
// sum does: no bound when its limit stays at or below 1/alpha, else a
// bisection on log t^2 to the last bits of a double. The simulations ask
// for the same few radii millions of times: a per-thread table keeps them.
double mixed_radius(size_t n, double alpha, double g, double big_g, double w) {
    struct Table {
        double alpha = -1, g = -1, big_g = -1, w = -1;
        std::vector<double> radius;  // NaN: not yet computed
    };
    thread_local Table table;
    if (table.alpha != alpha || table.g != g || table.big_g != big_g || table.w != w) {
        table = Table{alpha, g, big_g, w, {}};
    }
    if (n < table.radius.size() && !std::isnan(table.radius[n])) return table.radius[n];
    const double nd = static_cast<double>(n), nu = nd - 1;
    const double target = -std::log(alpha);
    const auto limit_part = [&](double gg) { return nu / 2 * std::log1p(nd * gg); };
    const double limit = log_mix(w, limit_part(g), limit_part(big_g));
    double result = kInf;
    if (limit > target) {
        double lo = -40, hi = 0;  // log t^2
        while (log_bayes_at(nd, std::exp(hi), g, big_g, w) < target && hi < 700) {
            lo = hi;
            hi += 4;
        }
        if (log_bayes_at(nd, std::exp(lo), g, big_g, w) >= target) lo = -745;
        for (int i = 0; i < 200 && hi - lo > 1e-15 * std::max(1.0, std::fabs(hi)); ++i) {
            const double mid = 0.5 * (lo + hi);
            if (log_bayes_at(nd, std::exp(mid), g, big_g, w) < target) lo = mid;
            else hi = mid;
        }
        result = std::sqrt(std::exp(0.5 * (lo + hi)));
    }
    // Up to 2^21 blocks: blocks_to_settle's search looks as far as a
    // million blocks past the current one, and without a table each look of
    // a noisy metric would bisect anew at every one of those (16 MiB at most).
    if (n < (size_t{1} << 21)) {
        if (table.radius.size() <= n) table.radius.resize(n + 1, std::numeric_limits<double>::quiet_NaN());
        table.radius[n] = result;
    }
    return result;
}

std::string percent(double x) {
    if (!std::isfinite(x)) return x > 0 ? "+inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.3g%%", 100 * x);
    return buf;
}

}  // namespace

const char* sequential_call_name(SequentialCall c) {
    static constexpr EnumName<SequentialCall> kNames[] = {{SequentialCall::go_on, "go on"},
                                                          {SequentialCall::changed, "changed"},
                                                          {SequentialCall::equivalent, "equivalent"}};
    return name_of(kNames, c, "go on");
}

double sequential_radius(size_t n, double alpha, double mixture) {
    if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("sequential_radius: alpha must be in (0, 1)");
    if (!(mixture > 0) || !std::isfinite(mixture))
        throw std::invalid_argument("sequential_radius: the mixture must be > 0");
    if (n < 2) return kInf;
    // B_n < 1/alpha  <=>  (1 + a t^2) < c (1 + b t^2), with a = 1/nu,
    // b = 1/(nu (1 + n g)), c = ((1 + n g)^(1/2) / alpha)^(2/n); so
    // t^2 < (c - 1) / (a - c b) when a > c b, and no bound otherwise.
    const double nd = static_cast<double>(n), nu = nd - 1, ng1 = 1 + nd * mixture;
    const double log_c = (2 / nd) * (0.5 * std::log(ng1) - std::log(alpha));
    const double c = std::exp(log_c);
    const double a = 1 / nu, b = 1 / (nu * ng1);
    const double den = a - c * b;
    if (!(den > 0)) return kInf;
    return std::sqrt(std::expm1(log_c) / den);
}

double sequential_radius(size_t n, double alpha, double mixture, double wide_mixture, double wide_weight) {
    if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("sequential_radius: alpha must be in (0, 1)");
    check_mixture("sequential_radius", mixture, wide_mixture, wide_weight);
    if (!(wide_weight > 0)) return sequential_radius(n, alpha, mixture);
    if (n < 2) return kInf;
    return mixed_radius(n, alpha, mixture, wide_mixture, wide_weight);
}

double sequential_radius(size_t n, const SequentialOptions& o) {
    if (!o.looks.empty()) return group_radius(group_boundary(o.looks, 1 - o.confidence), n);
    return sequential_radius(n, 1 - o.confidence, o.mixture, o.wide_mixture, o.wide_weight);
}

double sequential_bayes_factor(std::span<const double> differences, double mu, double mixture, double wide_mixture,
                               double wide_weight) {
    check_mixture("sequential_bayes_factor", mixture, wide_mixture, wide_weight);
    Running r;
    for (double d : differences) r.add(d);
    return std::exp(log_bayes_factor(r, mu, mixture, wide_mixture, wide_weight));
}

double sequential_bayes_factor(std::span<const double> differences, double mu, double mixture) {
    if (!(mixture > 0)) throw std::invalid_argument("sequential_bayes_factor: the mixture must be > 0");
    Running r;
    for (double d : differences) r.add(d);
    return std::exp(log_bayes_factor(r, mu, mixture));
}

SequentialLook sequential_look(std::span<const double> baseline, std::span<const double> candidate,
                               const SequentialOptions& o) {
    if (baseline.size() != candidate.size())
        throw std::invalid_argument("sequential_look: one baseline and one candidate value per block");
    if (!(o.confidence > 0 && o.confidence < 1))
        throw std::invalid_argument("sequential_look: confidence must be in (0, 1)");
    if (!(o.threshold >= 0) || !std::isfinite(o.threshold))
        throw std::invalid_argument("sequential_look: the threshold must be >= 0");
    check_mixture("sequential_look", o.mixture, o.wide_mixture, o.wide_weight);
    const size_t n = baseline.size();
    SequentialLook look;
    look.blocks = n;
    bool positive = true;
    for (size_t i = 0; i < n; ++i) {
        if (!std::isfinite(baseline[i]) || !std::isfinite(candidate[i]))
            throw std::invalid_argument("sequential_look: values must be finite");
        positive = positive && baseline[i] > 0 && candidate[i] > 0;
    }
    look.log_ratio = positive && n > 0;

    // The differences, and the running maximum of B_k(0) over the looks
    // that could have been made (every prefix).
    std::vector<double> d(n);
    double base_sum = 0, base_log_sum = 0;
    Running r;
    double max_log_b0 = 0;
    // A group design: the smallest nominal p of the planned looks so far.
    const GroupBoundary* group = o.looks.empty() ? nullptr : &group_boundary(o.looks, 1 - o.confidence);
    double smallest_p = 1;
    size_t next_look = 0;
    for (size_t i = 0; i < n; ++i) {
        d[i] = look.log_ratio ? std::log(candidate[i]) - std::log(baseline[i]) : candidate[i] - baseline[i];
        base_sum += baseline[i];
        if (look.log_ratio) base_log_sum += std::log(baseline[i]);
        r.add(d[i]);
        if (!group) {
            max_log_b0 =
                std::max(max_log_b0, log_bayes_factor(r, 0, o.mixture, o.wide_mixture, o.wide_weight, o.exact));
        } else if (next_look < group->looks.size() && r.n == group->looks[next_look]) {
            ++next_look;
            smallest_p = std::min(smallest_p, nominal_p(r, o.exact));
        }
    }
    look.p = group ? (next_look > 0 ? group_p(*group, smallest_p) : 1) : std::min(1.0, std::exp(-max_log_b0));
    if (n == 0) {
        look.lower = -kInf;
        look.upper = kInf;
        look.change_lower = -kInf;
        look.change_upper = kInf;
        look.needs = "no block yet";
        return look;
    }
    const double nd = static_cast<double>(n);
    look.baseline_center = look.log_ratio ? std::exp(base_log_sum / nd) : base_sum / nd;
    const double magnitude = std::fabs(look.baseline_center);
    const double s = n >= 2 ? std::sqrt(r.m2 / (nd - 1)) : kInf;
    // Ties of a metric that is not exact: no interval yet.
    const double radius_t = n >= 2 && !o.exact && no_spread(r, 0) ? kInf : sequential_radius(n, o);
    // An identical difference in every block: the interval is the point
    // once the mixture can reach 1/alpha at all (radius finite).
    const double se = n >= 2 ? s / std::sqrt(nd) : kInf;
    const double half = std::isfinite(radius_t) ? (se > 0 ? radius_t * se : 0) : kInf;
    const double lo = r.mean - half, hi = r.mean + half;
    if (look.log_ratio) {
        look.relative_change = std::expm1(r.mean);
        look.lower = std::isfinite(lo) ? std::expm1(lo) : -1;
        look.upper = std::isfinite(hi) ? std::expm1(hi) : kInf;
        look.change = look.relative_change * look.baseline_center;
        look.change_lower = look.lower * look.baseline_center;
        look.change_upper = std::isfinite(look.upper) ? look.upper * look.baseline_center : kInf;
    } else {
        look.change = r.mean;
        look.change_lower = lo;
        look.change_upper = hi;
        const double rel = magnitude > 0 ? 1 / magnitude : std::numeric_limits<double>::quiet_NaN();
        look.relative_change = r.mean * rel;
        look.lower = std::isfinite(lo) ? lo * rel : -kInf;
        look.upper = std::isfinite(hi) ? hi * rel : kInf;
    }
    // The band, on the differences' scale.
    double band_lo, band_hi;
    if (look.log_ratio) {
        band_lo = o.threshold < 1 ? std::log1p(-o.threshold) : -kInf;
        band_hi = std::log1p(o.threshold);
    } else {
        band_lo = -o.threshold * magnitude;
        band_hi = o.threshold * magnitude;
    }
    const auto inside_band = [&](double l, double h) { return o.threshold > 0 && l > band_lo && h < band_hi; };
    const auto excludes_zero = [](double l, double h) { return l > 0 || h < 0; };
    // Equivalence first, as compare's verdict: a change proven smaller than
    // the threshold is no change worth the name.
    if (std::isfinite(half) && inside_band(lo, hi)) look.call = SequentialCall::equivalent;
    else if (std::isfinite(half) && excludes_zero(lo, hi)) look.call = SequentialCall::changed;

    char buf[160];
    if (look.call == SequentialCall::go_on) {
        // A group design between its looks: the next look is what decides.
        const auto after = group ? std::upper_bound(group->looks.begin(), group->looks.end(), n) : o.looks.end();
        if (group && after != group->looks.end() && !std::isfinite(half)) {
            look.next_look = *after;
            std::snprintf(buf, sizeof buf, "the next look (block %zu) must find an interval that leaves 0 or fits inside +-%.3g%%",
                          *after, 100 * o.threshold);
        } else {
            std::snprintf(buf, sizeof buf, "the interval [%s, %s] must leave 0 or fit inside +-%.3g%%",
                          percent(look.lower).c_str(), percent(look.upper).c_str(), 100 * o.threshold);
        }
        look.needs = buf;
        // The first n at which this estimate and spread would settle it.
        // The half-width T_m s / sqrt(m) never grows with m once it is
        // finite (T_m grows like sqrt(log m)), and both conditions only
        // get easier as it shrinks, so "settled at m" is monotone in m: a
        // doubling search and a bisection find the first such m in
        // O(log m) radii (a scan up to 10^6 blocks took tens of ms a look,
        // which simulations of the stop rule could not afford). A group
        // design: its planned looks after n, one by one; past the last,
        // as if a look at m were planned at the same nominal level (from a
        // look only).
        if (n >= 2 && s > 0 && std::isfinite(s)) {
            const size_t limit = n + 1000000;
            const auto settles_with = [&](size_t m, double t) {
                if (!std::isfinite(t)) return false;
                const double h = t * s / std::sqrt(static_cast<double>(m));
                return inside_band(r.mean - h, r.mean + h) || excludes_zero(r.mean - h, r.mean + h);
            };
            const auto settles = [&](size_t m) {
                if (!group) return settles_with(m, sequential_radius(m, o));
                return group->nominal > 0 &&
                       settles_with(m, t_quantile(1 - group->nominal / 2, static_cast<double>(m) - 1));
            };
            size_t lo_m = n, hi_m = n + 1;  // settles(lo_m) is false (or lo_m = n), settles(hi_m) is tested
            if (group) {
                for (auto it = after; it != group->looks.end() && !look.blocks_to_settle; ++it)
                    if (settles_with(*it, group_radius(*group, *it))) look.blocks_to_settle = *it - n;
                lo_m = std::max(n, group->looks.back());
                hi_m = lo_m + 1;
                // Between looks the planned ones are what counts; past the
                // last (t quantiles, costly in simulations of the rule) only
                // at a look.
                if (look.next_look) hi_m = limit + 1;
            }
            size_t step = 1;
            while (!look.blocks_to_settle && hi_m < limit && !settles(hi_m)) {
                lo_m = hi_m;
                step *= 2;
                hi_m = std::min(limit, hi_m + step);
            }
            if (!look.blocks_to_settle && hi_m <= limit && settles(hi_m)) {
                while (hi_m - lo_m > 1) {
                    const size_t mid = lo_m + (hi_m - lo_m) / 2;
                    if (settles(mid)) hi_m = mid;
                    else lo_m = mid;
                }
                look.blocks_to_settle = hi_m - n;
            }
        }
    } else {
        look.needs = look.call == SequentialCall::changed ? "settled: the interval excludes 0"
                                                          : "settled: the interval fits inside the threshold";
    }
    return look;
}

std::optional<size_t> blocks_to_settle_in_all(std::span<const double> baseline, std::span<const double> candidate,
                                              const SequentialOptions& o) {
    const SequentialLook look = sequential_look(baseline, candidate, o);
    if (look.call != SequentialCall::go_on) return look.blocks;
    if (!look.blocks_to_settle) return std::nullopt;
    return look.blocks + *look.blocks_to_settle;
}

std::optional<SettlingAdvice> settling_advice(std::span<const double> baseline, std::span<const double> candidate,
                                              const SequentialOptions& o, size_t max_blocks) {
    const SequentialLook look = sequential_look(baseline, candidate, o);
    const bool bounded = std::isfinite(look.change_lower) && std::isfinite(look.change_upper);
    if (look.call != SequentialCall::go_on || !bounded || !look.blocks_to_settle) return std::nullopt;
    SettlingAdvice a;
    a.max_blocks = max_blocks;
    a.threshold = o.threshold;
    // More than a million more: no prediction, and far beyond any budget.
    const size_t needed = look.blocks + *look.blocks_to_settle;
    if (needed <= max_blocks) return std::nullopt;
    a.blocks_needed = needed;
    SequentialOptions at = o;
    const auto predicted = [&](double threshold) {
        at.threshold = threshold;
        return blocks_to_settle_in_all(baseline, candidate, at);
    };
    const auto within = [&](double threshold) {
        const auto m = predicted(threshold);
        return m && *m <= max_blocks;
    };
    constexpr double kLargest = 1;  // 100%
    if (!within(kLargest)) return a;
    // within(hi) holds, within(lo) does not; in log space, to 1e-4
    // relative (the figure is rounded to 2 digits after).
    double lo = std::max(o.threshold, 1e-9), hi = kLargest;
    while (hi / lo > 1 + 1e-4) {
        const double mid = std::sqrt(lo * hi);
        if (within(mid)) hi = mid;
        else lo = mid;
    }
    // Up to 2 significant digits of the percentage; the rounded figure is
    // at least hi, so it settles within the budget too (checked, in case
    // the division rounded it below).
    const double pct = 100 * hi;
    const double step = std::pow(10.0, std::floor(std::log10(pct)) - 1);
    double rounded = std::ceil(pct / step) * step;
    while (!within(rounded / 100)) rounded += step;
    a.settling_threshold = rounded / 100;
    a.settling_blocks = *predicted(rounded / 100);
    return a;
}

}  // namespace gfxstat::analysis
