// SPDX-License-Identifier: MIT
// Outlier detection against independent references: R's quantile(type = 7)
// and median() from tests/data/reference_cases.json (R 4.2.2) for the
// quartiles, the median and hence the fences; the MAD and modified z by a
// direct sort in this file; exact flags on hand-made samples worked out by
// hand in the comments.
#include "analysis/outliers.h"
#include "analysis/outlier_cutoffs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace gfxstat::analysis;
using nlohmann::json;

std::vector<size_t> flagged(const OutlierReport& r) {
    std::vector<size_t> out;
    for (const Outlier& o : r.outliers) out.push_back(o.index);
    return out;
}

TEST(Outliers, HandSampleFlagsByBothRules) {
    // Sorted: 9.8 9.9 10 10 10 10.1 10.2 30. Median 10; |x - 10| sorted
    // 0 0 0 .1 .1 .2 .2 20, MAD 0.1; z(30) = 0.6745 * 20 / 0.1 = 134.9.
    // q1 (h = 1.75) = 9.9 + 0.75 * 0.1 = 9.975, q3 (h = 5.25) = 10.125;
    // IQR 0.15: fences 9.75 / 10.35, far 9.525 / 10.575.
    const std::vector<double> v{10, 10.1, 9.9, 10, 10.2, 9.8, 10, 30};
    const OutlierReport r = find_outliers(v);
    EXPECT_EQ(r.n, 8u);
    EXPECT_EQ(r.median, 10);
    EXPECT_NEAR(r.mad, 0.1, 1e-14);
    EXPECT_FALSE(r.mad_zero);
    EXPECT_NEAR(r.q1, 9.975, 1e-13);
    EXPECT_NEAR(r.q3, 10.125, 1e-13);
    EXPECT_NEAR(r.lower_fence, 9.75, 1e-13);
    EXPECT_NEAR(r.upper_fence, 10.35, 1e-13);
    EXPECT_NEAR(r.lower_far, 9.525, 1e-13);
    EXPECT_NEAR(r.upper_far, 10.575, 1e-13);
    ASSERT_EQ(flagged(r), std::vector<size_t>{7});
    const Outlier& o = r.outliers[0];
    EXPECT_EQ(o.value, 30);
    EXPECT_NEAR(o.modified_z, 134.9, 1e-10);
    EXPECT_TRUE(o.modified_z_flag);
    EXPECT_TRUE(o.tukey_flag);
    EXPECT_TRUE(o.far_out);
    EXPECT_EQ(r.by_modified_z, 1u);
    EXPECT_EQ(r.by_tukey, 1u);
    EXPECT_EQ(r.far_out, 1u);
}

