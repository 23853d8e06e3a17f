// SPDX-License-Identifier: MIT
// drivers::run_median selects the middle values instead of sorting: the
// median of one run's repetitions is still exactly what sorting gives,
// ties, even counts, negative and binary (hex) tokens included.
#include "drivers/run_loop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "data/number_token.h"

namespace gfxstat::drivers {
namespace {

// The median as run_median computed it before: every value sorted.
double sorted_median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

TEST(RunMedian, WhatSortingGives) {
    uint64_t x = 11;
    for (size_t n = 1; n <= 80; ++n)
        for (uint64_t levels : {2ULL, 7ULL, 1000003ULL}) {
            data::MetricValues m;
            std::vector<double> expected;
            for (size_t i = 0; i < n; ++i) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                char text[64];
                const long long k = static_cast<long long>((x >> 33) % levels) - static_cast<long long>(levels / 3);
                if (i % 5 == 4) std::snprintf(text, sizeof text, "%a", static_cast<double>(k) / 3);  // binary
                else std::snprintf(text, sizeof text, "%lld.%03llu", k, static_cast<unsigned long long>(x % 1000));
                m.values.push_back(data::parse_number_token(text));
                expected.push_back(0);
            }
            // The values the tokens stand for, as run_median reads them: a
            // one-value metric's median is its value.
            for (size_t i = 0; i < n; ++i) {
                data::MetricValues one;
                one.values = {m.values[i]};
                expected[i] = run_median(one);
            }
            EXPECT_EQ(run_median(m), sorted_median(expected)) << "n=" << n << " levels=" << levels;
        }
}

// Past a few thousand values the median is selected by radix over the
// tokens themselves (no copy): still exactly what sorting gives, for one
// repeated value, ties, both signs, zeros of both signs and binary tokens.
TEST(RunMedian, ManyValuesWhatSortingGives) {
    uint64_t x = 5;
    for (size_t n : {4097u, 4098u, 9999u, 10000u})
        for (uint64_t levels : {1ULL, 2ULL, 7ULL, 1000003ULL}) {
            data::MetricValues m;
            std::vector<double> expected;
            for (size_t i = 0; i < n; ++i) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                char text[64];
                const long long k = static_cast<long long>((x >> 33) % levels) - static_cast<long long>(levels / 3);
                if (i % 7 == 6) std::snprintf(text, sizeof text, "%a", static_cast<double>(k) / 3);  // binary
                else if (i % 11 == 10) std::snprintf(text, sizeof text, "-0");
                else if (levels == 1) std::snprintf(text, sizeof text, "7");
                else std::snprintf(text, sizeof text, "%lldE%d", k, static_cast<int>(x % 5) - 2);
                m.values.push_back(data::parse_number_token(text));
                data::MetricValues one;
                one.values = {m.values.back()};
                expected.push_back(run_median(one));
            }
            EXPECT_EQ(run_median(m), sorted_median(expected)) << "n=" << n << " levels=" << levels;
        }
}

}  // namespace
}  // namespace gfxstat::drivers
