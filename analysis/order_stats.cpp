#include "analysis/order_stats.h"

#include <algorithm>

namespace gfxstat::analysis {

ScaledValues MutableScaledValues::view() const {
    ScaledValues v;
    v.exponent = exponent;
    std::visit([&](auto s) { v.values = std::span<const typename decltype(s)::value_type>(s); },
               values);
    return v;
}

Range range(const ScaledValues& values) {
    return std::visit(
        [&](auto s) -> Range {
            auto [lo, hi] = std::minmax_element(s.begin(), s.end());
            if constexpr (std::is_same_v<typename decltype(s)::value_type, double>)
                return {*lo, *hi};
            else
                return {decimal_to_double(*lo, values.exponent),
                        decimal_to_double(*hi, values.exponent)};
        },
        values.values);
}

double quantile_type7(MutableScaledValues values, int num, int den) {
    return std::visit(
        [&](auto s) -> double {
            using T = typename decltype(s)::value_type;
            const size_t n = s.size();
            // h = (n-1) * num / den = lo + k/den
            const unsigned __int128 h = static_cast<unsigned __int128>(n - 1) * num;
            const size_t lo = static_cast<size_t>(h / den);
            const int k = static_cast<int>(h % den);
            std::nth_element(s.begin(), s.begin() + lo, s.end());
            const T a = s[lo];
            if (k == 0) {
                if constexpr (std::is_same_v<T, double>) return a;
                else return decimal_to_double(a, values.exponent);
            }
            const T b = *std::min_element(s.begin() + lo + 1, s.end());
            if constexpr (std::is_same_v<T, double>) {
                const long double la = a, lb = b;
                return static_cast<double>(la + (lb - la) * k / den);
            } else {
                // (den*a + k*(b - a)) / den, exact in 128 bits, one rounding.
                const __int128 numer =
                    static_cast<__int128>(den) * a + static_cast<__int128>(k) * (b - a);
                // Written as a decimal with two more digits the quotient is
                // exact (den divides 100), so it is rounded only once.
                if (100 % den == 0) {
                    const __int128 scaled = numer * (100 / den);
                    if (scaled >= INT64_MIN && scaled <= INT64_MAX)
                        return decimal_to_double(static_cast<int64_t>(scaled),
                                                 values.exponent - 2);
                }
                return static_cast<double>(static_cast<long double>(numer) / den *
                                           pow10l(values.exponent));
            }
        },
        values.values);
}

}  // namespace gfxstat::analysis
