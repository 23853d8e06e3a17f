// SPDX-License-Identifier: MIT
// RunningLocationInterval gives, after every value, exactly what
// median_interval and mean_interval give for the values so far; and the
// shape of its cost: operations (comparisons and cursor steps) per value
// grow like log n, not like n, so a run loop's per-run cost stays flat.
#include "analysis/running_location.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "analysis/location_interval.h"

namespace gfxstat::analysis {
namespace {

// A fixed pseudo-random sequence; `levels` distinct values make ties.
std::vector<double> values(size_t n, uint64_t seed, uint64_t levels) {
    std::vector<double> v;
    uint64_t x = seed;
    for (size_t i = 0; i < n; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        v.push_back(100 + static_cast<double>((x >> 33) % levels) * 0.25);
    }
    return v;
}

void expect_same(const LocationInterval& a, const LocationInterval& b, size_t n) {
    EXPECT_EQ(a.defined, b.defined) << "n=" << n;
    EXPECT_EQ(a.estimate, b.estimate) << "n=" << n;
    EXPECT_EQ(a.low, b.low) << "n=" << n;
    EXPECT_EQ(a.high, b.high) << "n=" << n;
    EXPECT_EQ(a.coverage, b.coverage) << "n=" << n;
    EXPECT_EQ(a.relative_half_width_pct, b.relative_half_width_pct) << "n=" << n;
}

TEST(RunningLocationInterval, TheMedianIntervalAfterEveryValue) {
    for (double confidence : {0.5, 0.9, 0.95, 0.99})
        for (uint64_t levels : {3ULL, 50ULL, 1ULL << 30}) {
            const std::vector<double> v = values(1500, levels, levels);
            RunningLocationInterval running(confidence, false);
            for (size_t n = 1; n <= v.size(); ++n) {
                running.add(v[n - 1]);
                ASSERT_EQ(running.size(), n);
                expect_same(running.interval(), median_interval(std::span(v.data(), n), confidence), n);
            }
        }
}

TEST(RunningLocationInterval, SortedAndZeroInputs) {
    // Values that come in order (a drifting workload) and a median of 0.
    std::vector<double> up, down, zero;
    for (int i = 0; i < 400; ++i) {
        up.push_back(i);
        down.push_back(-i);
        zero.push_back(i % 2 ? 0.0 : (i % 4 ? 1.0 : -1.0));
    }
    for (const auto* v : {&up, &down, &zero}) {
        RunningLocationInterval running(0.95, false);
        for (size_t n = 1; n <= v->size(); ++n) {
            running.add((*v)[n - 1]);
            expect_same(running.interval(), median_interval(std::span(v->data(), n), 0.95), n);
        }
    }
}

TEST(RunningLocationInterval, TheMeanIntervalAfterEveryValue) {
    const std::vector<double> v = values(500, 7, 1000);
    RunningLocationInterval running(0.95, true);
    for (size_t n = 1; n <= v.size(); ++n) {
        running.add(v[n - 1] * 1e9);
        std::vector<double> scaled;
        for (size_t i = 0; i < n; ++i) scaled.push_back(v[i] * 1e9);
        expect_same(running.interval(), mean_interval(scaled, 0.95), n);
    }
}

TEST(RunningLocationInterval, RefusesAConfidenceOutsideZeroOne) {
    EXPECT_THROW(RunningLocationInterval(1.0, false), std::invalid_argument);
    EXPECT_THROW(RunningLocationInterval(0.0, true), std::invalid_argument);
}

TEST(MedianRank, FromThePreviousRankAsByBisection) {
    // The rank grows by 0 or 1 with n: taken from the previous one it is
    // the bisection's, with the same coverage.
    for (double confidence : {0.8, 0.95, 0.999}) {
        std::optional<size_t> previous;
        for (size_t n = 1; n <= 20000; n += (n < 3000 ? 1 : 7)) {
            const MedianRank fresh = median_rank(n, confidence);
            const MedianRank next = median_rank(n, confidence, previous);
            ASSERT_EQ(next.l, fresh.l) << "n=" << n;
            ASSERT_EQ(next.cdf_below, fresh.cdf_below) << "n=" << n;
            previous = fresh.l;
        }
    }
    // A wrong hint costs a bisection, never a wrong rank.
    EXPECT_EQ(median_rank(1000, 0.95, 3).l, median_rank(1000, 0.95).l);
    EXPECT_EQ(median_rank(1000, 0.95, 900).l, median_rank(1000, 0.95).l);
}

// Operations for the 200 values after the first `before`.
uint64_t operations_after(const std::vector<double>& v, size_t before) {
    RunningLocationInterval running(0.95, false);
    for (size_t i = 0; i < before; ++i) running.add(v[i]);
    const uint64_t start = running.operations();
    for (size_t i = before; i < before + 200; ++i) {
        running.add(v[i]);
        (void)running.interval();
    }
    return running.operations() - start;
}

TEST(RunningLocationInterval, OperationsPerValueGrowLikeLogN) {
    // Random, rising and falling values: at 10,000 values a value costs
    // at most log2(10000) / log2(1000) (1.33) times what it costs at 1,000,
    // with room for the tree's balance; a copy and sort of every value
    // (median_interval) would cost 13 times more.
    std::vector<double> up, down;
    for (int i = 0; i < 10200; ++i) {
        up.push_back(i);
        down.push_back(-i);
    }
    for (const auto* v : {&up, &down}) {
        const uint64_t small = operations_after(*v, 1000), large = operations_after(*v, 10000);
        EXPECT_LE(static_cast<double>(large), 1.5 * static_cast<double>(small)) << small << " " << large;
    }
    const std::vector<double> random = values(10200, 3, 1ULL << 40);
    const uint64_t small = operations_after(random, 1000), large = operations_after(random, 10000);
    EXPECT_LE(static_cast<double>(large), 1.5 * static_cast<double>(small)) << small << " " << large;
    // And in absolute terms: a few comparisons per tree level, a few steps.
    EXPECT_LE(large, 200 * static_cast<uint64_t>(3 * std::log2(10200.0) + 16)) << large;
}

}  // namespace
}  // namespace gfxstat::analysis
