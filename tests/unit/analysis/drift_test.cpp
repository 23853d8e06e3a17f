// SPDX-License-Identifier: MIT
// Drift diagnostics against independent references:
//  * tests/data/drift_reference.json, written by tests/data/make_drift_reference.py
//    (exact rationals and O(n^2) / O(n^3) textbook loops in pure Python; t
//    tails from its own incomplete beta, checked there against the closed
//    form series), over seeded series, a huge-offset series and two NIST
//    StRD series;
//  * hand-made series whose statistics are known in closed form;
//  * brute-force O(n^2) Kendall S / O(n^3) Pettitt U in this file for the
//    O(n log n) implementations on larger tied samples.
#include "analysis/drift.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace gfxstat::analysis;
using nlohmann::json;

json load_reference() {
    std::ifstream in(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/drift_reference.json");
    if (!in) throw std::runtime_error("cannot open drift_reference.json");
    return json::parse(in);
}

double worst_relative = 0;  // printed at the end of the reference test
std::string worst_field;

void expect_rel(double actual, double expected, double tol, const std::string& what) {
    if (expected == 0) {
        EXPECT_EQ(actual, 0) << what;
        return;
    }
    const double rel = std::fabs(actual - expected) / std::fabs(expected);
    if (rel > worst_relative) {
        worst_relative = rel;
        worst_field = what;
    }
    EXPECT_LE(rel, tol) << what << ": actual " << actual << " expected " << expected;
}

TEST(DriftReference, MatchesPythonExactReference) {
    const json doc = load_reference();
    ASSERT_GE(doc.at("cases").size(), 10u);
    worst_relative = 0;
    std::string worst_case;
    for (const json& c : doc.at("cases")) {
        const std::string id = c.at("id");
        SCOPED_TRACE(id);
        const auto values = c.at("values").get<std::vector<double>>();
        const auto firsts = c.at("firsts").get<std::vector<size_t>>();
        const double conf = c.at("confidence");
        const double before = worst_relative;
        constexpr double kTol = 1e-9;

        const Trend t = trend(values, conf);
        const json& et = c.at("trend");
        ASSERT_TRUE(t.defined);
        expect_rel(t.slope, et.at("slope"), kTol, "slope");
        expect_rel(t.slope_ci_low, et.at("slope_ci_low"), kTol, "slope_ci_low");
        expect_rel(t.slope_ci_high, et.at("slope_ci_high"), kTol, "slope_ci_high");
        expect_rel(t.slope_p, et.at("slope_p"), kTol, "slope_p");
        expect_rel(t.relative_drift, et.at("relative_drift"), kTol, "relative_drift");
        expect_rel(t.spearman_rho, et.at("spearman_rho"), kTol, "spearman_rho");
        expect_rel(t.spearman_p, et.at("spearman_p"), kTol, "spearman_p");
        expect_rel(t.kendall_tau, et.at("kendall_tau"), kTol, "kendall_tau");
        expect_rel(t.kendall_p, et.at("kendall_p"), kTol, "kendall_p");

        const ChangePoint cp = change_point(values);
        const json& ec = c.at("change_point");
        ASSERT_TRUE(cp.defined);
        EXPECT_EQ(cp.index, ec.at("index").get<size_t>());
        EXPECT_EQ(cp.statistic, ec.at("statistic").get<double>());
        expect_rel(cp.p, ec.at("p"), kTol, "pettitt p");
        expect_rel(cp.mean_before, ec.at("mean_before"), kTol, "mean_before");
        expect_rel(cp.mean_after, ec.at("mean_after"), kTol, "mean_after");
        // The medians are the exact medians rounded once: bit-identical.
        EXPECT_EQ(cp.median_before, ec.at("median_before").get<double>());
        EXPECT_EQ(cp.median_after, ec.at("median_after").get<double>());
        expect_rel(cp.relative_shift, ec.at("relative_shift"), kTol, "relative_shift");

        const FirstRunEffect f = first_run_effect(values, firsts);
        const json& ef = c.at("first_run");
        ASSERT_TRUE(f.defined);
        EXPECT_EQ(f.firsts, ef.at("firsts").get<size_t>());
        EXPECT_EQ(f.others, ef.at("others").get<size_t>());
        expect_rel(f.mean_firsts, ef.at("mean_firsts"), kTol, "mean_firsts");
        expect_rel(f.mean_others, ef.at("mean_others"), kTol, "mean_others");
        expect_rel(f.difference, ef.at("difference"), kTol, "difference");
        expect_rel(f.relative_difference, ef.at("relative_difference"), kTol,
                   "relative_difference");
        expect_rel(f.p, ef.at("p"), kTol, "first-run p");

        const DriftAnalysis all = analyse_drift(values, firsts, conf);
        EXPECT_EQ(all.trend.slope_p, t.slope_p);
        EXPECT_EQ(all.change_point.index, cp.index);
        EXPECT_EQ(all.first_run.p, f.p);
        if (worst_relative > before) worst_case = id;
    }
    std::printf("[ reference ] worst relative difference %.3g (%s, %s)\n", worst_relative,
                worst_case.c_str(), worst_field.c_str());
}

// Sanity of the reference itself where the answer is known without it.
TEST(DriftReference, ReferenceHoldsKnownAnswers) {
    const json doc = load_reference();
    for (const json& c : doc.at("cases")) {
        if (c.at("id") == "step_n30") {
            EXPECT_EQ(c.at("change_point").at("index"), 17);
        }
        if (c.at("id") == "pure_linear_n12") {
            EXPECT_EQ(c.at("trend").at("slope"), 0.25);
            EXPECT_EQ(c.at("trend").at("kendall_tau"), 1.0);
        }
    }
}

TEST(Trend, PureLinearSeriesIsExact) {
    std::vector<double> v;
    for (int i = 0; i < 50; ++i) v.push_back(3 + 0.5 * i);
    const Trend t = trend(v, 0.95);
    ASSERT_TRUE(t.defined);
    EXPECT_EQ(t.slope, 0.5);
    EXPECT_EQ(t.slope_ci_low, 0.5);
    EXPECT_EQ(t.slope_ci_high, 0.5);
    EXPECT_EQ(t.slope_p, 0);
    EXPECT_EQ(t.spearman_rho, 1);
    EXPECT_EQ(t.spearman_p, 0);
    EXPECT_EQ(t.kendall_tau, 1);
    // S = n(n-1)/2 = 1225, var = n(n-1)(2n+5)/18 = 14291.67, z = 10.247.
    EXPECT_LT(t.kendall_p, 1e-23);
    EXPECT_GT(t.kendall_p, 1e-25);
    // drift 0.5 * 49 over the mean 15.25
    EXPECT_DOUBLE_EQ(t.relative_drift, 24.5 / 15.25);
}

TEST(Trend, ReversedSeriesNegatesStatistics) {
    const json doc = load_reference();
    for (const json& c : doc.at("cases")) {
        SCOPED_TRACE(c.at("id").get<std::string>());
        auto v = c.at("values").get<std::vector<double>>();
        const Trend a = trend(v, 0.9);
        std::reverse(v.begin(), v.end());
        const Trend b = trend(v, 0.9);
        EXPECT_NEAR(b.slope, -a.slope, 1e-12 * std::fabs(a.slope));
        EXPECT_NEAR(b.slope_ci_low, -a.slope_ci_high, 1e-12 * std::fabs(a.slope_ci_high));
        EXPECT_NEAR(b.slope_p, a.slope_p, 1e-12 * a.slope_p);
        EXPECT_NEAR(b.spearman_rho, -a.spearman_rho, 1e-15);
        EXPECT_NEAR(b.spearman_p, a.spearman_p, 1e-12 * a.spearman_p);
        EXPECT_EQ(b.kendall_tau, -a.kendall_tau);
        EXPECT_EQ(b.kendall_p, a.kendall_p);
    }
}

TEST(Trend, HugeOffsetKeepsTheNoiseDigits) {
    // The same small series with and without 1e9 added: the slope and the
    // rank statistics agree to the rounding of the shifted inputs.
    std::mt19937_64 gen(7);
    std::normal_distribution<double> noise(0, 1e-3);
    std::vector<double> small, big;
    for (int i = 0; i < 100; ++i) {
        const double e = 2e-5 * i + noise(gen);
        big.push_back(1e9 + e);
        small.push_back(big.back() - 1e9);  // exact: what big really holds
    }
    const Trend a = trend(small, 0.95), b = trend(big, 0.95);
    EXPECT_NEAR(b.slope, a.slope, 1e-12 * std::fabs(a.slope));
    EXPECT_NEAR(b.slope_p, a.slope_p, 1e-9 * a.slope_p);
    EXPECT_EQ(b.spearman_rho, a.spearman_rho);
    EXPECT_EQ(b.kendall_tau, a.kendall_tau);
}

// Kendall's tau-b of the values against their order, from every pair.
double tau_by_pairs(const std::vector<double>& v) {
    const size_t n = v.size();
    long long s = 0, tied = 0;
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j) {
            s += (v[j] > v[i]) - (v[j] < v[i]);
            tied += v[j] == v[i];
        }
    const double t0 = n * (n - 1) / 2.0;
    return s / std::sqrt((t0 - tied) * t0);
}

