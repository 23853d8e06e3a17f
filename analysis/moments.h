// SPDX-License-Identifier: MIT
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

// Bias-corrected skewness G1 and excess kurtosis G2 (SAS/SPSS type 2), the
// shape the bimodality coefficient is made of. From the exact decimals as
// the variance is: integer significands centred exactly on the integer
// nearest their mean, the power sums of the deviations exact in 128 bits
// (long double past that), so that values near 1e9 with noise of 1e-3
// keep every digit of their shape. Doubles: long-double two-pass.
struct ShapeMoments {
    bool defined = false;  // n >= 4 and the values not all equal
    double g1 = 0, g2 = 0;
};
ShapeMoments shape_moments(const ScaledValues& values);

}  // namespace gfxstat::analysis
