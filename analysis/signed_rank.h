// SPDX-License-Identifier: MIT
// One-sample rank procedures on paired differences: the Wilcoxon
// signed-rank test and the Hodges-Lehmann pseudomedian with its confidence
// interval. Matches R's wilcox.test(d, exact = NULL, correct = TRUE,
// conf.int = TRUE) as R 4.5 and earlier compute it (R 4.6 added an exact
// conditional distribution for ties and zeros; gfxstat keeps the older,
// documented rules): zeros are dropped before anything else, and the exact
// null distribution is used only with fewer than 50 nonzero differences,
// no ties and no zeros.
//
// Both functions need finite values (R drops non-finite ones; here they are
// an error: std::invalid_argument) and at most 2^26 of them
// (std::length_error: the n(n+1)/2 Walsh averages must stay countable
// exactly in a double). Cost: O(n log n) for the test; the Hodges-Lehmann
// procedure sorts once and then selects each of its few order statistics
// among the n(n+1)/2 Walsh averages without forming them, O(n) per step of
// a 64-step bisection: a million differences take well under a second,
// memory O(n).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>

namespace gfxstat::analysis {

struct SignedRank {
    size_t n = 0;       // nonzero differences used
    size_t zeros = 0;   // differences exactly 0, dropped (R's default)
    // Sum of the midranks of |d| over the positive d (R's V).
    double v = 0;
    // Two-sided. Exact: 2 min(P(V <= v), P(V >= v)), capped at 1. Normal:
    // tie-corrected variance, continuity correction 0.5 sign(v - n(n+1)/4),
    // computed as 2 Phi(-|z|) (R's 1 - Phi(z) loses digits below ~1e-10).
    double p = 1;
    bool exact = false;  // exact null distribution (n < 50, no ties, no zeros)
    bool ties = false;   // two nonzero |d| equal (also d and -d)
    std::string method;  // "exact" or "normal approximation, tie and continuity corrected"
    // false when every difference is 0 (n == 0): nothing to rank, p = 1
    // (R gives NaN).
    bool defined = true;
};
SignedRank wilcoxon_signed_rank(std::span<const double> differences);

struct OneSampleHodgesLehmann {
    size_t n = 0;  // nonzero differences used (zeros are dropped, as in R)
    // Median of the Walsh averages (d_i + d_j) / 2, i <= j, of the nonzero
    // differences (each average computed in double, as R does; the mean of
    // the middle two for an even count). In the normal-approximation case R
    // reports a root-finding estimate instead; gfxstat always reports this
    // median. 0 when every difference is 0.
    double estimate = 0;
    std::array<double, 2> ci{};  // at achieved_confidence; always two Walsh averages (see below)
    // Exact case: 1 - 2 P(V <= qu - 1), what the order statistics give
    // (below `confidence` for n < 6 at 95%: R warns there).
    // Normal case: `confidence`, or R's widened level 1 - alpha 2^k when
    // the statistic cannot reach the requested quantile within the data
    // (small samples with ties or zeros); 0 in the degenerate cases.
    double achieved_confidence = 0;
    bool exact = false;  // the interval from the exact distribution
};
// With n < 50, no ties and no zeros, the interval is R's exact one (order
// statistics of the Walsh averages at qsignrank(alpha / 2, n), the lowest
// one when that is 0). Otherwise it is where the tie- and continuity-
// corrected normal statistic of (d - mu) crosses its quantile: R finds that
// point with uniroot (tolerance 1e-4, absolute); gfxstat finds the exact
// Walsh average at which the step happens (within R's tolerance of R's
// answer). As in R, when the statistic at the smallest or largest
// difference does not reach the quantile, alpha is doubled until it does
// and achieved_confidence says so; past alpha >= 1 both bounds are the
// median of the differences (R: conf.level 0). Degenerate cases, where R
// gives NaN: every difference 0 (estimate 0, interval [0, 0]) or every
// nonzero difference equal (interval [estimate, estimate]); both with
// achieved_confidence 0.
// confidence in (0, 1), else std::invalid_argument.
OneSampleHodgesLehmann hodges_lehmann_one_sample(std::span<const double> differences, double confidence);

}  // namespace gfxstat::analysis
