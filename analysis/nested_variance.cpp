// SPDX-License-Identifier: MIT
#include "analysis/nested_variance.h"

#include <algorithm>
#include <boost/math/distributions/fisher_f.hpp>
#include <cmath>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace gfxstat::analysis {

namespace {

// p of F on (df1, df2) degrees of freedom, upper tail; the conventions of
// boot_variance when the denominator is 0.
double f_upper(long double num, long double den, double df1, double df2, double& f) {
    if (den > 0) {
        f = static_cast<double>(num / den);
        const boost::math::fisher_f dist(df1, df2);
        return boost::math::cdf(boost::math::complement(dist, f));
    }
    f = num > 0 ? INFINITY : NAN;
    return num > 0 ? 0 : 1;
}

}  // namespace

VarianceComponents balanced_components(double msm, double msb, double msw, double b, double n) {
    VarianceComponents c;
    c.within = msw;
    c.boots = (msb - msw) / n;
    c.machines = (msm - msb) / (b * n);
    return c;
}

NestedVariance nested_variance(std::span<const double> values, std::span<const uint32_t> machine_of_value,
                               std::span<const uint32_t> boot_of_value) {
    if (machine_of_value.size() != values.size())
        throw std::invalid_argument("nested_variance: one machine index per value is needed");
    if (!boot_of_value.empty() && boot_of_value.size() != values.size())
        throw std::invalid_argument("nested_variance: one boot index per value is needed");
    NestedVariance r;
    r.n = values.size();
    if (values.empty()) return r;

    // Dense machine indices, and the (machine, boot) pairs as dense groups:
    // a boot index met on two machines is two boots.
    const uint32_t top = *std::max_element(machine_of_value.begin(), machine_of_value.end());
    std::vector<int64_t> dense(static_cast<size_t>(top) + 1, -1);
    std::vector<uint32_t> machine(values.size()), group(values.size());
    std::vector<uint32_t> group_machine;
    std::unordered_map<uint64_t, uint32_t> group_of;
    for (size_t i = 0; i < values.size(); ++i) {
        int64_t& d = dense[machine_of_value[i]];
        if (d < 0) d = static_cast<int64_t>(r.machines++);
        machine[i] = static_cast<uint32_t>(d);
        const uint64_t key = (static_cast<uint64_t>(machine[i]) << 32) | (boot_of_value.empty() ? 0 : boot_of_value[i]);
        const auto [it, added] = group_of.emplace(key, static_cast<uint32_t>(group_machine.size()));
        if (added) group_machine.push_back(machine[i]);
        group[i] = it->second;
    }
    const size_t groups = group_machine.size();
    r.boots = boot_of_value.empty() ? 0 : groups;
    r.levels = !boot_of_value.empty() && groups > r.machines ? 2 : 1;
    if (r.levels == 1)
        for (size_t i = 0; i < values.size(); ++i) group[i] = machine[i];  // the machine is the lowest group
    const size_t g = r.levels == 2 ? groups : r.machines;
    if (r.machines < 2 || r.n < g + 2) return r;
    for (double v : values)
        if (!std::isfinite(v)) return r;

    // Sums centred on the first value, in long double: values near 1e9
    // with small noise keep their digits in the squares.
    const long double centre = values[0];
    std::vector<long double> gsum(g, 0), msum(r.machines, 0);
    std::vector<size_t> gcount(g, 0), mcount(r.machines, 0);
    long double total = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        const long double x = values[i] - centre;
        gsum[group[i]] += x;
        ++gcount[group[i]];
        msum[machine[i]] += x;
        ++mcount[machine[i]];
        total += x;
    }
    const long double N = static_cast<long double>(r.n);
    const long double a = static_cast<long double>(r.machines);
    const long double grand = total / N;
    std::vector<long double> gmean(g), mmean(r.machines);
    for (size_t j = 0; j < g; ++j) gmean[j] = gsum[j] / static_cast<long double>(gcount[j]);
    for (size_t i = 0; i < r.machines; ++i) mmean[i] = msum[i] / static_cast<long double>(mcount[i]);

    long double ssw = 0, ssb = 0, ssm = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        const long double d = (values[i] - centre) - gmean[group[i]];
        ssw += d * d;
    }
    for (size_t i = 0; i < r.machines; ++i) {
        const long double d = mmean[i] - grand;
        ssm += static_cast<long double>(mcount[i]) * d * d;
    }
    // sum over machines of (sum of its boots' n_ij^2) / n_i, and the sum
    // of all n_ij^2: the unbalanced coefficients' ingredients.
    long double nij2_over_ni = 0, nij2 = 0, ni2 = 0;
    for (size_t i = 0; i < r.machines; ++i) ni2 += static_cast<long double>(mcount[i]) * mcount[i];
    if (r.levels == 2)
        for (size_t j = 0; j < g; ++j) {
            const long double nj = static_cast<long double>(gcount[j]);
            const long double d = gmean[j] - mmean[group_machine[j]];
            ssb += nj * d * d;
            nij2 += nj * nj;
            nij2_over_ni += nj * nj / static_cast<long double>(mcount[group_machine[j]]);
        }

    r.defined = true;
    r.ss_machines = static_cast<double>(ssm);
    r.ss_within = static_cast<double>(ssw);
    r.df_machines = static_cast<double>(a - 1);
    r.df_within = static_cast<double>(N - static_cast<long double>(g));
    const long double msm = ssm / (a - 1), msw = ssw / (N - static_cast<long double>(g));
    r.ms_machines = static_cast<double>(msm);
    r.ms_within = static_cast<double>(msw);
    r.sigma2_within = r.ms_within;
    const long double n0m = (N - ni2 / N) / (a - 1);
    r.n0_machines = static_cast<double>(n0m);
    long double s2m = 0, s2b = 0, den = msw;
    double df2 = r.df_within;
    if (r.levels == 2) {
        const long double B = static_cast<long double>(g);
        r.ss_boots = static_cast<double>(ssb);
        r.df_boots = static_cast<double>(B - a);
        const long double msb = ssb / (B - a);
        r.ms_boots = static_cast<double>(msb);
        const long double n0b = (N - nij2_over_ni) / (B - a);
        const long double n0mb = (nij2_over_ni - nij2 / N) / (a - 1);
        r.n0_boots = static_cast<double>(n0b);
        r.n0_machines_boots = static_cast<double>(n0mb);
        s2b = (msb - msw) / n0b;
        s2m = (msm - msw - n0mb * s2b) / n0m;
        r.p_boots = f_upper(msb, msw, r.df_boots, r.df_within, r.f_boots);
        // The denominator whose expectation is E[MS_machines] without a
        // machine effect. Balanced: exactly MS_boots.
        const long double ratio = n0mb / n0b;
        den = msb;
        df2 = r.df_boots;
        if (std::fabs(ratio - 1) > 1e-12L) {
            const long double synthetic = ratio * msb + (1 - ratio) * msw;
            const long double t1 = ratio * msb, t2 = (1 - ratio) * msw;
            const long double sdf = t1 * t1 / (B - a) + t2 * t2 / (N - B);
            if (synthetic > 0 && sdf > 0) {
                den = synthetic;
                df2 = static_cast<double>(synthetic * synthetic / sdf);
            }
        }
    } else {
        s2m = (msm - msw) / n0m;
    }
    r.sigma2_machines_raw = static_cast<double>(s2m);
    r.sigma2_boots_raw = static_cast<double>(s2b);
    const long double cm = std::max(0.0L, s2m), cb = std::max(0.0L, s2b), cw = msw;
    r.sigma2_machines = static_cast<double>(cm);
    r.sigma2_boots = static_cast<double>(cb);
    const long double sum = cm + cb + cw;
    if (sum > 0) {
        r.share_machines = static_cast<double>(cm / sum);
        r.share_boots = static_cast<double>(cb / sum);
        r.share_within = static_cast<double>(cw / sum);
    }
    r.f_machines_df1 = r.df_machines;
    r.f_machines_df2 = df2;
    r.p_machines = f_upper(msm, den, r.df_machines, df2, r.f_machines);
    return r;
}

}  // namespace gfxstat::analysis