TEST(Trend, KendallAndSpearmanMatchBruteForceWithTies) {
    std::mt19937_64 gen(11);
    std::uniform_int_distribution<int> d(0, 40);
    std::vector<double> v(2500);
    for (double& x : v) x = d(gen);
    const size_t n = v.size();
    const double tau = tau_by_pairs(v);
    const Trend t = trend(v, 0.95);
    EXPECT_NEAR(t.kendall_tau, tau, 1e-14);
    // Spearman by mid-ranks from counting.
    std::vector<double> r(n);
    for (size_t i = 0; i < n; ++i) {
        long long less = 0, eq = 0;
        for (double y : v) {
            less += y < v[i];
            eq += y == v[i];
        }
        r[i] = less + (eq + 1) / 2.0;
    }
    double mr = (n + 1) / 2.0, sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < n; ++i) {
        sab += (r[i] - mr) * (i + 1 - mr);
        saa += (r[i] - mr) * (r[i] - mr);
        sbb += (i + 1 - mr) * (i + 1 - mr);
    }
    EXPECT_NEAR(t.spearman_rho, sab / std::sqrt(saa * sbb), 1e-12);
}

// Kendall's S counts strict inversions digit by digit (4 bits of the dense
// rank a level): several levels, groups of one value, long sorted and
// reversed stretches, and ties, against the pair count.
TEST(Trend, KendallMatchesPairCountAcrossRankDigits) {
    std::mt19937_64 gen(23);
    for (const int distinct : {2, 17, 300, 5000, 70000}) {
        std::uniform_int_distribution<int> d(0, distinct - 1);
        std::vector<double> v(3000);
        for (double& x : v) x = d(gen);
        std::sort(v.begin() + 500, v.begin() + 1200);
        std::sort(v.begin() + 1500, v.begin() + 2100, std::greater<>());
        EXPECT_NEAR(trend(v, 0.95).kendall_tau, tau_by_pairs(v), 1e-14) << distinct;
    }
}

