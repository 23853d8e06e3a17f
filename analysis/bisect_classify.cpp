// SPDX-License-Identifier: MIT
// bisect_classify.h: the references' Welch interval, boundary and safe
// bounds, and each step's sequential probability ratio test.
#include "analysis/bisect_classify.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <vector>

#include "analysis/enum_names.h"
#include "analysis/student_t.h"

namespace gfxstat::analysis {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Summary {
    size_t n = 0;
    double mean = 0, var = 0;  // sample variance (n - 1); 0 for n < 2
};

Summary summarise(std::span<const double> x) {
    Summary s;
    s.n = x.size();
    if (s.n == 0) return s;
    // Two passes: the levels are logs near each other, and the spread is
    // what matters.
    long double sum = 0;
    for (double v : x) sum += v;
    s.mean = static_cast<double>(sum / static_cast<long double>(s.n));
    if (s.n < 2) return s;
    long double ss = 0;
    for (double v : x) ss += (v - s.mean) * (v - s.mean);
    s.var = static_cast<double>(ss / static_cast<long double>(s.n - 1));
    return s;
}

std::vector<double> working(std::span<const double> x, bool log_scale) {
    std::vector<double> w(x.begin(), x.end());
    if (log_scale)
        for (double& v : w) v = std::log(v);
    return w;
}

std::string percent(double x) {
    if (!std::isfinite(x)) return x > 0 ? "+inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.3g%%", 100 * x);
    return buf;
}

// The relative change of a working-scale level against the good level.
double relative(const BisectReferences& r, double level) {
    if (r.log_scale) return std::isfinite(level) ? std::expm1(level - r.good_level) : (level > 0 ? kInf : -1);
    const double mag = std::fabs(r.good_center);
    if (!std::isfinite(level)) return level;
    return mag > 0 ? (level - r.good_level) / mag : kNaN;
}

}  // namespace

const char* bisect_call_name(BisectCall c) {
    static constexpr EnumName<BisectCall> kNames[] = {
        {BisectCall::go_on, "go on"}, {BisectCall::good, "good"}, {BisectCall::bad, "bad"}};
    return name_of(kNames, c, "go on");
}

size_t bisect_expected_steps(size_t commits) {
    size_t steps = 0;
    while ((size_t{1} << steps) < commits + 1 && steps < 63) ++steps;
    return std::max<size_t>(steps, 1);
}

