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

}  // namespace

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
