// SPDX-License-Identifier: MIT
// Fieller's intervals for ratios of means (analysis/ratio_interval.h)
// against tests/data/ratio_interval_reference.json, written by
// tests/data/make_ratio_interval_reference.py (mpmath, 50 digits, nothing
// shared with the C++), and the relative intervals compare_samples gives:
// never below -100% where every value is positive.
#include "analysis/ratio_interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/student_t.h"
#include "analysis/t_tests.h"

namespace gfxstat::analysis {
namespace {

using nlohmann::json;

const json& reference() {
    static const json doc = [] {
        std::ifstream in(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/ratio_interval_reference.json");
        if (!in) throw std::runtime_error("cannot open tests/data/ratio_interval_reference.json");
        return json::parse(in);
    }();
    return doc;
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}

double var(const std::vector<double>& v) {
    const double m = mean(v);
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return s / static_cast<double>(v.size() - 1);
}

// Relative to the interval's width: the bounds are roots of a quadratic.
void expect_interval(const RatioInterval& r, const json& c) {
    const std::string name = c.at("name");
    ASSERT_EQ(r.bounded, c.at("bounded").get<bool>()) << name;
    if (!r.bounded) return;
    const double lo = c.at("low"), hi = c.at("high");
    EXPECT_NEAR(r.low, lo, 1e-9 * (hi - lo) + 1e-12) << name;
    EXPECT_NEAR(r.high, hi, 1e-9 * (hi - lo) + 1e-12) << name;
}

TEST(RatioInterval, IndependentMeansMatchTheReference) {
    size_t n = 0;
    for (const json& c : reference().at("cases")) {
        if (c.at("kind") != "independent") continue;
        ++n;
        const std::vector<double> a = c.at("baseline"), b = c.at("candidate");
        const double confidence = c.at("confidence");
        // Welch's own degrees of freedom.
        const TwoSampleMoments m = two_sample_moments(ScaledValues{std::span<const double>(a), 0},
                                                      ScaledValues{std::span<const double>(b), 0});
        const TTest w = welch_t_test(m, confidence);
        EXPECT_NEAR(w.df, c.at("df").get<double>(), 1e-9) << c.at("name");
        const double q = t_quantile((1 + confidence) / 2, w.df);
        expect_interval(fieller_interval(mean(a), mean(b), var(a) / static_cast<double>(a.size()),
                                         var(b) / static_cast<double>(b.size()), 0, q),
                        c);
    }
    EXPECT_GE(n, 4u);
}

TEST(RatioInterval, PairedMeansMatchTheReference) {
    size_t n = 0;
    for (const json& c : reference().at("cases")) {
        if (c.at("kind") != "paired") continue;
        ++n;
        const std::vector<double> a = c.at("baseline"), b = c.at("candidate");
        expect_interval(fieller_paired(a, b, c.at("confidence")), c);
    }
    EXPECT_GE(n, 2u);
}

TEST(RatioInterval, ExcludesOneExactlyWhenTheTestRejects) {
    // With the test's own degrees of freedom, rho = 1 lies in Fieller's set
    // iff |t| <= q: the interval and the verdict never disagree.
    const std::vector<double> a{10.0, 10.4, 9.7, 10.1, 10.2}, b{10.3, 10.8, 10.1, 10.6, 10.5};
    const TwoSampleMoments m = two_sample_moments(ScaledValues{std::span<const double>(a), 0},
                                                  ScaledValues{std::span<const double>(b), 0});
    for (double confidence : {0.8, 0.9, 0.95, 0.99, 0.999}) {
        const TTest w = welch_t_test(m, confidence);
        const RatioInterval r =
            fieller_interval(mean(a), mean(b), var(a) / 5, var(b) / 5, 0, t_quantile((1 + confidence) / 2, w.df));
        ASSERT_TRUE(r.bounded);
        EXPECT_EQ(w.p < 1 - confidence, r.low > 1 || r.high < 1) << confidence;
    }
}

TEST(RatioInterval, ComparisonOfPositiveValuesStaysAboveMinusOneHundredPercent) {
    // The syslatency case: a noisy baseline and a change of -85%. Whatever
    // the primary test, the relative interval is a ratio's.
    const json* c = nullptr;
    for (const json& x : reference().at("cases"))
        if (x.at("name") == "syslatency_mean") c = &x;
    ASSERT_NE(c, nullptr);
    std::vector<double> a = c->at("baseline"), b = c->at("candidate");
    ComparisonOptions o;
    o.bootstrap_resamples = 0;
    o.threads = 1;
    o.diagnostics = false;  // Welch: the difference over the baseline gave [-127%, -43%]
    const TwoSampleComparison r =
        compare_samples(MutableScaledValues{std::span<double>(a), 0}, MutableScaledValues{std::span<double>(b), 0}, o);
    ASSERT_EQ(r.primary.test, PrimaryTest::mann_whitney);  // skewed baseline
    EXPECT_GT(r.relative_change_ci[0], -1);
    EXPECT_LE(r.relative_change_ci[0], r.relative_change);
    EXPECT_GE(r.relative_change_ci[1], r.relative_change);
}

TEST(RatioInterval, WelchComparisonGivesFiellersInterval) {
    const json* c = nullptr;
    for (const json& x : reference().at("cases"))
        if (x.at("name") == "small_change") c = &x;
    ASSERT_NE(c, nullptr);
    std::vector<double> a = c->at("baseline"), b = c->at("candidate");
    ComparisonOptions o;
    o.bootstrap_resamples = 0;
    o.threads = 1;
    const TwoSampleComparison r =
        compare_samples(MutableScaledValues{std::span<double>(a), 0}, MutableScaledValues{std::span<double>(b), 0}, o);
    ASSERT_EQ(r.primary.test, PrimaryTest::welch);
    EXPECT_NEAR(r.relative_change, c->at("ratio").get<double>() - 1, 1e-12);
    EXPECT_NEAR(r.relative_change_ci[0], c->at("low").get<double>() - 1, 1e-9);
    EXPECT_NEAR(r.relative_change_ci[1], c->at("high").get<double>() - 1, 1e-9);
}

}  // namespace
}  // namespace gfxstat::analysis