// The ranks come from a radix sort of the values' bits: signs, -0 against
// +0 (equal, so tied), subnormals, huge magnitudes and ties must order as
// the values do. Kendall's tau and Pettitt's statistic against pair counts;
// analyse_drift (which ranks once for both) against trend and change_point.
TEST(Trend, RanksOfSignedZeroSubnormalAndHugeValues) {
    std::mt19937_64 gen(5);
    const std::vector<double> pool = {-0.0, 0.0, 5e-324, -5e-324, 1e-310, -1e300, 1e300, -1, 1, 2.5, -2.5, 3, 1e9};
    std::uniform_int_distribution<size_t> pick(0, pool.size() - 1);
    std::vector<double> v(1500);
    for (double& x : v) x = pool[pick(gen)];
    const size_t n = v.size();
    long long s = 0, tied = 0, best = -1;
    size_t best_t = 0;
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j) {
            s += (v[j] > v[i]) - (v[j] < v[i]);
            tied += v[j] == v[i];
        }
    for (size_t t = 1; t < n; ++t) {
        long long u = 0;
        for (size_t i = 0; i < t; ++i)
            for (size_t j = t; j < n; ++j) u += (v[i] > v[j]) - (v[i] < v[j]);
        if (std::llabs(u) > best) best = std::llabs(u), best_t = t;
    }
    const double t0 = n * (n - 1) / 2.0;
    const Trend t = trend(v, 0.95);
    EXPECT_NEAR(t.kendall_tau, s / std::sqrt((t0 - tied) * t0), 1e-14);
    const ChangePoint cp = change_point(v);
    EXPECT_EQ(cp.statistic, static_cast<double>(best));
    EXPECT_EQ(cp.index, best_t);
    const size_t zero = 0;
    const DriftAnalysis all = analyse_drift(v, std::span<const size_t>(&zero, 1), 0.95);
    EXPECT_EQ(all.trend.spearman_rho, t.spearman_rho);
    EXPECT_EQ(all.trend.kendall_tau, t.kendall_tau);
    EXPECT_EQ(all.change_point.statistic, cp.statistic);
    EXPECT_EQ(all.change_point.index, cp.index);
}