BisectReferences bisect_references(std::span<const double> good, std::span<const double> bad,
                                   const BisectOptions& o) {
    if (!(o.confidence > 0 && o.confidence < 1))
        throw std::invalid_argument("bisect: confidence must be in (0, 1)");
    if (!(o.threshold >= 0) || !std::isfinite(o.threshold))
        throw std::invalid_argument("bisect: the threshold must be >= 0");
    if (o.expected_steps < 1) throw std::invalid_argument("bisect: expected steps must be at least 1");
    if (o.max_runs < 2) throw std::invalid_argument("bisect: max runs must be at least 2");
    bool positive = !good.empty() && !bad.empty();
    for (auto span : {good, bad})
        for (double v : span) {
            if (!std::isfinite(v)) throw std::invalid_argument("bisect: values must be finite");
            positive = positive && v > 0;
        }
    BisectReferences r;
    r.log_scale = positive;
    r.exact = o.exact;
    const double alpha = 1 - o.confidence;
    const double share = alpha / static_cast<double>(o.expected_steps + 1);
    r.step_alpha = share;
    r.reference_alpha = share;
    r.evidence_needed = -std::log(share);
    r.good_runs = good.size();
    r.bad_runs = bad.size();
    const std::vector<double> g = working(good, r.log_scale), b = working(bad, r.log_scale);
    const Summary sg = summarise(g), sb = summarise(b);
    r.good_level = sg.mean;
    r.bad_level = sb.mean;
    r.good_sd = std::sqrt(sg.var);
    r.bad_sd = std::sqrt(sb.var);
    r.good_center = r.log_scale ? std::exp(sg.mean) : sg.mean;
    r.bad_center = r.log_scale ? std::exp(sb.mean) : sb.mean;
    r.boundary = (sg.mean + sb.mean) / 2;
    if (sg.n < 2 || sb.n < 2) {
        r.change = relative(r, sb.mean);
        r.change_lower = -kInf;
        r.change_upper = kInf;
        r.boundary_half_width = kInf;
        r.why = "the " + std::string(sg.n < 2 ? "good" : "bad") +
                " reference has fewer than 2 runs: its spread is unknown, so no step could be classified "
                "with a controlled error; record more runs of it";
        return r;
    }
    const double nd_g = static_cast<double>(sg.n), nd_b = static_cast<double>(sb.n);
    r.pooled_sd = std::sqrt(((nd_g - 1) * sg.var + (nd_b - 1) * sb.var) / (nd_g + nd_b - 2));

    // Welch's interval for bad - good at the references' share.
    const double d = sb.mean - sg.mean;
    const double vg = sg.var / nd_g, vb = sb.var / nd_b, se = std::sqrt(vg + vb);
    double lo = d, hi = d;
    if (se > 0) {
        const double df = (vg + vb) * (vg + vb) / (vg * vg / (nd_g - 1) + vb * vb / (nd_b - 1));
        const double q = t_quantile(1 - share / 2, df);
        lo = d - q * se;
        hi = d + q * se;
        // The midpoint's interval at half the references' share (the
        // spread's bound takes the other half).
        r.boundary_half_width = t_quantile(1 - share / 4, df) * se / 2;
        boost::math::students_t dist(df);
        r.p = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(d) / se)));
    } else {
        r.boundary_half_width = 0;
        r.p = d == 0 ? 1 : 0;
    }
    r.change = relative(r, sb.mean);
    r.change_lower = relative(r, sg.mean + lo);
    r.change_upper = relative(r, sg.mean + hi);

    const double pct = 100 * o.threshold;
    char buf[512];
    const std::string interval = "[" + percent(r.change_lower) + ", " + percent(r.change_upper) + "]";
    const double conf_pct = 100 * (1 - share);
    if (r.change_lower > o.threshold || r.change_upper < -o.threshold) {
        r.differ = true;
        std::snprintf(buf, sizeof buf,
                      "bad differs from good by %s %s (%.4g%% interval): beyond the threshold of %.3g%% "
                      "beyond doubt",
                      percent(r.change).c_str(), interval.c_str(), conf_pct, pct);
    } else if (r.change_lower > 0 || r.change_upper < 0) {
        std::snprintf(buf, sizeof buf,
                      "bad differs from good by %s %s (%.4g%% interval): a real difference, but not beyond the "
                      "threshold of %.3g%% beyond doubt; nothing to bisect at this threshold (more runs of both, "
                      "or a lower --threshold)",
                      percent(r.change).c_str(), interval.c_str(), conf_pct, pct);
    } else {
        std::snprintf(buf, sizeof buf,
                      "bad and good do not differ beyond doubt: %s %s (%.4g%% interval) holds 0; nothing to "
                      "bisect (the change may be noise, or need more runs of both to show)",
                      percent(r.change).c_str(), interval.c_str(), conf_pct);
    }
    r.why = buf;

    // The safe bounds a step's test uses: the spread's upper bound (chi-square
    // on the pooled variance, one-sided at half the share) and the
    // half-gap less the midpoint's uncertainty.
    const double df_pooled = nd_g + nd_b - 2;
    if (r.pooled_sd > 0) {
        const boost::math::chi_squared chi(df_pooled);
        r.sd_upper = r.pooled_sd * std::sqrt(df_pooled / boost::math::quantile(chi, share / 2));
    }
    r.half_gap = std::max(0.0, std::fabs(d) / 2 - r.boundary_half_width);
    if (r.differ && !(r.half_gap > 0)) {
        r.differ = false;
        r.why += "; but the midpoint between them is not known well enough to tell a commit's side (more runs "
                 "of both)";
    }
    // Wald's approximation of the runs a step takes at either level: the
    // evidence needed over its drift per run, theta * (half the gap).
    if (r.half_gap > 0 && r.sd_upper > 0) {
        const double theta = 2 * r.half_gap / (r.sd_upper * r.sd_upper);
        const double runs = std::ceil(r.evidence_needed / (theta * std::fabs(d) / 2));
        if (runs <= static_cast<double>(o.max_runs)) r.expected_runs = std::max<size_t>(1, static_cast<size_t>(runs));
    } else if (r.half_gap > 0) {
        r.expected_runs = 1;  // no spread at all: one run tells
    }
    return r;
}

