// SPDX-License-Identifier: MIT
// A sample held the way gfxstat reads it: exact decimal significands sharing
// one power of ten, or plain doubles where the input did not fit.
//
// Keeping decimals exact is what lets gfxstat centre data before any rounding
// (NIST NumAcc4: 10000000.2 is not a double, but 100000002 x 10^-1 is exact),
// and it halves the memory of typical benchmark data (int32 significands).
#pragma once

#include <cstdint>
#include <span>
#include <variant>

namespace gfxstat::analysis {

struct ScaledValues {
    // value_i = significand_i x 10^exponent (integers), or value_i (doubles).
    std::variant<std::span<const int32_t>, std::span<const int64_t>,
                 std::span<const double>>
        values;
    int exponent = 0;  // ignored for doubles

    size_t size() const;
    // The double nearest to value i (correctly rounded, as strtod would give).
    double at(size_t i) const;
};

// The double nearest to significand x 10^exponent (correctly rounded).
double decimal_to_double(int64_t significand, int exponent);

// Exact powers of ten as long double where possible (|e| <= 27), otherwise
// powl; used to bring exact integer results back to the value scale.
long double pow10l(int exponent);

}  // namespace gfxstat::analysis