TEST(Outliers, RulesDisagreeAndMildVersusFar) {
    // Median 10, |dev| sorted 0 0 .1 .1 .2 .2 .3 .3 .5 1.6 -> MAD 0.2.
    // z(11.6) = 0.6745 * 1.6 / 0.2 = 5.396 (flagged); z(9.5) = -1.686.
    // Sorted 9.5 9.7 9.8 9.9 10 10 10.1 10.2 10.3 11.6: q1 (h = 2.25) =
    // 9.825, q3 (h = 6.75) = 10.175, IQR .35: fences 9.3 / 10.7, far
    // 8.775 / 11.225. 11.6 is far out; nothing else flagged.
    const std::vector<double> v{10, 9.9, 10.1, 9.8, 10.2, 9.7, 10.3, 10, 9.5, 11.6};
    const OutlierReport r = find_outliers(v);
    EXPECT_NEAR(r.mad, 0.2, 1e-14);
    EXPECT_NEAR(r.q1, 9.825, 1e-13);
    EXPECT_NEAR(r.q3, 10.175, 1e-13);
    ASSERT_EQ(flagged(r), std::vector<size_t>{9});
    EXPECT_NEAR(r.outliers[0].modified_z, 5.396, 1e-12);
    EXPECT_TRUE(r.outliers[0].far_out);

    // A mild Tukey outlier that the modified z lets pass: 1..9 and 16.
    // Median 5.5, |dev| 4.5 3.5 2.5 1.5 .5 .5 1.5 2.5 3.5 10.5 -> MAD 2.5;
    // z(16) = 0.6745 * 10.5 / 2.5 = 2.8329 (not flagged). q1 (h = 2.25) =
    // 3.25, q3 (h = 6.75) = 7.75, IQR 4.5: upper fence 14.5, far 21.25.
    const std::vector<double> w{1, 2, 3, 4, 5, 6, 7, 8, 9, 16};
    const OutlierReport s = find_outliers(w);
    EXPECT_EQ(s.q1, 3.25);
    EXPECT_EQ(s.q3, 7.75);
    EXPECT_EQ(s.upper_fence, 14.5);
    EXPECT_EQ(s.upper_far, 21.25);
    ASSERT_EQ(flagged(s), std::vector<size_t>{9});
    EXPECT_NEAR(s.outliers[0].modified_z, 2.8329, 1e-12);
    EXPECT_FALSE(s.outliers[0].modified_z_flag);
    EXPECT_TRUE(s.outliers[0].tukey_flag);
    EXPECT_FALSE(s.outliers[0].far_out);
    EXPECT_EQ(s.by_modified_z, 0u);
    EXPECT_EQ(s.by_tukey, 1u);
    EXPECT_EQ(s.far_out, 0u);
}

TEST(Outliers, MadZeroFallsBackToMeanAbsoluteDeviation) {
    // Seven 5s, a 6 and a 50: median 5, MAD 0 -> mean |x - 5| = 46 / 9,
    // scale 1.253314 * 46 / 9: z(6) = 0.15611 (not flagged), z(50) =
    // 7.0250 (flagged). q1 = q3 = 5 (h = 2, 6): IQR 0, every fence at 5, so
    // both 6 and 50 are far out by Tukey.
    const std::vector<double> v{5, 5, 6, 5, 5, 5, 5, 50, 5};
    const OutlierReport r = find_outliers(v);
    EXPECT_TRUE(r.mad_zero);
    EXPECT_EQ(r.mad, 0);
    EXPECT_EQ(r.median, 5);
    EXPECT_EQ(r.q1, 5);
    EXPECT_EQ(r.q3, 5);
    ASSERT_EQ(flagged(r), (std::vector<size_t>{2, 7}));
    const double scale = 1.253314 * 46 / 9;
    EXPECT_NEAR(r.outliers[0].modified_z, 1 / scale, 1e-14);
    EXPECT_NEAR(r.outliers[1].modified_z, 45 / scale, 1e-13);
    EXPECT_FALSE(r.outliers[0].modified_z_flag);
    EXPECT_TRUE(r.outliers[1].modified_z_flag);
    EXPECT_TRUE(r.outliers[0].tukey_flag && r.outliers[0].far_out);
    EXPECT_TRUE(r.outliers[1].tukey_flag && r.outliers[1].far_out);
    EXPECT_EQ(r.by_modified_z, 1u);
    EXPECT_EQ(r.by_tukey, 2u);
    EXPECT_EQ(r.far_out, 2u);
}

TEST(Outliers, AllEqualAndTooFew) {
    const OutlierReport eq = find_outliers(std::vector<double>{3, 3, 3, 3});
    EXPECT_TRUE(eq.mad_zero);
    EXPECT_TRUE(eq.outliers.empty());
    EXPECT_EQ(eq.by_modified_z + eq.by_tukey + eq.far_out, 0u);

    const OutlierReport two = find_outliers(std::vector<double>{1, 100});
    EXPECT_EQ(two.n, 2u);
    EXPECT_EQ(two.median, 50.5);
    EXPECT_EQ(two.mad, 49.5);
    EXPECT_TRUE(two.outliers.empty());

    const OutlierReport one = find_outliers(std::vector<double>{7});
    EXPECT_EQ(one.median, 7);
    EXPECT_TRUE(one.outliers.empty());

    const OutlierReport none = find_outliers(std::vector<double>{});
    EXPECT_EQ(none.n, 0u);
    EXPECT_TRUE(none.outliers.empty());

    EXPECT_THROW(find_outliers(std::vector<double>{1, std::nan(""), 3}), std::invalid_argument);
}

