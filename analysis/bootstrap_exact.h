// SPDX-License-Identifier: MIT
// The exact bootstrap distribution of a sample's median: every value a
// resample's median can take, with its probability under resampling with
// replacement (the multinomial weights of the distinct resamples, summed
// over those with the same median). A random bootstrap of B resamples
// estimates this distribution; where it has fewer points than B, computing
// it costs less than drawing and is free of Monte Carlo error
// (bootstrap_medians, analysis/bootstrap.h).
//
// With x sorted and n values, let k be the rank of the lower middle value
// (k = (n + 1) / 2 for odd n, n / 2 for even n) and K(i) the number of the
// n draws whose index is at most i, K(i) ~ Binomial(n, (i + 1) / n).
// Odd n: the median is x[i] with P(K(i) >= k) - P(K(i - 1) >= k).
// Even n: the median is the midpoint of x[i] and x[j], i <= j. For i < j
// exactly s < k draws fall below i, k - s on i, none strictly between i and
// j, and the other k at or above j, at least one on j:
//   P(i, j) = A(i) B(j),  A(i) = sum_s n! / (s! (k - s)! k!) (i/n)^s (1/n)^(k - s),
//                         B(j) = ((n - j) / n)^k - ((n - j - 1) / n)^k,
// and P(i, i) = P(rank k on i) - A(i) sum_{j > i} B(j), where the sum is
// ((n - i - 1) / n)^k. O(n) points for odd n, O(n^2) for even n.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace gfxstat::analysis {

struct WeightedValue {
    double value = 0;
    double weight = 0;  // a probability; the weights of a distribution sum to 1
};

// How many points exact_resampled_medians computes for n values before
// equal medians are merged: 1 for n = 1, n for odd n, n (n + 1) / 2 for even n.
std::size_t exact_median_points(std::size_t n);

// R's mean(c(lo, hi)), the median of an even number of values from its two
// middle ones: the sum in long double (exact for close magnitudes on
// x86-64), halved, rounded once; lo == hi returns it unchanged. Shared by
// the random and the exact bootstrap, so that both give the same medians.
inline double median_midpoint(double lo, double hi) {
    if (lo == hi) return lo;
    return static_cast<double>((static_cast<long double>(lo) + hi) / 2);
}

// The distribution of the median of a resample of `sorted` (ascending, not
// empty, no NaN), ordered by value, equal values merged, points of weight
// 0 left out. The medians are computed as the random bootstrap computes
// them (even n: the midpoint of the two middle values, in long double).
std::vector<WeightedValue> exact_resampled_medians(std::span<const double> sorted);

}  // namespace gfxstat::analysis