BisectLook bisect_look(const BisectReferences& r, std::span<const double> values) {
    for (double v : values) {
        if (!std::isfinite(v)) throw std::invalid_argument("bisect: values must be finite");
        if (r.log_scale && !(v > 0))
            throw std::invalid_argument("bisect: a value <= 0 where the references were all positive");
    }
    BisectLook look;
    look.runs = values.size();
    if (values.empty()) {
        look.estimate = look.position = kNaN;
        look.lower = r.log_scale ? -1 : -kInf;
        look.upper = kInf;
        look.needs = "no run yet";
        return look;
    }
    const std::vector<double> x = working(values, r.log_scale);
    const Summary s = summarise(x);
    const double span_levels = r.bad_level - r.good_level;
    const double sign = span_levels >= 0 ? 1 : -1;  // the bad side is positive

    // The evidence, run by run: theta_i from the references' bound and the
    // spread of the runs before run i only (Welford's running moments).
    double evidence = 0;
    size_t n_before = 0;
    double mean_before = 0, m2_before = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        double spread = r.sd_upper;
        if (n_before >= 2 && !r.exact) spread = std::max(spread, std::sqrt(m2_before / double(n_before - 1)));
        const double y = sign * (x[i] - r.boundary);
        if (spread > 0) {
            evidence += 2 * r.half_gap / (spread * spread) * y;
        } else if (r.half_gap > 0 && y != 0) {
            // No spread anywhere (an exact metric): one value tells.
            evidence = y > 0 ? kInf : -kInf;
        }
        ++n_before;
        const double dev = x[i] - mean_before;
        mean_before += dev / double(n_before);
        m2_before += dev * (x[i] - mean_before);
    }
    look.evidence = evidence;
    if (r.half_gap > 0 && std::isfinite(r.boundary_half_width)) {
        if (evidence >= r.evidence_needed) look.call = BisectCall::bad;
        else if (evidence <= -r.evidence_needed) look.call = BisectCall::good;
    }

    // For reports: the estimate and its 95% t interval.
    double half = std::numeric_limits<double>::infinity();
    if (s.n >= 2) half = t_quantile(0.975, static_cast<double>(s.n - 1)) * std::sqrt(s.var / static_cast<double>(s.n));
    const double lo = s.mean - half, hi = s.mean + half;
    look.estimate = relative(r, s.mean);
    look.lower = relative(r, lo);
    look.upper = relative(r, hi);
    look.position = span_levels != 0 ? (s.mean - r.good_level) / span_levels : kNaN;
    if (std::isfinite(half))
        look.beyond_references = sign * (lo - r.bad_level) > 0 || sign * (r.good_level - hi) > 0;
    char buf[160];
    if (look.call == BisectCall::go_on) {
        std::snprintf(buf, sizeof buf, "the evidence %+.3g must reach %+.3g (bad) or %+.3g (good)", evidence,
                      r.evidence_needed, -r.evidence_needed);
        look.needs = buf;
    } else {
        look.needs = look.call == BisectCall::bad ? "settled: like the bad build" : "settled: like the good build";
    }
    return look;
}

}  // namespace gfxstat::analysis