TEST(Outliers, QuartilesAndMedianMatchR) {
    std::ifstream in(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/reference_cases.json");
    ASSERT_TRUE(in);
    const json doc = json::parse(in);
    int checked = 0;
    double worst = 0;
    auto rel = [&](double a, double e) {
        const double d = e == 0 ? std::fabs(a) : std::fabs(a - e) / std::fabs(e);
        worst = std::max(worst, d);
        return d;
    };
    for (const json& c : doc.at("cases")) {
        for (const char* side : {"a", "b"}) {
            SCOPED_TRACE(c.at("id").get<std::string>() + "." + side);
            const auto values = c.at(side).get<std::vector<double>>();
            const json& st = c.at(std::string("stats_") + side);
            const auto q = st.at("quantiles").at("type7").get<std::vector<double>>();
            ASSERT_EQ(q.size(), 7u);  // probs .05 .1 .25 .5 .75 .9 .95
            const OutlierReport r = find_outliers(values);
            EXPECT_LE(rel(r.q1, q[2]), 1e-14);
            EXPECT_LE(rel(r.q3, q[4]), 1e-14);
            EXPECT_LE(rel(r.median, st.at("median").get<double>()), 1e-15);
            // MAD by a plain sort around R's median.
            std::vector<double> dev;
            for (double x : values) dev.push_back(std::fabs(x - st.at("median").get<double>()));
            std::sort(dev.begin(), dev.end());
            const size_t n = dev.size();
            const double mad = n % 2 ? dev[n / 2] : (dev[n / 2 - 1] + dev[n / 2]) / 2;
            EXPECT_NEAR(r.mad, mad, 1e-12 * std::max(1.0, mad));
            ++checked;
        }
    }
    EXPECT_EQ(checked, 32);
    std::printf("[ reference ] worst relative difference from R quantile type 7: %.3g\n", worst);
}

TEST(Outliers, PublishedOutlierCase) {
    // reference_cases.json outliers_n12: b is N(100, 1) with 200 and 350 at
    // the end; a is clean N(100, 1).
    std::ifstream in(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/reference_cases.json");
    ASSERT_TRUE(in);
    const json doc = json::parse(in);
    for (const json& c : doc.at("cases")) {
        if (c.at("id") != "outliers_n12") continue;
        const auto b = c.at("b").get<std::vector<double>>();
        const OutlierReport r = find_outliers(b);
        ASSERT_EQ(flagged(r), (std::vector<size_t>{10, 11}));
        for (const Outlier& o : r.outliers) {
            EXPECT_TRUE(o.modified_z_flag);
            EXPECT_TRUE(o.far_out);
            EXPECT_NEAR(o.modified_z, 0.6745 * (o.value - r.median) / r.mad, 1e-12 * o.modified_z);
        }
        const auto a = c.at("a").get<std::vector<double>>();
        EXPECT_TRUE(find_outliers(a).outliers.empty());
        return;
    }
    FAIL() << "outliers_n12 missing";
}

TEST(Outliers, HugeOffset) {
    // 1e9 plus the first hand sample: the median is exactly 1e9, so the
    // deviations are the exact differences held by `small` (v - 1e9, exact),
    // and the two reports must agree to the last bit.
    const std::vector<double> v{1e9 + 0.0, 1e9 + 0.1, 1e9 - 0.1, 1e9 + 0.0,
                                1e9 + 0.2, 1e9 - 0.2, 1e9 + 0.0, 1e9 + 20};
    std::vector<double> small;
    for (double x : v) small.push_back(x - 1e9);
    const OutlierReport r = find_outliers(v), s = find_outliers(small);
    EXPECT_EQ(r.median, 1e9);
    EXPECT_EQ(r.mad, s.mad);
    EXPECT_NEAR(r.mad, 0.1, 1e-6);
    EXPECT_NEAR(r.q3 - 1e9, s.q3, 1e-7);
    ASSERT_EQ(flagged(r), std::vector<size_t>{7});
    ASSERT_EQ(flagged(s), std::vector<size_t>{7});
    EXPECT_EQ(r.outliers[0].modified_z, s.outliers[0].modified_z);
    EXPECT_NEAR(r.outliers[0].modified_z, 134.9, 1e-3);
}

TEST(Outliers, ReportedBeyondTheCalibratedCutoff) {
    // Ten values within 0.2 of 100 (median 100, MAD 0.1) and one more:
    // z = 0.6745 (x - 100) / 0.1. 100.8 is z 5.4: the classical 3.5 flags
    // it, c(11) does not; 102 is z 13.5, beyond c(11) (about 9).
    const double c = outlier_cutoff(11);
    ASSERT_GT(c, 5.4);
    ASSERT_LT(c, 13.4);
    for (const auto& [x, reported] : std::vector<std::pair<double, bool>>{{100.8, false}, {102, true}}) {
        const std::vector<double> v = {100, 100.2, 99.8, 100.1, 99.9, 100.0, 100.1, 99.9, 100.0, 100.0, x};
        const OutlierReport r = find_outliers(v);
        EXPECT_EQ(r.cutoff, c);
        ASSERT_EQ(flagged(r), std::vector<size_t>{10}) << x;
        EXPECT_TRUE(r.outliers[0].modified_z_flag);
        EXPECT_EQ(r.outliers[0].reported, reported) << x;
        EXPECT_EQ(r.reported, reported ? 1u : 0u);
    }
    // MAD 0: the fallback score flags the next quantum, never reported.
    const OutlierReport q = find_outliers(std::vector<double>{16, 16, 16, 16, 16, 16, 16, 17, 40});
    EXPECT_TRUE(q.mad_zero);
    EXPECT_EQ(q.reported, 0u);
    EXPECT_FALSE(q.outliers.empty());
    // Two values: nothing can be told.
    EXPECT_EQ(find_outliers(std::vector<double>{1, 1000}).reported, 0u);
}

}  // namespace

// The summaries read off an ascending copy (the median and quartiles by
// position, the MAD by merging the distances on both sides of the median)
// are the selected ones, bit for bit: odd and even sizes, ties at the
// median, a quantised sample, negative values and a huge offset.
TEST(Outliers, SortedCopyGivesTheSameReport) {
    std::vector<std::vector<double>> samples = {{1}, {2, 1}, {3, 1, 2}, {5, 5, 5, 1, 9, 5}, {-3, -1, -2, 0, 4, 4}};
    uint64_t state = 12345;
    const auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) * 0x1p-53;
    };
    for (size_t n : {7, 10, 101, 1000, 5001}) {
        std::vector<double> smooth(n), quantised(n), offset(n);
        for (size_t i = 0; i < n; ++i) {
            const double u = next();
            smooth[i] = 100 + 10 * std::tan(3 * (u - 0.5));  // long tails: outliers on both sides
            quantised[i] = std::round(smooth[i] / 4) * 4;
            offset[i] = 1e9 + smooth[i];
        }
        samples.push_back(smooth);
        samples.push_back(quantised);
        samples.push_back(offset);
    }
    for (const std::vector<double>& v : samples) {
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        const OutlierReport a = find_outliers(v), b = find_outliers(v, sorted);
        SCOPED_TRACE(v.size());
        EXPECT_EQ(a.median, b.median);
        EXPECT_EQ(a.q1, b.q1);
        EXPECT_EQ(a.q3, b.q3);
        EXPECT_EQ(a.mad, b.mad);
        EXPECT_EQ(a.mad_zero, b.mad_zero);
        EXPECT_EQ(a.upper_far, b.upper_far);
        EXPECT_EQ(flagged(a), flagged(b));
        EXPECT_EQ(a.reported, b.reported);
    }
}
