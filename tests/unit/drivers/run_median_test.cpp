// SPDX-License-Identifier: MIT
// drivers::run_median selects the middle values instead of sorting: the
// median of one run's repetitions is still exactly what sorting gives,
// ties, even counts, negative and binary (hex) tokens included.
#include "drivers/run_loop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "data/number_token.h"
#include "data/packed_tokens.h"

namespace gfxstat::drivers {
namespace {

// The median as run_median computed it before: every value sorted.
double sorted_median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// n values from `text_of(i, k, x)` (k a pseudo-random level from the
// range, x the generator's state), their median checked against sorting
// the values the tokens stand for (a one-value metric's median is its
// value, as run_median reads it).
template <class TextOf>
void expect_what_sorting_gives(size_t n, uint64_t levels, uint64_t& x, TextOf text_of) {
    data::MetricValues m;
    data::PackedTokens packed;  // the same values as `run --parser lines` holds them
    std::vector<double> expected;
    for (size_t i = 0; i < n; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const long long k = static_cast<long long>((x >> 33) % levels) - static_cast<long long>(levels / 3);
        m.values.push_back(data::parse_number_token(text_of(i, k, x)));
        packed.push_back(m.values.back());
        data::MetricValues one;
        one.values = {m.values.back()};
        expected.push_back(run_median(one));
    }
    EXPECT_EQ(run_median(m), sorted_median(expected)) << "n=" << n << " levels=" << levels;
    EXPECT_EQ(run_median(packed), sorted_median(expected)) << "packed, n=" << n << " levels=" << levels;
}

std::string text_f(const char* format, auto... args) {
    char text[64];
    std::snprintf(text, sizeof text, format, args...);
    return text;
}

TEST(RunMedian, WhatSortingGives) {
    uint64_t x = 11;
    for (size_t n = 1; n <= 80; ++n)
        for (uint64_t levels : {2ULL, 7ULL, 1000003ULL})
            expect_what_sorting_gives(n, levels, x, [](size_t i, long long k, uint64_t r) {
                if (i % 5 == 4) return text_f("%a", static_cast<double>(k) / 3);  // binary
                return text_f("%lld.%03llu", k, static_cast<unsigned long long>(r % 1000));
            });
}

// Past a few thousand values the median is selected by radix over the
// tokens themselves (no copy): still exactly what sorting gives, for one
// repeated value, ties, both signs, zeros of both signs and binary tokens.
TEST(RunMedian, ManyValuesWhatSortingGives) {
    uint64_t x = 5;
    for (size_t n : {4097u, 4098u, 9999u, 10000u})
        for (uint64_t levels : {1ULL, 2ULL, 7ULL, 1000003ULL})
            expect_what_sorting_gives(n, levels, x, [levels](size_t i, long long k, uint64_t r) {
                if (i % 7 == 6) return text_f("%a", static_cast<double>(k) / 3);  // binary
                if (i % 11 == 10) return std::string("-0");
                if (levels == 1) return std::string("7");
                return text_f("%lldE%d", k, static_cast<int>(r % 5) - 2);
            });
}

// Plain decimals only: the packed values stay packed (8 bytes a value), and
// their median is the tokens' median, below and past the radix threshold.
TEST(RunMedian, PackedValuesWhatSortingGives) {
    uint64_t x = 3;
    for (size_t n : {1u, 2u, 3u, 64u, 4097u, 10000u})
        for (uint64_t levels : {1ULL, 10ULL, 1000003ULL})
            expect_what_sorting_gives(n, levels, x, [](size_t i, long long k, uint64_t r) {
                if (i % 11 == 10) return std::string("-0");
                return text_f("%lld.%0*llu", k, static_cast<int>(r % 4) + 1, static_cast<unsigned long long>(r % 10));
            });
}

}  // namespace
}  // namespace gfxstat::drivers
