// SPDX-License-Identifier: MIT
// How precisely a sample pins down its location, for "enough runs": the
// distribution-free confidence interval of the median (order statistics
// whose ranks come from the binomial distribution), and the t interval of
// the mean. `gfxstat run --target-ci` stops once the interval is narrow
// enough.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

namespace gfxstat::analysis {

struct LocationInterval {
    bool defined = false;    // enough values for the confidence asked
    double estimate = 0;     // the median (type 7) or the mean
    double low = 0, high = 0;
    // Median: the exact coverage of [x(l), x(n+1-l)], at least the
    // confidence asked. Mean: the confidence asked.
    double coverage = 0;
    // Half the width over |estimate|, in percent; +inf when the estimate
    // is 0 and the width is not.
    double relative_half_width_pct = 0;
};

// [x(l), x(n+1-l)] with l the largest rank such that
// P(B < l) <= (1 - confidence) / 2, B ~ Binomial(n, 1/2): the classical
// sign-test interval. Undefined when even [min, max] has less coverage
// than asked (n < 6 at 95%). `values` in any order. confidence in (0, 1),
// else std::invalid_argument.
LocationInterval median_interval(std::span<const double> values, double confidence);
// The same from the values in ascending order (sorted_ascending,
// rank_tests.h), for a caller that has sorted them already.
LocationInterval median_interval_sorted(std::span<const double> sorted, double confidence);

// median_interval in two pieces, for callers that keep their values in
// order themselves (analysis/running_location.h): the rank l of
// [x(l), x(n+1-l)] with P(B <= l - 1) (0 when l is 0), then the interval
// from the order statistics it names. `previous`, the rank for n - 1 values
// at the same confidence, lets two or three binomial cdf evaluations settle
// the rank (it grows by 0 or 1 with n) where the bisection takes log2(n);
// the rank is the same either way. n >= 1.
struct MedianRank {
    size_t l = 0;
    double cdf_below = 0;  // P(B <= l - 1)
};
MedianRank median_rank(size_t n, double confidence, std::optional<size_t> previous = std::nullopt);
// From n values' x(floor((n+1)/2)) and x(floor(n/2) + 1) (1-based: the
// same element when n is odd), x(l) and x(n+1-l) (read only when rank.l > 0).
LocationInterval median_interval_of_order(size_t n, const MedianRank& rank, double lower_middle, double upper_middle,
                                          double low, double high);

// mean -+ t_{(1+confidence)/2, n-1} s / sqrt(n); undefined for n < 2
// (with the one value as the estimate).
LocationInterval mean_interval(std::span<const double> values, double confidence);

}  // namespace gfxstat::analysis
