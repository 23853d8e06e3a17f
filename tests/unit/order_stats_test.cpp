#include "analysis/order_stats.h"

#include <gtest/gtest.h>

#include "test_support.h"

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
}

}  // namespace
}  // namespace gfxstat::analysis
