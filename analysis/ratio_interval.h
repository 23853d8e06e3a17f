// SPDX-License-Identifier: MIT
// Relative changes as ratios. A difference divided by the baseline is not
// an interval for a ratio: a latency that fell from 67 us to 10 us with a
// noisy baseline got "-86% [-121.7%, -66.2%]", a bound below -100% that no
// positive quantity can reach. Where the baseline's mean (or median) is
// positive, the primary test's relative change and its interval come from
// the ratio candidate / baseline instead:
//   - means (Welch's t; Welch's t on boot or machine means): Fieller's
//     interval for the ratio of means, with the test's own degrees of
//     freedom, so that it excludes 0% exactly when the test rejects;
//   - paired means (per shared boot or machine): Fieller's interval for
//     paired data (the covariance of the pairs), n - 1 degrees of freedom,
//     which excludes 0% exactly when the paired t rejects;
//   - medians (Mann-Whitney): when every value is positive, the
//     Hodges-Lehmann estimate and interval of the log ratios, back on the
//     ratio scale (the rank test itself is the same on logs).
// Where every value is positive the ratio is positive too, so a ratio
// bound below 0 is raised to 0 (-100%): the part left out holds no ratio
// the data could have, and the coverage stays.
#pragma once

#include <array>
#include <span>

#include "analysis/comparison.h"

namespace gfxstat::analysis {

// Fieller's confidence set for rho = mu_b / mu_a from the estimates a of
// mu_a and b of mu_b, their variances va and vb and covariance cov, and
// the two-sided quantile q: every rho with (b - rho a)^2 <= q^2 (vb - 2 rho
// cov + rho^2 va). Bounded (an interval) only when a is significantly away
// from 0 (a^2 > q^2 va); otherwise bounded is false and the bounds NaN.
struct RatioInterval {
    bool bounded = false;
    double low = 0, high = 0;
};
RatioInterval fieller_interval(double a, double b, double va, double vb, double cov, double q);

// The same for paired values (a[i] and b[i] measured together), at
// `confidence`, with n - 1 degrees of freedom. Needs n >= 2.
RatioInterval fieller_paired(std::span<const double> a, std::span<const double> b, double confidence);

// Fieller's interval for the ratio of two independent samples' means
// (b's over a's), each side's variance of its mean, `df` degrees of freedom
// (the Welch test's, so that it excludes 1 exactly when that test rejects).
RatioInterval fieller_of_samples(std::span<const double> a, std::span<const double> b, double df,
                                 double confidence);

// Sets c.relative_change and c.relative_change_ci of a comparison whose
// headline (set_headline in comparison.cpp) was made, as the file's
// header says; `a` and `b` are the two samples' values. Leaves exact and
// blocked comparisons (already ratios where positive) and baselines whose
// magnitude is not positive as they are.
void set_ratio_change(TwoSampleComparison& c, std::span<const double> a, std::span<const double> b,
                      double confidence);

}  // namespace gfxstat::analysis
