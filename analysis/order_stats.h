// SPDX-License-Identifier: MIT
// Order statistics by selection (nth_element), never a full sort: the median
// of 10 million values costs one linear pass instead of n log n.
#pragma once

#include <cstdint>
#include <span>
#include <variant>

#include "analysis/scaled_values.h"

namespace gfxstat::analysis {

// The same sample as ScaledValues, but the functions below may reorder it.
struct MutableScaledValues {
    std::variant<std::span<int32_t>, std::span<int64_t>, std::span<double>> values;
    int exponent = 0;

    ScaledValues view() const;
};

struct Range {
    double min = 0, max = 0;
};
Range range(const ScaledValues& values);  // n >= 1

// Sample quantile of type 7 (R's default; Hyndman & Fan) at p = num/den,
// 0 <= num <= den. The interpolation is exact for integer significands,
// so the median of an even-sized set is exactly the mean of the middle two.
// Reorders the values. n >= 1.
double quantile_type7(MutableScaledValues values, int num, int den);

inline double median(MutableScaledValues values) { return quantile_type7(values, 1, 2); }

// The range and the median, the extremes found once for both (the
// median's selection buckets the values between them). Reorders the
// values. n >= 1.
struct RangeAndMedian {
    Range range;
    double median = 0;
};
RangeAndMedian range_and_median(MutableScaledValues values);

}  // namespace gfxstat::analysis
