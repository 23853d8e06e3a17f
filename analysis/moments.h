// Mean and variance that do not lose digits to cancellation.
//
// Integer significands are summed exactly (128-bit) and centred on the
// integer nearest their mean before squaring, so the variance numerator
// n*sum(d^2) - (sum d)^2 is exact; only the final division rounds. Doubles
// use a long-double two-pass with the residual-sum correction.
#pragma once

#include <cstddef>

#include "analysis/scaled_values.h"

namespace gfxstat::analysis {

struct Moments {
    size_t n = 0;
    double mean = 0;
    // Sample variance (n - 1 denominator). Can be +inf for values near the
    // double range even when the standard deviation is finite.
    double variance = 0;
    double stddev = 0;
};

// n >= 1; with n == 1 variance and stddev are NaN.
Moments moments(const ScaledValues& values);

}  // namespace gfxstat::analysis