TEST(Trend, LargeSeries) {
    // O(n log n): 150k values take a few hundred ms under AddressSanitizer
    // (a million about 0.3 s optimised); O(n^2) would take minutes.
    std::mt19937_64 gen(3);
    std::normal_distribution<double> noise(0, 1);
    std::vector<double> v(150000);
    for (size_t i = 0; i < v.size(); ++i) v[i] = 100 + 1e-6 * i + noise(gen);
    const Trend t = trend(v, 0.95);
    ASSERT_TRUE(t.defined);
    // Within 5 standard errors (1.96 se = half the 95% interval) of the truth.
    const double se = (t.slope_ci_high - t.slope_ci_low) / (2 * 1.959964);
    EXPECT_NEAR(t.slope, 1e-6, 5 * se);
    EXPECT_NEAR(se, std::sqrt(12 / std::pow(150000.0, 3)), 0.01 * se);  // sigma 1
    EXPECT_GT(t.kendall_tau, 0);
    const ChangePoint cp = change_point(v);
    EXPECT_TRUE(cp.defined);
}

TEST(Trend, UndefinedAndInvalid) {
    EXPECT_FALSE(trend(std::vector<double>{}, 0.95).defined);
    EXPECT_FALSE(trend(std::vector<double>{1, 2}, 0.95).defined);
    EXPECT_FALSE(trend(std::vector<double>{4, 4, 4, 4}, 0.95).defined);
    EXPECT_TRUE(trend(std::vector<double>{4, 4, 5}, 0.95).defined);
    EXPECT_THROW(trend(std::vector<double>{1, 2, 3}, 1.0), std::invalid_argument);
    EXPECT_THROW(trend(std::vector<double>{1, 2, 3}, 0.0), std::invalid_argument);
    EXPECT_THROW(trend(std::vector<double>{1, 2, 3},
                       std::numeric_limits<double>::quiet_NaN()),
                 std::invalid_argument);
    EXPECT_THROW(trend(std::vector<double>{1, std::numeric_limits<double>::infinity(), 3}, 0.9),
                 std::invalid_argument);
    EXPECT_TRUE(std::isnan(trend(std::vector<double>{-1, 0, 1}, 0.9).relative_drift));
}

TEST(ChangePoint, StepAtKnownIndex) {
    const std::vector<double> v{1, 1, 1, 1, 5, 5, 5, 5, 5};
    const ChangePoint cp = change_point(v);
    ASSERT_TRUE(cp.defined);
    EXPECT_EQ(cp.index, 4u);  // the first 5
    EXPECT_EQ(cp.statistic, 20);  // 4 x 5 pairs, all of one sign
    EXPECT_DOUBLE_EQ(cp.p, 2 * std::exp(-6.0 * 400 / (729 + 81)));
    EXPECT_EQ(cp.mean_before, 1);
    EXPECT_EQ(cp.mean_after, 5);
    EXPECT_EQ(cp.median_before, 1);
    EXPECT_EQ(cp.median_after, 5);
    EXPECT_EQ(cp.relative_shift, 4);
    // Downward: same index and K.
    std::vector<double> w(v.rbegin(), v.rend());
    const ChangePoint cw = change_point(w);
    EXPECT_EQ(cw.index, 5u);
    EXPECT_EQ(cw.statistic, 20);
    EXPECT_EQ(cw.relative_shift, -0.8);
}

TEST(ChangePoint, MatchesDirectDoubleSumWithTies) {
    std::mt19937_64 gen(5);
    std::uniform_int_distribution<int> d(0, 9);
    std::vector<double> v(150);
    for (size_t i = 0; i < v.size(); ++i) v[i] = d(gen) + (i >= 90 ? 3 : 0);
    const size_t n = v.size();
    long long best = -1;
    size_t best_t = 0;
    for (size_t t = 1; t < n; ++t) {
        long long u = 0;
        for (size_t i = 0; i < t; ++i)
            for (size_t j = t; j < n; ++j) u += (v[i] > v[j]) - (v[i] < v[j]);
        if (std::llabs(u) > best) {
            best = std::llabs(u);
            best_t = t;
        }
    }
    const ChangePoint cp = change_point(v);
    EXPECT_EQ(cp.statistic, static_cast<double>(best));
    EXPECT_EQ(cp.index, best_t);
    EXPECT_NEAR(cp.index, 90, 5);
}

