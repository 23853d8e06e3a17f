// SPDX-License-Identifier: MIT
#include "analysis/stored_boots.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <vector>

namespace gfxstat::analysis {

namespace {

struct Boot {
    long double sum = 0;
    size_t n = 0;
    std::vector<double> values;
};

// The boots holding values, in index order.
std::vector<Boot> boots_of(std::span<const double> v, std::span<const uint32_t> boot) {
    if (v.size() != boot.size()) throw std::invalid_argument("stored boots: one boot per value");
    std::map<uint32_t, Boot> by;
    for (size_t i = 0; i < v.size(); ++i) {
        if (!std::isfinite(v[i])) throw std::invalid_argument("stored boots: a value is not finite");
        Boot& b = by[boot[i]];
        b.sum += v[i];
        ++b.n;
        b.values.push_back(v[i]);
    }
    std::vector<Boot> out;
    for (auto& [id, b] : by) out.push_back(std::move(b));
    return out;
}

double mean_of(const Boot& b) { return static_cast<double>(b.sum / static_cast<long double>(b.n)); }

// P(T > x) for Student's t with df degrees of freedom.
double upper_tail(double x, double df) {
    if (std::isnan(x)) return 1;
    if (std::isinf(x)) return x > 0 ? 0 : 1;
    const boost::math::students_t dist(df);
    return boost::math::cdf(boost::math::complement(dist, x));
}

}  // namespace

StoredBoots stored_boots_test(std::span<const double> baseline, std::span<const uint32_t> baseline_boot,
                              std::span<const double> candidate, std::span<const uint32_t> candidate_boot,
                              double confidence, double threshold) {
    if (!(confidence > 0.5 && confidence < 1)) throw std::invalid_argument("confidence must lie in (0.5, 1)");
    if (!(threshold >= 0)) throw std::invalid_argument("threshold must be >= 0");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<Boot> a = boots_of(baseline, baseline_boot), b = boots_of(candidate, candidate_boot);
    StoredBoots r;
    r.baseline_boots = a.size();
    r.candidate_boots = b.size();
    r.baseline_runs = baseline.size();
    r.candidate_runs = candidate.size();
    r.t = nan;
    r.ci = r.relative_ci = {nan, nan};
    r.s_boot_means = r.s_between = r.s_within = nan;
    r.df = a.empty() ? 0 : static_cast<double>(a.size() - 1);
    long double sa = 0, sb = 0;
    for (const Boot& x : a) sa += mean_of(x);
    for (const Boot& x : b) sb += mean_of(x);
    r.baseline_mean = a.empty() ? nan : static_cast<double>(sa / static_cast<long double>(a.size()));
    r.candidate_mean = b.empty() ? nan : static_cast<double>(sb / static_cast<long double>(b.size()));
    r.difference = r.candidate_mean - r.baseline_mean;
    r.relative_difference = r.baseline_mean != 0 ? r.difference / std::fabs(r.baseline_mean) : nan;
    if (a.size() < 2 || b.empty()) return r;

    // s2: the baseline boot means' sample variance; sw2: within boots, pooled.
    long double ss_means = 0, ss_within = 0, h = 0, hc = 0;
    size_t df_within = 0;
    for (const Boot& x : a) {
        const long double m = mean_of(x);
        ss_means += (m - r.baseline_mean) * (m - r.baseline_mean);
        for (double v : x.values) ss_within += (v - m) * (v - m);
        df_within += x.n - 1;
        h += 1.0L / static_cast<long double>(x.n);
    }
    for (const Boot& x : b) hc += 1.0L / static_cast<long double>(x.n);
    const long double B = static_cast<long double>(a.size()), k = static_cast<long double>(b.size());
    h /= B;
    hc /= k;
    const long double s2 = ss_means / (B - 1);
    r.s_boot_means = static_cast<double>(std::sqrt(s2));
    long double var_a = s2 / B, var_b = s2 / k;
    if (df_within > 0) {
        const long double sw2 = ss_within / static_cast<long double>(df_within);
        const long double sb2 = std::max(0.0L, s2 - sw2 * h);
        r.s_within = static_cast<double>(std::sqrt(sw2));
        r.s_between = static_cast<double>(std::sqrt(sb2));
        var_b = (sb2 + sw2 * hc) / k;
    }
    r.var_baseline_mean = static_cast<double>(var_a);
    r.var_candidate_mean = static_cast<double>(var_b);
    const long double var = var_a + var_b;
    if (!(var > 0)) return r;
    r.defined = true;
    r.stderr_ = static_cast<double>(std::sqrt(var));
    r.t = r.difference / r.stderr_;
    r.p = std::min(1.0, 2 * upper_tail(std::fabs(r.t), r.df));
    const boost::math::students_t dist(r.df);
    const double q = boost::math::quantile(dist, 1 - (1 - confidence) / 2);
    r.ci = {r.difference - q * r.stderr_, r.difference + q * r.stderr_};
    if (r.baseline_mean != 0)
        r.relative_ci = {r.ci[0] / std::fabs(r.baseline_mean), r.ci[1] / std::fabs(r.baseline_mean)};
    // TOST: both one-sided tests at alpha against the margins.
    const double margin = threshold * std::fabs(r.baseline_mean);
    const double p_low = upper_tail((r.difference + margin) / r.stderr_, r.df);
    const double p_high = upper_tail((margin - r.difference) / r.stderr_, r.df);
    r.equivalence_p = std::max(p_low, p_high);
    r.equivalent = r.equivalence_p < 1 - confidence;
    return r;
}

}  // namespace gfxstat::analysis
