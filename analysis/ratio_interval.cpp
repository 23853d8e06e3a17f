// SPDX-License-Identifier: MIT
#include "analysis/ratio_interval.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "analysis/student_t.h"

namespace gfxstat::analysis {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

bool all_positive(std::span<const double> v) {
    return !v.empty() && std::all_of(v.begin(), v.end(), [](double x) { return x > 0; });
}

double mean(std::span<const double> v) {
    long double s = 0;
    for (double x : v) s += x;
    return v.empty() ? kNan : static_cast<double>(s / static_cast<long double>(v.size()));
}

// Fieller for independent means: each side's variance of its mean, the
// test's degrees of freedom.
RatioInterval fieller_means(double mean_a, double sd_a, size_t n_a, double mean_b, double sd_b, size_t n_b,
                            double df, double confidence) {
    if (n_a < 2 || n_b < 2 || !(df > 0)) return {false, kNan, kNan};
    const double q = t_quantile((1 + confidence) / 2, df);
    return fieller_interval(mean_a, mean_b, sd_a * sd_a / static_cast<double>(n_a),
                            sd_b * sd_b / static_cast<double>(n_b), 0, q);
}


// The relative change and interval from a ratio and its interval; a bound
// below 0 raised to 0 where the values are all positive.
void set_from_ratio(TwoSampleComparison& c, double ratio, const RatioInterval& r, bool positive) {
    c.relative_change = ratio - 1;
    if (!c.change_ci_defined) return;  // withheld or undefined: stays so
    if (!r.bounded) {
        // The baseline's mean is not told from 0 at this level: no ratio
        // is excluded, so no relative interval is given.
        c.relative_change_ci = {kNan, kNan};
        return;
    }
    c.relative_change_ci = {(positive ? std::max(r.low, 0.0) : r.low) - 1, r.high - 1};
}

}  // namespace

RatioInterval fieller_of_samples(std::span<const double> a, std::span<const double> b, double df,
                                 double confidence) {
    const auto sd = [](std::span<const double> v, double m) {
        long double ss = 0;
        for (double x : v) ss += (x - m) * (x - m);
        return v.size() < 2 ? kNan : static_cast<double>(std::sqrt(ss / static_cast<long double>(v.size() - 1)));
    };
    const double ma = mean(a), mb = mean(b);
    return fieller_means(ma, sd(a, ma), a.size(), mb, sd(b, mb), b.size(), df, confidence);
}

RatioInterval fieller_interval(double a, double b, double va, double vb, double cov, double q) {
    if (!std::isfinite(a) || !std::isfinite(b) || a == 0 || !(q > 0)) return {false, kNan, kNan};
    // Scaled by a^2: the same ratios, without overflow for large values.
    const double s = std::fabs(a);
    const double a1 = a / s, b1 = b / s, va1 = va / s / s, vb1 = vb / s / s, cov1 = cov / s / s;
    const double q2 = q * q;
    const double A = a1 * a1 - q2 * va1;  // > 0: a is significantly away from 0
    const double B = a1 * b1 - q2 * cov1;
    const double C = b1 * b1 - q2 * vb1;
    if (!(A > 0)) return {false, kNan, kNan};
    // B^2 - AC >= 0 holds exactly (b / a is in the set); rounding aside.
    const double root = std::sqrt(std::max(0.0, B * B - A * C));
    return {true, (B - root) / A, (B + root) / A};
}

RatioInterval fieller_paired(std::span<const double> a, std::span<const double> b, double confidence) {
    const size_t n = a.size();
    if (n < 2 || b.size() != n) return {false, kNan, kNan};
    const double ma = mean(a), mb = mean(b);
    long double saa = 0, sbb = 0, sab = 0;
    for (size_t i = 0; i < n; ++i) {
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
        sab += (a[i] - ma) * (b[i] - mb);
    }
    const double nn = static_cast<double>(n), div = nn * (nn - 1);  // variances of the means
    const double q = t_quantile((1 + confidence) / 2, nn - 1);
    return fieller_interval(ma, mb, static_cast<double>(saa) / div, static_cast<double>(sbb) / div,
                            static_cast<double>(sab) / div, q);
}

