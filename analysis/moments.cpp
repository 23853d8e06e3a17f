// SPDX-License-Identifier: MIT
#include "analysis/moments.h"

#include <cmath>
#include <limits>

namespace gfxstat::analysis {

namespace {

using i128 = __int128;

i128 round_div(i128 num, i128 den) {  // den > 0; rounds half away from zero
    i128 q = num / den, r = num % den;
    if (2 * (r < 0 ? -r : r) >= den) q += (num < 0 ? -1 : 1);
    return q;
}

Moments finish(size_t n, long double mean, long double var_scaled, int exponent) {
    Moments m;
    m.n = n;
    const long double scale = pow10l(exponent);
    m.mean = static_cast<double>(mean * scale);
    if (n < 2) {
        m.variance = m.stddev = std::numeric_limits<double>::quiet_NaN();
        return m;
    }
    m.stddev = static_cast<double>(std::sqrt(var_scaled) * scale);
    m.variance = static_cast<double>(var_scaled * scale * scale);
    return m;
}

// Long-double two-pass over values v_i * 10^exponent; used for doubles and
// when exact integer sums would overflow 128 bits.
template <class T>
Moments two_pass(std::span<const T> v, int exponent) {
    const size_t n = v.size();
    long double sum = 0, comp = 0;  // Neumaier-compensated sum
    for (T x : v) {
        long double y = static_cast<long double>(x);
        long double t = sum + y;
        comp += std::fabs(sum) >= std::fabs(y) ? (sum - t) + y : (y - t) + sum;
        sum = t;
    }
    const long double mean = (sum + comp) / static_cast<long double>(n);
    long double ss = 0, s = 0;
    for (T x : v) {
        long double d = static_cast<long double>(x) - mean;
        ss += d * d;
        s += d;
    }
    // Subtracting s^2/n removes the error left by rounding the mean.
    const long double var = n > 1 ? (ss - s * s / n) / static_cast<long double>(n - 1) : 0;
    return finish(n, mean, var < 0 ? 0 : var, exponent);
}

template <class T>
Moments exact_integer(std::span<const T> v, int exponent) {
    const size_t n = v.size();
    i128 sum = 0;
    for (T x : v) sum += x;  // |x| < 2^63, n < 2^64: cannot overflow
    const i128 pivot = round_div(sum, static_cast<i128>(n));
    i128 sd = 0, ssd = 0;
    bool overflow = false;
    for (T x : v) {
        i128 d = static_cast<i128>(x) - pivot, d2;
        sd += d;
        overflow |= __builtin_mul_overflow(d, d, &d2);
        overflow |= __builtin_add_overflow(ssd, d2, &ssd);
    }
    i128 num = 0, nss, sd2;
    overflow = overflow || __builtin_mul_overflow(static_cast<i128>(n), ssd, &nss) ||
               __builtin_mul_overflow(sd, sd, &sd2) || __builtin_sub_overflow(nss, sd2, &num);
    if (overflow) return two_pass(v, exponent);
    const long double nn = static_cast<long double>(n);
    const long double mean = static_cast<long double>(pivot) + static_cast<long double>(sd) / nn;
    const long double var = n > 1 ? static_cast<long double>(num) / nn / (nn - 1) : 0;
    return finish(n, mean, var, exponent);
}

// G1 and G2 from the population central sums M2, M3, M4 (any common scale).
ShapeMoments finish_shape(size_t n, long double M2, long double M3, long double M4) {
    ShapeMoments s;
    if (n < 4 || !(M2 > 0)) return s;
    const long double nn = static_cast<long double>(n);
    const long double m2 = M2 / nn, m3 = M3 / nn, m4 = M4 / nn;
    const long double g1 = m3 / std::pow(m2, 1.5L), g2 = m4 / (m2 * m2) - 3;
    s.g1 = static_cast<double>(std::sqrt(nn * (nn - 1)) / (nn - 2) * g1);
    s.g2 = static_cast<double>((nn - 1) / ((nn - 2) * (nn - 3)) * ((nn + 1) * g2 + 6));
    s.defined = true;
    return s;
}

template <class T>
ShapeMoments shape_two_pass(std::span<const T> v) {
    const size_t n = v.size();
    long double mean = 0;
    for (T x : v) mean += static_cast<long double>(x);
    mean /= static_cast<long double>(n);
    long double M2 = 0, M3 = 0, M4 = 0;
    for (T x : v) {
        const long double d = static_cast<long double>(x) - mean, d2 = d * d;
        M2 += d2;
        M3 += d2 * d;
        M4 += d2 * d2;
    }
    return finish_shape(n, M2, M3, M4);
}

template <class T>
ShapeMoments shape_exact(std::span<const T> v) {
    const size_t n = v.size();
    i128 sum = 0;
    for (T x : v) sum += x;
    const i128 pivot = round_div(sum, static_cast<i128>(n));
    // Power sums of d = x - pivot, exact unless a term or a sum overflows.
    i128 p1 = 0, p2 = 0, p3 = 0, p4 = 0;
    bool overflow = false;
    for (T x : v) {
        const i128 d = static_cast<i128>(x) - pivot;
        i128 d2 = 0, d3 = 0, d4 = 0;
        overflow |= __builtin_mul_overflow(d, d, &d2) || __builtin_mul_overflow(d2, d, &d3) ||
                    __builtin_mul_overflow(d2, d2, &d4);
        p1 += d;  // |d| < 2^64, n < 2^63: cannot overflow
        overflow |= __builtin_add_overflow(p2, d2, &p2) || __builtin_add_overflow(p3, d3, &p3) ||
                    __builtin_add_overflow(p4, d4, &p4);
        if (overflow) return shape_two_pass(v);
    }
    // Central sums about the exact mean pivot + a, a = p1 / n with |a| <=
    // 1/2: the corrections are small next to the power sums, so nothing
    // cancels and long double keeps 19 digits.
    const long double nn = static_cast<long double>(n), a = static_cast<long double>(p1) / nn;
    const long double P2 = static_cast<long double>(p2), P3 = static_cast<long double>(p3),
                      P4 = static_cast<long double>(p4), P1 = static_cast<long double>(p1);
    const long double M2 = P2 - P1 * a;
    const long double M3 = P3 - 3 * a * P2 + 2 * a * a * P1;
    const long double M4 = P4 - 4 * a * P3 + 6 * a * a * P2 - 3 * a * a * a * P1;
    return finish_shape(n, M2, M3, M4);
}

}  // namespace

ShapeMoments shape_moments(const ScaledValues& values) {
    return std::visit(
        [&](auto span) -> ShapeMoments {
            using T = typename decltype(span)::value_type;
            if (span.size() < 4) return ShapeMoments{};
            if constexpr (std::is_same_v<T, double>)
                return shape_two_pass(span);
            else
                return shape_exact(span);
        },
        values.values);
}

Moments moments(const ScaledValues& values) {
    return std::visit(
        [&](auto span) -> Moments {
            using T = typename decltype(span)::value_type;
            if (span.empty()) return Moments{};
            if constexpr (std::is_same_v<T, double>)
                return two_pass(span, 0);
            else
                return exact_integer(span, values.exponent);
        },
        values.values);
}

}  // namespace gfxstat::analysis
