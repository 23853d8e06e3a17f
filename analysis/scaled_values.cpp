// SPDX-License-Identifier: MIT
#include "analysis/scaled_values.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gfxstat::analysis {

namespace {
// 10^0 .. 10^22 are exact doubles: with a significand below 2^53 one IEEE
// multiplication or division gives the correctly rounded result (Clinger's
// fast path), which is what strtod returns for the same decimal.
constexpr double kExactPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
}  // namespace

double decimal_to_double(int64_t significand, int exponent) {
    const uint64_t mag = significand < 0 ? 0 - static_cast<uint64_t>(significand)
                                         : static_cast<uint64_t>(significand);
    if (mag == 0) return 0.0;
    if (mag < (uint64_t{1} << 53) && exponent >= -22 && exponent <= 22) {
        double m = static_cast<double>(significand);
        return exponent >= 0 ? m * kExactPow10[exponent] : m / kExactPow10[-exponent];
    }
    // Slow path: let the correctly rounding library parser do it.
    char buf[48];
    int len = std::snprintf(buf, sizeof buf, "%llde%d",
                            static_cast<long long>(significand), exponent);
    double out = 0;
    auto res = std::from_chars(buf, buf + len, out);
    if (res.ec == std::errc::result_out_of_range) {
        // Overflow gives +-inf (callers check), underflow gives +-0.
        const double mag_out = exponent > 0 ? HUGE_VAL : 0.0;
        return significand < 0 ? -mag_out : mag_out;
    }
    return out;
}

long double pow10l(int exponent) {
    if (exponent >= 0 && exponent <= 27) {
        long double r = 1;
        for (int i = 0; i < exponent; ++i) r *= 10;  // exact: 10^27 < 2^64 * 2^27
        return r;
    }
    if (exponent < 0 && exponent >= -27) return 1 / pow10l(-exponent);
    return std::pow(10.0L, static_cast<long double>(exponent));
}

size_t ScaledValues::size() const {
    return std::visit([](auto s) { return s.size(); }, values);
}

double ScaledValues::at(size_t i) const {
    if (auto* d = std::get_if<std::span<const double>>(&values)) return (*d)[i];
    if (auto* a = std::get_if<std::span<const int32_t>>(&values))
        return decimal_to_double((*a)[i], exponent);
    return decimal_to_double(std::get<std::span<const int64_t>>(values)[i], exponent);
}

}  // namespace gfxstat::analysis
