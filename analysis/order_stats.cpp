// SPDX-License-Identifier: MIT
#include "analysis/order_stats.h"

#include <algorithm>
#include <vector>

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

namespace {

// The k-th and (k+1)-th smallest integers (0-based) in two sequential passes
// without reordering: a 65536-bucket histogram of the high bits finds the
// bucket holding rank k, then only that bucket's values are selected among.
// Much faster than nth_element on millions of values; falls back to it when
// one bucket holds most of the data (heavy ties).
template <class T>
bool histogram_select(std::span<T> s, size_t k, T& kth, T& next) {
    constexpr int kBits = 16;
    auto [lo_it, hi_it] = std::minmax_element(s.begin(), s.end());
    const T lo = *lo_it, hi = *hi_it;
    // Unsigned differences are exact: hi - lo < 2^64 for any int64 pair.
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    int shift = 0;
    while ((span >> shift) >= (uint64_t{1} << kBits)) ++shift;
    auto bucket = [lo, shift](T v) {
        return static_cast<size_t>((static_cast<uint64_t>(v) - static_cast<uint64_t>(lo)) >> shift);
    };
    std::vector<size_t> count(size_t{1} << kBits, 0);
    for (T v : s) ++count[bucket(v)];
    // Buckets holding ranks k and k + 1 (the latter may be the next one).
    size_t b = 0, below = 0;
    while (below + count[b] <= k) below += count[b++];
    size_t b2 = b;
    if (k + 1 < s.size() && below + count[b] <= k + 1) {  // rank k+1 is further right
        b2 = b + 1;
        while (count[b2] == 0) ++b2;
    }
    size_t in = 0;
    for (size_t i = b; i <= b2; ++i) in += count[i];
    if (in > s.size() / 4 + 1024) return false;
    std::vector<T> pick;
    pick.reserve(in);
    for (T v : s) {
        const size_t bv = bucket(v);
        if (bv >= b && bv <= b2) pick.push_back(v);
    }
    const size_t r = k - below;
    std::nth_element(pick.begin(), pick.begin() + r, pick.end());
    kth = pick[r];
    next = r + 1 < pick.size() ? *std::min_element(pick.begin() + r + 1, pick.end()) : kth;
    return true;
}

}  // namespace

double quantile_type7(MutableScaledValues values, int num, int den) {
    return std::visit(
        [&](auto s) -> double {
            using T = typename decltype(s)::value_type;
            const size_t n = s.size();
            // h = (n-1) * num / den = lo + k/den
            const unsigned __int128 h = static_cast<unsigned __int128>(n - 1) * num;
            const size_t lo = static_cast<size_t>(h / den);
            const int k = static_cast<int>(h % den);
            T a{}, b{};
            bool selected = false;
            if constexpr (!std::is_same_v<T, double>)
                selected = n > 4096 && histogram_select(s, lo, a, b);
            if (!selected) {
                std::nth_element(s.begin(), s.begin() + lo, s.end());
                a = s[lo];
                if (k != 0) b = *std::min_element(s.begin() + lo + 1, s.end());
            }
            if (k == 0) {
                if constexpr (std::is_same_v<T, double>) return a;
                else return decimal_to_double(a, values.exponent);
            }
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
