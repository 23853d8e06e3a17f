// SPDX-License-Identifier: MIT
// Does a series of runs drift? The metric against its run order: a least-
// squares slope with its confidence interval, Spearman's and Kendall's rank
// correlations, a single change point (Pettitt's test), and the effect of
// the first run after each boot (warm-up). Each comes with the size of the
// effect, not only a p-value.
//
// All functions: O(n log n); values must be finite, else
// std::invalid_argument. Checked against tests/data/drift_reference.json
// (tests/data/make_drift_reference.py: exact rationals and textbook loops).
#pragma once

#include <cstddef>
#include <span>

namespace gfxstat::analysis {

// As R's lm(values ~ x) / confint, and cor.test(x, values, method =
// "spearman", exact = FALSE) and cor.test(x, values, method = "kendall",
// exact = FALSE, continuity = FALSE), x = 0:(n-1). Undefined: all fields
// keep the defaults below.
struct Trend {
    bool defined = false;  // n >= 3 and the values are not all equal
    double slope = 0;      // per run (value units), least squares on 0..n-1
    // slope -+ t_{(1+confidence)/2, n-2} se. Points exactly on a line
    // (residuals 0): [slope, slope] and slope_p = 0.
    double slope_ci_low = 0, slope_ci_high = 0;
    double slope_p = 1;    // two-sided t test of slope == 0, df = n - 2
    // slope * (n - 1) / |mean|: the drift over the whole series relative to
    // the mean; NaN when the mean is 0.
    double relative_drift = 0;
    // Ties: average ranks. p, two-sided: for n <= 9 exact, the share of
    // all orderings of the ranks at least as correlated (R's exact test;
    // with ties a permutation test); above, t = rho sqrt((n-2)/(1-rho^2)),
    // df n - 2, and 0 when |rho| = 1.
    double spearman_rho = 0, spearman_p = 1;
    // tau-b = S / sqrt((T0 - T1) T0), S = concordant - discordant pairs,
    // T0 = n(n-1)/2, T1 = tied pairs of values. p = 2 Phi(-|S| / sd(S)),
    // var(S) = (n(n-1)(2n+5) - sum t(t-1)(2t+5)) / 18 over groups of t tied
    // values; no continuity correction.
    double kendall_tau = 0, kendall_p = 1;
};

// Pettitt's test. U_t = sum_{i<t} sum_{j>=t} sign(x_i - x_j) for t =
// 1..n-1 (0-based i, j: the first t values against the rest), computed as
// 2 (sum of the first t mid-ranks) - t (n + 1).
struct ChangePoint {
    bool defined = false;   // n >= 4 and the values are not all equal
    // 0-based index of the first value after the change: the t maximising
    // |U_t| (the smallest such t on ties), so values [0, index) are before
    // and [index, n) after; always in 1..n-1. It equals the 1-based "time K"
    // of R's trend::pettitt.test (its last value before the change).
    size_t index = 0;
    double statistic = 0;   // Pettitt's K = max |U_t| (an integer)
    double p = 1;           // min(1, 2 exp(-6 K^2 / (n^3 + n^2)))
    double mean_before = 0, mean_after = 0;
    double median_before = 0, median_after = 0;  // R type 7 (middle pair averaged)
    // (median_after - median_before) / |median_before|; NaN when that is 0.
    double relative_shift = 0;
};

// The values at the `firsts` indices against all the others.
struct FirstRunEffect {
    // false, with p = 1: no firsts; fewer than 2 others; one first and the
    // others all equal (no spread to predict with); several firsts and both
    // groups constant. The means and differences are still reported where
    // both groups are non-empty.
    bool defined = false;
    size_t firsts = 0, others = 0;  // distinct first indices; n - firsts
    double mean_firsts = 0, mean_others = 0;  // NaN for an empty group
    // mean_firsts - mean_others, from sums centred on values[0] in long
    // double (values near 1e9 keep the digits of their noise); NaN when a
    // group is empty.
    double difference = 0;
    double relative_difference = 0; // over |mean_others|; NaN when that is 0 or undefined
    // One first value: a prediction-interval t test of that value against
    // the others (t = (x - mean) / (s sqrt(1 + 1/m)), df m - 1). Several:
    // Welch's t test (Welch-Satterthwaite df; one constant group is fine).
    // Two-sided.
    double p = 1;
};

struct DriftAnalysis {
    Trend trend;
    ChangePoint change_point;
    FirstRunEffect first_run;
};

// `values` in run order. `firsts`: indices of the first value after each
// boot (or {0} for a single series), in any order; a repeated index counts
// once; an index >= values.size() throws std::invalid_argument.
// confidence in (0, 1), else std::invalid_argument (checked first, even
// when the result is undefined).
Trend trend(std::span<const double> values, double confidence);
ChangePoint change_point(std::span<const double> values);
FirstRunEffect first_run_effect(std::span<const double> values, std::span<const size_t> firsts);
DriftAnalysis analyse_drift(std::span<const double> values, std::span<const size_t> firsts,
                            double confidence);

}  // namespace gfxstat::analysis
