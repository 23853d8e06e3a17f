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

namespace {

// Smallest and largest value in one pass that the compiler vectorises
// (std::minmax_element tracks positions and does not vectorise). The same
// picks as std::minmax_element: the first smallest, the last largest (of
// doubles, -0 and 0 are equal and keep their sign).
template <class T>
std::pair<T, T> extremes(std::span<const T> s) {
    T lo = s[0], hi = s[0];
    for (T v : s) {
        lo = v < lo ? v : lo;
        hi = v >= hi ? v : hi;
    }
    return {lo, hi};
}

template <class T>
Range range_of(std::pair<T, T> lohi, int exponent) {
    if constexpr (std::is_same_v<T, double>)
        return {lohi.first, lohi.second};
    else
        return {decimal_to_double(lohi.first, exponent), decimal_to_double(lohi.second, exponent)};
}

// The k-th and (k+1)-th smallest integers (0-based) in two sequential passes
// without reordering: a 65536-bucket histogram of the high bits (between
// the known extremes lo and hi) finds the bucket holding rank k, then only
// that bucket's values are selected among. Much faster than nth_element on
// millions of values; falls back to it when one bucket holds most of the
// data (heavy ties).
template <class T>
bool histogram_select(std::span<T> s, size_t k, T lo, T hi, T& kth, T& next) {
    constexpr int kBits = 16;
    // Unsigned differences are exact: hi - lo < 2^64 for any int64 pair.
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    int shift = 0;
    while ((span >> shift) >= (uint64_t{1} << kBits)) ++shift;
    auto bucket = [lo, shift](T v) {
        return static_cast<size_t>((static_cast<uint64_t>(v) - static_cast<uint64_t>(lo)) >> shift);
    };
    // 32-bit counts keep the table in a quarter megabyte (the caller
    // guarantees fewer than 2^32 values).
    std::vector<uint32_t> count(size_t{1} << kBits, 0);
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
    // Branch-free gathering: every value is written, only those of buckets
    // b..b2 advance the end (one slot of slack for the last write).
    std::vector<T> pick(in + 1);
    const size_t width = b2 - b;
    size_t m = 0;
    for (T v : s) {
        pick[m] = v;
        m += bucket(v) - b <= width;
    }
    pick.resize(in);
    const size_t r = k - below;
    std::nth_element(pick.begin(), pick.begin() + r, pick.end());
    kth = pick[r];
    next = r + 1 < pick.size() ? *std::min_element(pick.begin() + r + 1, pick.end()) : kth;
    return true;
}

// quantile_type7 with the extremes, when known, shared with the range.
template <class T>
double quantile_of(std::span<T> s, int exponent, int num, int den, const std::pair<T, T>* lohi) {
    const size_t n = s.size();
    // h = (n-1) * num / den = lo + k/den
    const unsigned __int128 h = static_cast<unsigned __int128>(n - 1) * num;
    const size_t lo = static_cast<size_t>(h / den);
    const int k = static_cast<int>(h % den);
    T a{}, b{};
    bool selected = false;
    if constexpr (!std::is_same_v<T, double>) {
        if (n > 4096 && n < (size_t{1} << 32)) {
            const auto ext = lohi ? *lohi : extremes(std::span<const T>(s));
            selected = histogram_select(s, lo, ext.first, ext.second, a, b);
        }
    }
    if (!selected) {
        std::nth_element(s.begin(), s.begin() + lo, s.end());
        a = s[lo];
        if (k != 0) b = *std::min_element(s.begin() + lo + 1, s.end());
    }
    if (k == 0) {
        if constexpr (std::is_same_v<T, double>) return a;
        else return decimal_to_double(a, exponent);
    }
    if constexpr (std::is_same_v<T, double>) {
        const long double la = a, lb = b;
        return static_cast<double>(la + (lb - la) * k / den);
    } else {
        // (den*a + k*(b - a)) / den, exact in 128 bits, one rounding.
        const __int128 numer = static_cast<__int128>(den) * a + static_cast<__int128>(k) * (b - a);
        // Written as a decimal with two more digits the quotient is
        // exact (den divides 100), so it is rounded only once.
        if (100 % den == 0) {
            const __int128 scaled = numer * (100 / den);
            if (scaled >= INT64_MIN && scaled <= INT64_MAX)
                return decimal_to_double(static_cast<int64_t>(scaled), exponent - 2);
        }
        return static_cast<double>(static_cast<long double>(numer) / den * pow10l(exponent));
    }
}

}  // namespace

Range range(const ScaledValues& values) {
    return std::visit([&](auto s) { return range_of(extremes(s), values.exponent); }, values.values);
}

double quantile_type7(MutableScaledValues values, int num, int den) {
    return std::visit(
        [&](auto s) {
            using T = typename decltype(s)::value_type;
            return quantile_of<T>(s, values.exponent, num, den, nullptr);
        },
        values.values);
}

RangeAndMedian range_and_median(MutableScaledValues values) {
    return std::visit(
        [&](auto s) {
            using T = typename decltype(s)::value_type;
            const std::pair<T, T> lohi = extremes(std::span<const T>(s));
            return RangeAndMedian{range_of(lohi, values.exponent), quantile_of<T>(s, values.exponent, 1, 2, &lohi)};
        },
        values.values);
}

}  // namespace gfxstat::analysis
