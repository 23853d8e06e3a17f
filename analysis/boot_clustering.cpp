// SPDX-License-Identifier: MIT
#include "analysis/boot_clustering.h"

#include <algorithm>
#include <boost/math/distributions/fisher_f.hpp>
#include <cmath>
#include <stdexcept>

namespace gfxstat::analysis {

namespace {

struct BootSums {
    std::vector<size_t> count;
    std::vector<long double> sum;  // of values centred on `centre`
    long double centre = 0;
};

// Per-boot counts and sums, centred on the first value so that values near
// 1e9 with small noise keep their digits in the squares below.
BootSums sums_by_boot(std::span<const double> values, std::span<const uint32_t> boot) {
    if (values.size() != boot.size())
        throw std::invalid_argument("boot_variance: one boot index per value is needed");
    BootSums s;
    if (values.empty()) return s;
    s.centre = values[0];
    const uint32_t top = *std::max_element(boot.begin(), boot.end());
    s.count.assign(static_cast<size_t>(top) + 1, 0);
    s.sum.assign(static_cast<size_t>(top) + 1, 0);
    for (size_t i = 0; i < values.size(); ++i) {
        ++s.count[boot[i]];
        s.sum[boot[i]] += values[i] - s.centre;
    }
    return s;
}

}  // namespace

BootVariance boot_variance(std::span<const double> values, std::span<const uint32_t> boot_of_value) {
    const BootSums s = sums_by_boot(values, boot_of_value);
    BootVariance r;
    r.n = values.size();
    for (size_t c : s.count) r.boots += c > 0;
    // At least two within-boot degrees of freedom: with one, a single pair
    // of equal runs would make the within-boot variance 0 and "prove" that
    // everything lies between boots.
    if (r.boots < 2 || r.n < r.boots + 2) return r;
    for (double v : values)
        if (!std::isfinite(v)) return r;

    // Sums of squares around the boot means and the grand mean.
    std::vector<long double> mean(s.count.size(), 0);
    long double total = 0;
    for (size_t b = 0; b < s.count.size(); ++b) {
        if (s.count[b] > 0) mean[b] = s.sum[b] / static_cast<long double>(s.count[b]);
        total += s.sum[b];
    }
    const long double n = static_cast<long double>(r.n), g = static_cast<long double>(r.boots);
    const long double grand = total / n;
    long double ssw = 0, ssb = 0, sum_n2 = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        const long double d = (values[i] - s.centre) - mean[boot_of_value[i]];
        ssw += d * d;
    }
    for (size_t b = 0; b < s.count.size(); ++b) {
        if (s.count[b] == 0) continue;
        const long double nb = static_cast<long double>(s.count[b]);
        const long double d = mean[b] - grand;
        ssb += nb * d * d;
        sum_n2 += nb * nb;
    }
    const long double msb = ssb / (g - 1), msw = ssw / (n - g);
    const long double k0 = (n - sum_n2 / n) / (g - 1);
    r.defined = true;
    r.msb = static_cast<double>(msb);
    r.msw = static_cast<double>(msw);
    r.k0 = static_cast<double>(k0);
    r.sigma2_within = r.msw;
    // Ratios in long double: values near 1e308 square beyond the double
    // range, but their variance components' ratios are fine.
    const long double between = std::max(0.0L, (msb - msw) / k0);
    r.sigma2_between = static_cast<double>(between);
    const long double denom_raw = msb + (k0 - 1) * msw;
    r.icc_raw = denom_raw > 0 ? static_cast<double>((msb - msw) / denom_raw) : 0;
    const long double total_var = between + msw;
    const long double icc = total_var > 0 ? between / total_var : 0;
    r.icc = static_cast<double>(icc);
    r.mean_boot_size = static_cast<double>(n / g);
    r.design_effect = static_cast<double>(1 + (n / g - 1) * icc);
    r.effective_n = static_cast<double>(n) / r.design_effect;
    if (msw > 0) {
        r.f = static_cast<double>(msb / msw);
        const boost::math::fisher_f dist(static_cast<double>(g - 1), static_cast<double>(n - g));
        r.f_p = boost::math::cdf(boost::math::complement(dist, r.f));
    } else {
        r.f = msb > 0 ? INFINITY : NAN;
        r.f_p = msb > 0 ? 0 : 1;
    }
    return r;
}

std::vector<double> boot_means(std::span<const double> values, std::span<const uint32_t> boot_of_value) {
    const BootSums s = sums_by_boot(values, boot_of_value);
    std::vector<double> out;
    for (size_t b = 0; b < s.count.size(); ++b)
        if (s.count[b] > 0)
            out.push_back(static_cast<double>(s.centre + s.sum[b] / static_cast<long double>(s.count[b])));
    return out;
}

}  // namespace gfxstat::analysis