TEST(ChangePoint, UndefinedAndInvalid) {
    EXPECT_FALSE(change_point(std::vector<double>{1, 2, 3}).defined);
    EXPECT_FALSE(change_point(std::vector<double>{2, 2, 2, 2, 2}).defined);
    EXPECT_TRUE(change_point(std::vector<double>{2, 2, 2, 3}).defined);
    EXPECT_TRUE(std::isnan(change_point(std::vector<double>{0, 0, 1, 1}).relative_shift));
    EXPECT_THROW(change_point(std::vector<double>{1, 2, NAN, 4}), std::invalid_argument);
}

TEST(FirstRun, SingleFirstPredictionIntervalClosedForm) {
    // Others 9, 10, 11: mean 10, s = 1, m = 3; first 14: t = 4 / sqrt(4/3)
    // = 2 sqrt(3), df 2, where P(|T| > t) = 1 - t / sqrt(2 + t^2)
    // = 1 - sqrt(12/14).
    const std::vector<double> v{14, 9, 10, 11};
    const std::vector<size_t> firsts{0};
    const FirstRunEffect f = first_run_effect(v, firsts);
    ASSERT_TRUE(f.defined);
    EXPECT_EQ(f.firsts, 1u);
    EXPECT_EQ(f.others, 3u);
    EXPECT_EQ(f.mean_firsts, 14);
    EXPECT_EQ(f.mean_others, 10);
    EXPECT_EQ(f.difference, 4);
    EXPECT_EQ(f.relative_difference, 0.4);
    EXPECT_NEAR(f.p, 1 - std::sqrt(6.0 / 7.0), 1e-14);
}

TEST(FirstRun, WelchClosedForm) {
    // Firsts {12, 14} and others {9, 11}: equal variances 2 and sizes, so
    // Welch's df = 2 and t = 3 / sqrt(2/2 + 2/2) = 3 / sqrt(2); with df 2,
    // p = 1 - t / sqrt(2 + t^2) = 1 - 3 / sqrt(13).
    const std::vector<double> v{12, 9, 14, 11};
    const std::vector<size_t> firsts{0, 2, 2};  // duplicate counts once
    const FirstRunEffect f = first_run_effect(v, firsts);
    ASSERT_TRUE(f.defined);
    EXPECT_EQ(f.firsts, 2u);
    EXPECT_EQ(f.others, 2u);
    EXPECT_EQ(f.difference, 3);
    EXPECT_NEAR(f.p, 1 - 3 / std::sqrt(13.0), 1e-14);
}

TEST(FirstRun, UndefinedCasesAndErrors) {
    const std::vector<double> v{14, 9, 10, 11};
    const std::vector<size_t> none;
    FirstRunEffect f = first_run_effect(v, none);
    EXPECT_FALSE(f.defined);
    EXPECT_EQ(f.firsts, 0u);
    EXPECT_EQ(f.others, 4u);
    EXPECT_EQ(f.mean_others, 11);
    EXPECT_TRUE(std::isnan(f.mean_firsts));
    EXPECT_EQ(f.p, 1);
    // Only one other value.
    const std::vector<size_t> three{0, 1, 2};
    f = first_run_effect(v, three);
    EXPECT_FALSE(f.defined);
    EXPECT_EQ(f.others, 1u);
    EXPECT_EQ(f.difference, 11 - 11);
    // Everything is a first.
    const std::vector<size_t> all{0, 1, 2, 3};
    EXPECT_FALSE(first_run_effect(v, all).defined);
    // One first, constant others: no prediction interval.
    const std::vector<double> c{14, 10, 10, 10};
    const std::vector<size_t> zero{0};
    f = first_run_effect(c, zero);
    EXPECT_FALSE(f.defined);
    EXPECT_EQ(f.difference, 4);
    // Several firsts, both groups constant.
    const std::vector<double> cc{14, 10, 14, 10};
    const std::vector<size_t> even{0, 2};
    EXPECT_FALSE(first_run_effect(cc, even).defined);
    // Several constant firsts against varying others: Welch with df m - 1.
    const std::vector<double> cv{14, 9, 14, 11};
    EXPECT_TRUE(first_run_effect(cv, even).defined);
    // Out of range.
    const std::vector<size_t> bad{4};
    EXPECT_THROW(first_run_effect(v, bad), std::invalid_argument);
    EXPECT_THROW(first_run_effect(std::vector<double>{}, zero), std::invalid_argument);
    EXPECT_THROW(analyse_drift(v, zero, 1.5), std::invalid_argument);
}

}  // namespace