void set_ratio_change(TwoSampleComparison& c, std::span<const double> a, std::span<const double> b,
                      double confidence) {
    const bool positive = all_positive(a) && all_positive(b);
    switch (c.primary.test) {
        case PrimaryTest::welch: {
            if (!(c.baseline.mean > 0) || !c.primary_defined) return;
            const RatioInterval r = fieller_means(c.baseline.mean, c.baseline.stddev, c.baseline.n, c.candidate.mean,
                                                  c.candidate.stddev, c.candidate.n, c.welch.df, confidence);
            set_from_ratio(c, c.candidate.mean / c.baseline.mean, r, positive);
            return;
        }
        case PrimaryTest::mann_whitney: {
            if (!positive || c.both_constant) return;
            // The shift of the logs: the rank test is the same on them.
            std::vector<double> la(a.size()), lb(b.size());
            std::transform(a.begin(), a.end(), la.begin(), [](double x) { return std::log(x); });
            std::transform(b.begin(), b.end(), lb.begin(), [](double x) { return std::log(x); });
            const HodgesLehmann h = hodges_lehmann(la, lb, confidence);
            c.relative_change = std::expm1(h.estimate);
            if (c.change_ci_defined && std::isfinite(h.ci[0]) && std::isfinite(h.ci[1]))
                c.relative_change_ci = {std::expm1(h.ci[0]), std::expm1(h.ci[1])};
            return;
        }
        case PrimaryTest::welch_boot_means: {
            const Clustering& k = c.clustering;
            const double base = mean(k.baseline_means);
            if (!(base > 0) || !c.primary_defined) return;
            const RatioInterval r = fieller_of_samples(k.baseline_means, k.candidate_means, k.boot_means_test.df,
                                                       confidence);
            set_from_ratio(c, mean(k.candidate_means) / base, r, positive);
            return;
        }
        case PrimaryTest::paired_boot_means: {
            const Clustering& k = c.clustering;
            if (k.paired_baseline_means.size() != k.boot_differences.size() || !c.primary_defined) return;
            std::vector<double> cand(k.boot_differences.size());
            for (size_t i = 0; i < cand.size(); ++i) cand[i] = k.paired_baseline_means[i] + k.boot_differences[i];
            const double base = mean(k.paired_baseline_means);
            if (!(base > 0)) return;
            set_from_ratio(c, mean(cand) / base, fieller_paired(k.paired_baseline_means, cand, confidence), positive);
            return;
        }
        case PrimaryTest::welch_machine_means: {
            const Fleet& f = c.fleet;
            const double base = mean(f.baseline_means);
            if (!(base > 0) || !c.primary_defined) return;
            const RatioInterval r = fieller_of_samples(f.baseline_means, f.candidate_means,
                                                       f.machine_means_test.df, confidence);
            set_from_ratio(c, mean(f.candidate_means) / base, r, positive);
            return;
        }
        case PrimaryTest::paired_machine_means: {
            const Fleet& f = c.fleet;
            std::vector<double> base_means, cand_means;
            for (const MachineChange& row : f.changes.rows) {
                base_means.push_back(row.baseline_mean);
                cand_means.push_back(row.candidate_mean);
            }
            const double base = mean(base_means);
            if (base_means.size() < 2 || !(base > 0) || !c.primary_defined) return;
            set_from_ratio(c, mean(cand_means) / base, fieller_paired(base_means, cand_means, confidence), positive);
            return;
        }
        case PrimaryTest::stored_boots: {
            // The prediction t's two parts of variance, its own quantile:
            // the interval excludes 0% exactly when the test rejects.
            const StoredBoots& t = c.stored->test;
            if (!(t.baseline_mean > 0) || !c.primary_defined) return;
            const RatioInterval r =
                fieller_interval(t.baseline_mean, t.candidate_mean, t.var_baseline_mean, t.var_candidate_mean, 0,
                                 t_quantile((1 + confidence) / 2, t.df));
            set_from_ratio(c, t.candidate_mean / t.baseline_mean, r, positive);
            return;
        }
        case PrimaryTest::exact:
        case PrimaryTest::paired_blocks:
        case PrimaryTest::sequential_blocks:
        case PrimaryTest::group_sequential_blocks:
        case PrimaryTest::paired_benchmarks:
        case PrimaryTest::signed_rank_benchmarks: return;
    }
}

}  // namespace gfxstat::analysis
