// SPDX-License-Identifier: MIT
#include "analysis/order_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "tests/unit/test_support.h"

namespace gfxstat::analysis {
namespace {

using test::reference_cases;
using test::sample_from_doubles;
using test::sample_from_tokens;

// R quantile(type = 7) at 0.25, 0.5 and 0.75 for every reference sample.
TEST(Quantile, MatchesRType7) {
    for (const auto& c : reference_cases()["cases"]) {
        for (const char* side : {"a", "b"}) {
            const auto& st = c[std::string("stats_") + side];
            const auto probs = st["quantiles"]["probs"].get<std::vector<double>>();
            const auto want = st["quantiles"]["type7"].get<std::vector<double>>();
            auto s = sample_from_doubles(test::doubles(c[side]));
            SCOPED_TRACE(c["id"].get<std::string>() + "." + side);
            for (size_t k = 0; k < probs.size(); ++k) {
                int num = -1;
                if (probs[k] == 0.25) num = 1;
                if (probs[k] == 0.5) num = 2;
                if (probs[k] == 0.75) num = 3;
                if (num < 0) continue;
                const double got = quantile_type7(s.mutable_view(), num, 4);
                EXPECT_NEAR(got, want[k], std::abs(want[k]) * 1e-14 + 1e-14) << probs[k];
            }
            EXPECT_NEAR(median(s.mutable_view()), st["median"].get<double>(),
                        std::abs(st["median"].get<double>()) * 1e-15);
        }
    }
}

TEST(Median, EvenSizeIsMeanOfMiddleTwo) {
    auto s = sample_from_tokens({"4", "1", "3", "2"});
    EXPECT_EQ(median(s.mutable_view()), 2.5);
    auto t = sample_from_tokens({"-12", "-9", "-10", "-11"});
    EXPECT_EQ(median(t.mutable_view()), -10.5);
}

// (a + b) / 2 of two decimals is rounded once: 0.1 and 0.2 give the double
// nearest 0.15, not 0.1 + 0.2 halved.
TEST(Median, EvenSizeRoundsOnce) {
    auto s = sample_from_tokens({"0.1", "0.2", "0", "0.3"});
    EXPECT_EQ(median(s.mutable_view()), 0.15);
}

TEST(Median, OddSizeIsMiddleValue) {
    auto s = sample_from_tokens({"5", "1", "3"});
    EXPECT_EQ(median(s.mutable_view()), 3);
}

TEST(Median, DoublesAndInt64) {
    auto d = sample_from_tokens({"0x1p0", "3", "2", "10"});
    ASSERT_FALSE(d.exact());
    EXPECT_EQ(median(d.mutable_view()), 2.5);
    auto w = sample_from_tokens({"12345678901", "12345678903", "12345678902", "12345678904"});
    EXPECT_EQ(median(w.mutable_view()), 12345678902.5);
}

TEST(Range, MinAndMax) {
    auto s = sample_from_tokens({"5", "-1.5", "3"});
    const Range r = range(s.view());
    EXPECT_EQ(r.min, -1.5);
    EXPECT_EQ(r.max, 5);
    const RangeAndMedian rm = range_and_median(s.mutable_view());
    EXPECT_EQ(rm.range.min, -1.5);
    EXPECT_EQ(rm.range.max, 5);
    EXPECT_EQ(rm.median, 3);
}

// As std::minmax_element: of equal largest doubles the last is taken, so
// that the sign of a zero maximum is the one it always was.
TEST(Range, ZeroSignsAsMinmaxElement) {
    auto s = sample_from_tokens({"0x0p0", "-0x0p0", "-1"});
    ASSERT_FALSE(s.exact());
    const Range r = range(s.view());
    EXPECT_TRUE(std::signbit(r.max));
}

}  // namespace
}  // namespace gfxstat::analysis

namespace gfxstat::analysis {
namespace {

// Large samples take the histogram selection path; check it against a full
// sort on shapes that stress it: ties, huge ranges, a gap between the two
// middle values, negative numbers, int64.
TEST(Quantile, HistogramSelectionAgreesWithSort) {
    std::mt19937_64 rng(3);
    for (int shape = 0; shape < 6; ++shape) {
        for (size_t n : {5000u, 5001u, 100000u}) {
            std::vector<int64_t> v(n);
            for (size_t i = 0; i < n; ++i) {
                switch (shape) {
                    case 0: v[i] = static_cast<int64_t>(rng() % 1000000); break;
                    case 1: v[i] = static_cast<int64_t>(rng() % 3); break;  // heavy ties
                    case 2: v[i] = static_cast<int64_t>(rng() >> 1) - (INT64_MAX / 2); break;
                    case 3: v[i] = (i < n / 2) ? -1000000 : 1000000; break;  // gap
                    case 4: v[i] = -static_cast<int64_t>(rng() % 70000); break;
                    default: v[i] = (i % 1000 == 0) ? INT64_MAX - 5 : static_cast<int64_t>(i); break;
                }
            }
            std::vector<int64_t> sorted = v;
            std::sort(sorted.begin(), sorted.end());
            for (auto [num, den] : {std::pair{1, 2}, std::pair{1, 4}, std::pair{3, 4}}) {
                std::vector<int64_t> work = v;
                MutableScaledValues m{std::span<int64_t>(work), 0};
                const double got = quantile_type7(m, num, den);
                const double h = static_cast<double>(n - 1) * num / den;
                const size_t lo = static_cast<size_t>(h);
                const long double want =
                    sorted[lo] + (h - lo) * static_cast<long double>(
                                                lo + 1 < n ? sorted[lo + 1] - sorted[lo] : 0);
                EXPECT_NEAR(got, static_cast<double>(want), std::abs(static_cast<double>(want)) * 1e-15)
                    << "shape " << shape << " n " << n << " p " << num << "/" << den;
            }
            // The range and median together: the same as each alone.
            {
                std::vector<int64_t> work = v;
                const RangeAndMedian rm = range_and_median({std::span<int64_t>(work), 0});
                EXPECT_EQ(rm.range.min, static_cast<double>(sorted.front()));
                EXPECT_EQ(rm.range.max, static_cast<double>(sorted.back()));
                std::vector<int64_t> again = v;
                EXPECT_EQ(rm.median, median({std::span<int64_t>(again), 0})) << "shape " << shape << " n " << n;
            }
            // int32 too
            if (shape != 2 && shape != 5) {
                std::vector<int32_t> w(v.begin(), v.end());
                std::vector<int32_t> ws = w;
                std::sort(ws.begin(), ws.end());
                std::vector<int32_t> w2 = w;
                MutableScaledValues m{std::span<int32_t>(w), 0};
                const double want = (n % 2) ? ws[n / 2] : (ws[n / 2 - 1] + static_cast<double>(ws[n / 2])) / 2;
                EXPECT_EQ(median(m), want) << "shape " << shape << " n " << n;
                const RangeAndMedian rm = range_and_median({std::span<int32_t>(w2), 0});
                EXPECT_EQ(rm.median, want);
                EXPECT_EQ(rm.range.min, ws.front());
                EXPECT_EQ(rm.range.max, ws.back());
            }
        }
    }
}

}  // namespace
}  // namespace gfxstat::analysis
