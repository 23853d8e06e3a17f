// SPDX-License-Identifier: MIT
// Two-sample t procedures for the difference of means (candidate - baseline):
// Student's pooled t, Welch's t, Cohen's d / Hedges' g, the TOST equivalence
// test, and how many runs a t test needs to resolve a given change. Matches
// R's t.test(b, a, var.equal = TRUE / FALSE) and power.t.test.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "analysis/moments.h"
#include "analysis/scaled_values.h"

namespace gfxstat::analysis {

struct TwoSampleMoments {
    Moments baseline, candidate;
    // mean(candidate) - mean(baseline), computed exactly from the exact
    // sums where the samples are exact decimals (values near 1e9 with noise
    // of 1e-3 lose no digits): one rounding of the exact rational. Otherwise
    // (doubles, or 128-bit overflow) both samples are centred on one common
    // value in long double before summing. NaN when a sample is empty.
    double difference = 0;
};
TwoSampleMoments two_sample_moments(const ScaledValues& baseline, const ScaledValues& candidate);

struct TTest {
    double t = 0;          // NaN when the standard error is 0
    double df = 0;
    double p = 1;          // two-sided; never NaN
    double stderr_ = 0;    // standard error of the difference
    double difference = 0;
    std::array<double, 2> ci{};  // at `confidence`; never NaN
    bool defined = true;   // false: both samples constant (se = 0) or too few values
};

// confidence in (0, 1), else std::invalid_argument. Needs n >= 2 in each
// sample (pooled: n1 + n2 >= 3 and neither empty).
//
// Both samples constant (se == 0, where R stops with "data are essentially
// constant"): defined = false, t = NaN, and the result is a plain statement
// about the exactly known difference: p = 1 when it is 0, else p = 0, and
// ci = [difference, difference]. df is n1 + n2 - 2 (Welch's df is 0/0 then).
// Too few values: defined = false, t and stderr_ NaN, df 0, p = 1,
// ci = (-inf, +inf).
TTest student_t_test(const TwoSampleMoments& m, double confidence);
TTest welch_t_test(const TwoSampleMoments& m, double confidence);

struct EffectSize {
    double cohens_d = 0;   // difference / pooled sd
    double hedges_g = 0;   // d * (1 - 3 / (4 (n1 + n2) - 9))
    // g +- z * sqrt((n1 + n2) / (n1 n2) + g^2 / (2 (n1 + n2))): normal
    // approximation (Hedges & Olkin), z the two-sided normal quantile.
    std::array<double, 2> g_ci{};
    // false when the pooled sd is 0 (or n1 + n2 < 3): d, g and g_ci are NaN.
    bool defined = true;
};
EffectSize effect_size(const TwoSampleMoments& m, double confidence);

// Two one-sided Welch tests that the difference lies within
// +-threshold_relative * |mean(baseline)|. p is the larger one-sided p:
// equivalence is shown at level alpha when p < alpha. The CI is the
// (1 - 2 alpha) Welch interval, the usual companion of TOST.
// alpha in (0, 0.5), threshold_relative >= 0, else std::invalid_argument.
// Both samples constant: decided exactly, equivalent (p = 0) iff
// -margin < difference < margin, else p = 1; ci = [difference, difference].
// Fewer than 2 values in a sample: p = 1, ci = (-inf, +inf), not equivalent.
struct Equivalence {
    double margin = 0;  // absolute
    double p = 1;
    std::array<double, 2> ci{};
    bool equivalent = false;  // p < alpha
};
Equivalence tost(const TwoSampleMoments& m, double threshold_relative, double alpha);

// One-sample t test that the mean of `differences` is 0: the paired t
// test on per-boot differences (R: t.test(d)). `difference` is mean(d),
// df = n - 1. Fewer than 2 values: undefined as in welch_t_test; all equal:
// undefined with p 1 (mean 0) or 0 (otherwise).
TTest one_sample_t_test(std::span<const double> differences, double confidence);
// TOST of the same mean within +-margin (absolute), as tost().
Equivalence one_sample_tost(std::span<const double> differences, double margin, double alpha);

// Runs per group for a two-sided two-sample t test at level alpha to detect
// a relative change `rel_change` with power `power`, when the coefficient of
// variation is `cv` (R: power.t.test(delta = rel_change, sd = cv, ...)),
// solving the noncentral t power equation for a fractional n >= 2.
// Returns 2 where n = 2 already has the power (R reports a root below 2
// then: see power_t_test_n), +inf for rel_change == 0 or beyond 1e9 runs.
// cv >= 0, alpha and power in (0, 1), else std::invalid_argument.
double runs_per_group(double cv, double rel_change, double alpha, double power);

// ceil(runs_per_group(...)), what compare reports (runs needed, rounded
// up), without solving for the fractional root: the power grows with n,
// so this is the least whole n >= 2 whose power reaches `power`, found by
// testing whole numbers near a normal approximation (2 or 3 noncentral t
// evaluations instead of some 15). +inf for rel_change == 0.
double whole_runs_per_group(double cv, double rel_change, double alpha, double power);

// R's power.t.test n itself: the same root, except that where n = 2 is
// already enough R extends its search below 2 (uniroot extendInt = "upX")
// and returns the root in (1, 2). runs_per_group is max(2, this). With
// cv == 0 this is 1 (no noise: any n detects the change).
double power_t_test_n(double cv, double rel_change, double alpha, double power);

// The inverse: the smallest relative change that the same test detects with
// power `power` at n runs per group (R: power.t.test(n = n, sd = cv,
// power = power)$delta). 0 when cv == 0. n >= 2, else std::invalid_argument.
double detectable_relative_change(double cv, double n, double alpha, double power);

// Adjusted p-values, in the order given, as R's p.adjust(p, "holm") and
// p.adjust(p, "BH"): capped at 1, monotone in p. NaN entries stay NaN and
// are not counted in the number of tests (R's default for NA).
std::vector<double> holm_adjust(const std::vector<double>& p);
std::vector<double> benjamini_hochberg_adjust(const std::vector<double>& p);

}  // namespace gfxstat::analysis
