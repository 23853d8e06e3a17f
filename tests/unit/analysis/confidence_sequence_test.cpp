// SPDX-License-Identifier: MIT
// analysis/confidence_sequence: the t-mixture confidence sequence that ab's stop
// rule looks at after each block.
#include "analysis/confidence_sequence.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

namespace {

using gfxstat::analysis::kSequentialMixture;
using gfxstat::analysis::kSequentialWideMixture;
using gfxstat::analysis::kSequentialWideWeight;
using gfxstat::analysis::sequential_bayes_factor;
using gfxstat::analysis::sequential_call_name;
using gfxstat::analysis::sequential_look;
using gfxstat::analysis::sequential_radius;
using gfxstat::analysis::SequentialCall;
using gfxstat::analysis::SequentialOptions;

constexpr double kInf = std::numeric_limits<double>::infinity();

double mean_of(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}

double sd_of(const std::vector<double>& v) {
    const double m = mean_of(v);
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
}

// ---------------------------------------------------------------------------
// sequential_bayes_factor against an independent computation.
//
// The reference values were computed by tests/reference/sequential_reference.py
// (/usr/bin/python3 with python3-scipy 1.10): it integrates the two marginal
// likelihoods numerically, over log sigma (prior 1/sigma) for H0 and over
// log sigma and delta ~ N(0, g) for H1, with scipy.integrate.quad at a
// relative tolerance of 1e-11..1e-12, and prints m1 / m0. It never uses the
// closed form of the header; the two agree to about 1e-14 relative.
struct ReferenceCase {
    const char* name;
    std::vector<double> d;
    double mu, g, bayes_factor;
};

const std::vector<ReferenceCase>& reference_cases() {
    static const std::vector<ReferenceCase> cases = {
        {"three", {0.012, -0.004, 0.021}, 0.0, 0.5, 1.03492964086635},
        {"three_mu", {0.012, -0.004, 0.021}, 0.01, 0.5, 0.633047072647641},
        {"five", {1.0, 2.5, 0.5, 3.0, 1.5}, 0.0, 0.5, 3.94533812217196},
        {"five_g2", {1.0, 2.5, 0.5, 3.0, 1.5}, 0.0, 2.0, 6.14746614433141},
        {"five_gsmall", {1.0, 2.5, 0.5, 3.0, 1.5}, 0.7, 0.05, 1.1886585920359},
        {"eight", {0.03, 0.025, 0.041, 0.018, 0.022, 0.035, 0.029, 0.027}, 0.0, 0.5, 127.791540608777},
        {"eight_mu", {0.03, 0.025, 0.041, 0.018, 0.022, 0.035, 0.029, 0.027}, 0.03, 0.5, 0.534164132426749},
        {"two", {-1.0, 3.0}, 0.0, 1.0, 0.666173387526491},
    };
    return cases;
}

TEST(sequential_bayes_factor, MatchesNumericalIntegrationOfTheMarginals) {
    for (const ReferenceCase& c : reference_cases()) {
        SCOPED_TRACE(c.name);
        const double b = sequential_bayes_factor(c.d, c.mu, c.g);
        EXPECT_NEAR(b, c.bayes_factor, 1e-10 * c.bayes_factor);
    }
}

TEST(sequential_bayes_factor, ScaleAndLocationInvariant) {
    // Only the t statistic of d - mu enters: scaling the data and mu, or
    // shifting both, leaves the factor alone.
    const ReferenceCase& c = reference_cases()[2];  // "five"
    std::vector<double> scaled, shifted;
    for (double x : c.d) {
        scaled.push_back(x * 0.001);
        shifted.push_back(x + 50);
    }
    EXPECT_NEAR(sequential_bayes_factor(scaled, c.mu * 0.001, c.g), c.bayes_factor, 1e-9 * c.bayes_factor);
    EXPECT_NEAR(sequential_bayes_factor(shifted, c.mu + 50, c.g), c.bayes_factor, 1e-9 * c.bayes_factor);
}

TEST(sequential_bayes_factor, FewerThanTwoDifferencesIsOne) {
    EXPECT_EQ(sequential_bayes_factor(std::vector<double>{}, 0, 0.5), 1);
    EXPECT_EQ(sequential_bayes_factor(std::vector<double>{0.3}, 0, 0.5), 1);
    EXPECT_EQ(sequential_bayes_factor(std::vector<double>{0.3}, 7, 0.5), 1);
}

TEST(sequential_bayes_factor, AllEqualDifferences) {
    // The limit for t -> infinity, (1 + n g)^((n - 1)/2), away from mu; 1 at mu.
    const std::vector<double> d(6, 0.02);
    EXPECT_NEAR(sequential_bayes_factor(d, 0, 0.5), std::pow(1 + 6 * 0.5, 2.5), 1e-9);
    EXPECT_NEAR(sequential_bayes_factor(d, 0.0, 2.0), std::pow(1 + 6 * 2.0, 2.5), 1e-9);
    EXPECT_EQ(sequential_bayes_factor(d, 0.02, 0.5), 1);
    // And the limit is where nearly equal differences tend.
    std::vector<double> near = d;
    near[3] += 1e-9;
    EXPECT_NEAR(sequential_bayes_factor(near, 0, 0.5) / std::pow(4.0, 2.5), 1, 1e-6);
}

TEST(sequential_bayes_factor, GrowsWithDistanceFromMu) {
    const std::vector<double> d = {0.01, 0.03, 0.02, 0.025, 0.015, 0.02};
    double last = 0;
    for (double mu : {0.02, 0.015, 0.01, 0.0, -0.02}) {
        const double b = sequential_bayes_factor(d, mu, 0.5);
        EXPECT_GT(b, last) << mu;
        last = b;
    }
}

TEST(sequential_bayes_factor, RejectsBadMixture) {
    const std::vector<double> d = {1, 2, 3};
    EXPECT_THROW(sequential_bayes_factor(d, 0, 0), std::invalid_argument);
    EXPECT_THROW(sequential_bayes_factor(d, 0, -1), std::invalid_argument);
    EXPECT_THROW(sequential_bayes_factor(d, 0, std::nan("")), std::invalid_argument);
}

// ---------------------------------------------------------------------------
// sequential_radius.

TEST(sequential_radius, BayesFactorAtTheBoundaryIsOneOverAlpha) {
    const std::vector<double> d = {0.011, -0.002, 0.019, 0.007, 0.013, 0.001, 0.016, 0.009,
                                   0.004, 0.022, -0.006, 0.010, 0.012, 0.008, 0.015, 0.003};
    for (double alpha : {0.05, 0.01, 0.1, 0.025}) {
        for (double g : {kSequentialMixture, 0.1, 2.0}) {
            for (size_t n = 6; n <= d.size(); ++n) {
                const std::vector<double> prefix(d.begin(), d.begin() + static_cast<long>(n));
                const double t = sequential_radius(n, alpha, g);
                if (!std::isfinite(t)) continue;
                const double m = mean_of(prefix), se = sd_of(prefix) / std::sqrt(static_cast<double>(n));
                for (double mu : {m - t * se, m + t * se}) {
                    const double b = sequential_bayes_factor(prefix, mu, g);
                    EXPECT_NEAR(b * alpha, 1, 1e-9) << "alpha " << alpha << " g " << g << " n " << n;
                }
                // Inside the interval the factor is below 1/alpha, outside above.
                EXPECT_LT(sequential_bayes_factor(prefix, m + 0.99 * t * se, g), 1 / alpha);
                EXPECT_GT(sequential_bayes_factor(prefix, m + 1.01 * t * se, g), 1 / alpha);
            }
        }
    }
}

TEST(sequential_radius, InfiniteUntilTheMixtureCanReachOneOverAlpha) {
    // The factor's supremum over t is (1 + n g)^((n - 1)/2): the radius is
    // finite from the first n where that exceeds 1/alpha. At the defaults
    // (alpha 0.05, g 0.5): n = 5 gives 3.5^2 = 12.25 < 20, n = 6 gives 4^2.5 = 32.
    EXPECT_EQ(sequential_radius(0, 0.05, 0.5), kInf);
    EXPECT_EQ(sequential_radius(1, 0.05, 0.5), kInf);
    for (size_t n = 2; n <= 5; ++n) EXPECT_EQ(sequential_radius(n, 0.05, 0.5), kInf) << n;
    EXPECT_TRUE(std::isfinite(sequential_radius(6, 0.05, 0.5)));
    for (double alpha : {0.2, 0.05, 0.01, 0.001}) {
        for (double g : {0.05, 0.5, 3.0}) {
            size_t first = 2;
            while (std::pow(1 + static_cast<double>(first) * g, (static_cast<double>(first) - 1) / 2) <= 1 / alpha)
                ++first;
            EXPECT_EQ(sequential_radius(first - 1, alpha, g), kInf) << alpha << " " << g;
            EXPECT_TRUE(std::isfinite(sequential_radius(first, alpha, g))) << alpha << " " << g;
        }
    }
}

TEST(sequential_radius, ClosedFormCases) {
    // n = 3, g = 1: B = (1/2) [(1 + t^2/2) / (1 + t^2/8)]^(3/2); at t^2 = 8
    // that is (1/2) 2.5^1.5, so with alpha = 2 / 2.5^1.5 the radius is sqrt 8.
    EXPECT_NEAR(sequential_radius(3, 2 / std::pow(2.5, 1.5), 1.0), std::sqrt(8.0), 1e-12);
    // n = 2, g = 4 (1 + n g = 9): B = (1/3) [(1 + t^2) / (1 + t^2/9)]; B = 2
    // at 1 + t^2 = 6 + 6 t^2 / 9, t^2 = 15.
    EXPECT_NEAR(sequential_radius(2, 0.5, 4.0), std::sqrt(15.0), 1e-12);
    // A large n tends to the normal-mixture boundary:
    // t^2 ~ (1 + 1/(n g)) (log(1 + n g) + 2 log(1/alpha)).
    const double n = 1e7, g = 0.5, alpha = 0.05;
    const double approx = std::sqrt((1 + 1 / (n * g)) * (std::log(1 + n * g) + 2 * std::log(1 / alpha)));
    EXPECT_NEAR(sequential_radius(static_cast<size_t>(n), alpha, g), approx, 1e-3 * approx);
}

TEST(sequential_radius, ShrinksInStandardErrorsTimesRootN) {
    // The half-width in units of sd, T_n / sqrt(n), falls with n once finite.
    double last = kInf;
    for (size_t n = 6; n < 5000; n += 7) {
        const double h = sequential_radius(n, 0.05, 0.5) / std::sqrt(static_cast<double>(n));
        EXPECT_LE(h, last) << n;
        last = h;
    }
    // And it is wider than the fixed-n t interval (the price of looking often).
    EXPECT_GT(sequential_radius(30, 0.05, 0.5), 2.05);
}

TEST(sequential_radius, RejectsBadArguments) {
    EXPECT_THROW(sequential_radius(10, 0, 0.5), std::invalid_argument);
    EXPECT_THROW(sequential_radius(10, 1, 0.5), std::invalid_argument);
    EXPECT_THROW(sequential_radius(10, 0.05, 0), std::invalid_argument);
    EXPECT_THROW(sequential_radius(10, 0.05, kInf), std::invalid_argument);
    EXPECT_THROW(sequential_radius(10, std::nan(""), 0.5), std::invalid_argument);
}

// ---------------------------------------------------------------------------
// sequential_look.

// Baseline 100 and candidate 100 * exp(d_i) per block: the log ratios are d.
void blocks_with_log_ratios(const std::vector<double>& d, std::vector<double>& base, std::vector<double>& cand) {
    base.clear();
    cand.clear();
    for (size_t i = 0; i < d.size(); ++i) {
        const double b = 100 + static_cast<double>(i % 3);  // the baseline moves; the ratio does not
        base.push_back(b);
        cand.push_back(b * std::exp(d[i]));
    }
}

TEST(sequential_look, ChangedUpwards) {
    std::vector<double> d, b, c;
    for (int i = 0; i < 12; ++i) d.push_back(0.05 + 0.01 * ((i * 7) % 5 - 2));
    blocks_with_log_ratios(d, b, c);
    const auto look = sequential_look(b, c, SequentialOptions{});
    EXPECT_TRUE(look.log_ratio);
    EXPECT_EQ(look.blocks, 12u);
    EXPECT_EQ(look.call, SequentialCall::changed);
    EXPECT_GT(look.lower, 0);
    EXPECT_NEAR(look.relative_change, std::expm1(mean_of(d)), 1e-12);
    EXPECT_LT(look.lower, look.relative_change);
    EXPECT_GT(look.upper, look.relative_change);
    EXPECT_LE(look.p, 0.05);
    EXPECT_FALSE(look.blocks_to_settle.has_value());
    EXPECT_STREQ(sequential_call_name(look.call), "changed");
}

TEST(sequential_look, ChangedDownwards) {
    std::vector<double> d, b, c;
    for (int i = 0; i < 12; ++i) d.push_back(-0.05 + 0.01 * ((i * 7) % 5 - 2));
    blocks_with_log_ratios(d, b, c);
    const auto look = sequential_look(b, c, SequentialOptions{});
    EXPECT_EQ(look.call, SequentialCall::changed);
    EXPECT_LT(look.upper, 0);
    EXPECT_LT(look.relative_change, 0);
    EXPECT_LE(look.p, 0.05);
}

TEST(sequential_look, Equivalent) {
    // Log ratios within +-0.1%: the interval fits inside +-1% after some blocks.
    std::vector<double> d, b, c;
    for (int i = 0; i < 40; ++i) d.push_back(0.001 * ((i * 7) % 5 - 2));
    blocks_with_log_ratios(d, b, c);
    const auto look = sequential_look(b, c, SequentialOptions{});
    EXPECT_EQ(look.call, SequentialCall::equivalent);
    EXPECT_GT(look.lower, -0.01);
    EXPECT_LT(look.upper, 0.01);
    EXPECT_STREQ(sequential_call_name(look.call), "equivalent");
    // Threshold 0 never calls equivalent.
    SequentialOptions strict;
    strict.threshold = 0;
    EXPECT_NE(sequential_look(b, c, strict).call, SequentialCall::equivalent);
}

TEST(sequential_look, GoOnWhileTheIntervalIsWide) {
    std::vector<double> d = {0.03, -0.02, 0.01, -0.04, 0.05, 0.0, -0.01, 0.02};
    std::vector<double> b, c;
    blocks_with_log_ratios(d, b, c);
    const auto look = sequential_look(b, c, SequentialOptions{});
    EXPECT_EQ(look.call, SequentialCall::go_on);
    EXPECT_LT(look.lower, 0);
    EXPECT_GT(look.upper, 0);
    EXPECT_GT(look.p, 0.05);
    ASSERT_TRUE(look.blocks_to_settle.has_value());
    EXPECT_GT(*look.blocks_to_settle, 0u);
    EXPECT_NE(look.needs.find("must leave 0"), std::string::npos) << look.needs;
    EXPECT_STREQ(sequential_call_name(look.call), "go on");
}

TEST(sequential_look, FewBlocksGoOnUnbounded) {
    std::vector<double> b = {100, 101, 99}, c = {150, 151, 149};
    for (size_t n = 0; n <= 3; ++n) {
        const auto look = sequential_look(std::span(b).first(n), std::span(c).first(n), SequentialOptions{});
        EXPECT_EQ(look.call, SequentialCall::go_on) << n;  // radius infinite for n <= 3 at the defaults
        EXPECT_EQ(look.upper, kInf) << n;
        EXPECT_EQ(look.blocks, n);
    }
    EXPECT_FALSE(sequential_look(std::span(b).first(1), std::span(c).first(1), SequentialOptions{})
                     .blocks_to_settle.has_value());
}

TEST(sequential_look, IntervalIsTheRadiusOnTheLogScale) {
    std::vector<double> d = {0.011, -0.002, 0.019, 0.007, 0.013, 0.001, 0.016, 0.009, 0.004, 0.022};
    std::vector<double> b, c;
    blocks_with_log_ratios(d, b, c);
    const auto look = sequential_look(b, c, SequentialOptions{});
    const double t = sequential_radius(d.size(), SequentialOptions{});
    const double m = mean_of(d), h = t * sd_of(d) / std::sqrt(static_cast<double>(d.size()));
    EXPECT_NEAR(look.lower, std::expm1(m - h), 1e-10);
    EXPECT_NEAR(look.upper, std::expm1(m + h), 1e-10);
    // In units: the relative interval times the baseline's geometric mean.
    double lg = 0;
    for (double x : b) lg += std::log(x);
    const double gm = std::exp(lg / static_cast<double>(b.size()));
    EXPECT_NEAR(look.baseline_center, gm, 1e-9);
    EXPECT_NEAR(look.change_lower, look.lower * gm, 1e-9);
    EXPECT_NEAR(look.change_upper, look.upper * gm, 1e-9);
}

TEST(sequential_look, NonPositiveValueSwitchesToDifferences) {
    // One baseline value 0: plain differences, relative to |mean(baseline)|.
    std::vector<double> b = {0, 10, 10, 10, 10, 10, 10, 10, 10, 10};
    std::vector<double> c = {1, 11, 11.2, 10.8, 11.1, 10.9, 11, 11.05, 10.95, 11};
    const auto look = sequential_look(b, c, SequentialOptions{});
    EXPECT_FALSE(look.log_ratio);
    std::vector<double> d;
    for (size_t i = 0; i < b.size(); ++i) d.push_back(c[i] - b[i]);
    EXPECT_NEAR(look.change, mean_of(d), 1e-12);
    EXPECT_NEAR(look.baseline_center, 9, 1e-12);
    EXPECT_NEAR(look.relative_change, mean_of(d) / 9, 1e-12);
    const double t = sequential_radius(d.size(), SequentialOptions{});
    const double h = t * sd_of(d) / std::sqrt(static_cast<double>(d.size()));
    EXPECT_NEAR(look.change_lower, mean_of(d) - h, 1e-10);
    EXPECT_NEAR(look.lower, (mean_of(d) - h) / 9, 1e-10);
    EXPECT_EQ(look.call, SequentialCall::changed);
    // A negative candidate value too.
    std::vector<double> c2 = c;
    c2[0] = -1;
    // Without the first block every value is positive: log ratios.
    EXPECT_TRUE(sequential_look(std::vector<double>(b.begin() + 1, b.end()),
                                std::vector<double>(c.begin() + 1, c.end()), SequentialOptions{})
                    .log_ratio);
    b[0] = 10;
    EXPECT_FALSE(sequential_look(b, c2, SequentialOptions{}).log_ratio);
}

TEST(sequential_look, PIsTheRunningMaximumOverLooks) {
    // A strong early effect that later data dilute: the p stays at the
    // smallest value any prefix reached (1 / max B_k(0)).
    std::vector<double> d = {0.05, 0.051, 0.049, 0.05, 0.052, 0.048, 0.05, 0.051};
    for (int i = 0; i < 30; ++i) d.push_back(0.02 * ((i * 7) % 5 - 2));
    std::vector<double> b, c;
    blocks_with_log_ratios(d, b, c);
    double best = 1, last_b0 = 0;
    for (size_t k = 2; k <= d.size(); ++k) {
        last_b0 = sequential_bayes_factor(std::span(d).first(k), 0, kSequentialMixture, kSequentialWideMixture, kSequentialWideWeight);
        best = std::min(best, 1 / last_b0);
    }
    const auto look = sequential_look(b, c, SequentialOptions{});
    EXPECT_NEAR(look.p, best, 1e-9 * best);
    EXPECT_LT(look.p, 1 / last_b0);  // not the last look's own 1 / B_n(0)
    EXPECT_LE(look.p, 0.05);         // some look excluded 0 ...
    EXPECT_NE(look.call, SequentialCall::changed);  // ... though this one does not
}

TEST(sequential_look, BlocksToSettleIsTheFirstSettlingBlockCount) {
    // Against a plain scan of sequential_radius: the first m > n where the
    // interval at this mean and spread leaves 0 or fits inside the band.
    const std::vector<std::vector<double>> sets = {
        {0.03, -0.02, 0.01, -0.04, 0.05, 0.0, -0.01, 0.02},
        {0.013, -0.002, 0.019, 0.007, 0.001, 0.016, 0.009, -0.01},
        {0.008, -0.012, 0.004, 0.016, -0.008, 0.0, 0.012, -0.004},
        {0.2, -0.3, 0.1, 0.4, -0.25, 0.05, 0.3, -0.15},
    };
    for (size_t si = 0; si < sets.size(); ++si) {
        const auto& d = sets[si];
        std::vector<double> b, c;
        blocks_with_log_ratios(d, b, c);
        const auto look = sequential_look(b, c, SequentialOptions{});
        ASSERT_EQ(look.call, SequentialCall::go_on) << si;
        const double m = mean_of(d), s = sd_of(d);
        const double band_lo = std::log1p(-0.01), band_hi = std::log1p(0.01);
        std::optional<size_t> want;
        for (size_t k = d.size() + 1; k <= d.size() + 1000000; ++k) {
            const double t = sequential_radius(k, SequentialOptions{});
            const double h = t * s / std::sqrt(static_cast<double>(k));
            if ((m - h > band_lo && m + h < band_hi) || m - h > 0 || m + h < 0) {
                want = k - d.size();
                break;
            }
        }
        ASSERT_TRUE(want.has_value()) << si;
        ASSERT_TRUE(look.blocks_to_settle.has_value()) << si;
        EXPECT_EQ(*look.blocks_to_settle, *want) << si;
    }
}

TEST(sequential_look, TiesOfAMetricThatIsNotExactAreNoEvidence) {
    // A discrete metric (fps locked at 60) ties in every block: no
    // interval, no call, no p, however many blocks.
    std::vector<double> b(30, 60), c(30, 60), d(30, 30);
    for (const auto* cand : {&c, &d}) {
        const auto look = sequential_look(b, *cand, SequentialOptions{});
        EXPECT_EQ(look.call, SequentialCall::go_on);
        EXPECT_EQ(look.p, 1);
        EXPECT_FALSE(std::isfinite(look.upper));
        EXPECT_FALSE(look.blocks_to_settle);
    }
    // Once the differences vary, the look is the t-mixture's, and the tied
    // prefixes add nothing to p: p is the running maximum of the looks
    // with spread only.
    std::vector<double> c2(30, 60);
    c2[29] = 30;
    SequentialOptions exact;
    exact.exact = true;
    const auto varied = sequential_look(b, c2, SequentialOptions{});
    EXPECT_TRUE(std::isfinite(varied.upper));
    EXPECT_NEAR(varied.p, std::min(1.0, 1 / sequential_bayes_factor(
                                            [&] {
                                                std::vector<double> r;
                                                for (size_t i = 0; i < 30; ++i) r.push_back(std::log(c2[i] / b[i]));
                                                return r;
                                            }(),
                                            0, kSequentialMixture, kSequentialWideMixture, kSequentialWideWeight)),
                1e-12);
    EXPECT_LT(sequential_look(b, d, exact).p, 0.05) << "exact: ties are the change itself";
}

TEST(sequential_look, AllEqualDifferences) {
    // Every block the same ratio of an exact metric: the interval is the
    // point once the radius is finite.
    SequentialOptions exact;
    exact.exact = true;
    std::vector<double> b(8, 100), c(8, 102);
    const auto look = sequential_look(b, c, exact);
    EXPECT_EQ(look.call, SequentialCall::changed);
    EXPECT_NEAR(look.lower, 0.02, 1e-12);
    EXPECT_NEAR(look.upper, 0.02, 1e-12);
    EXPECT_NEAR(look.p,
                1 / ((1 - kSequentialWideWeight) * std::pow(1 + 8 * kSequentialMixture, 3.5) +
                     kSequentialWideWeight * std::pow(1 + 8 * kSequentialWideMixture, 3.5)),
                1e-12);
    // Identical variants: equivalent (a zero-width interval at 0).
    const auto same = sequential_look(b, b, exact);
    EXPECT_EQ(same.call, SequentialCall::equivalent);
    EXPECT_EQ(same.p, 1);
    EXPECT_EQ(same.lower, 0);
    EXPECT_EQ(same.upper, 0);
    // Before the radius is finite, even identical ratios go on.
    EXPECT_EQ(sequential_look(std::span(b).first(3), std::span(c).first(3), exact).call,
              SequentialCall::go_on);
    // A ratio inside the band, constant: equivalent rather than changed.
    std::vector<double> c_small(8, 100.5);
    EXPECT_EQ(sequential_look(b, c_small, exact).call, SequentialCall::equivalent);
    // The band is +-1% on the ratio: (ln 0.99, ln 1.01) on the log scale,
    // wider below 0 than above. -0.995% is inside, -1.01% and +1.005% are not.
    const auto at = [&](double candidate) {
        return sequential_look(b, std::vector<double>(8, candidate), exact).call;
    };
    EXPECT_EQ(at(99.005), SequentialCall::equivalent);
    EXPECT_EQ(at(100.995), SequentialCall::equivalent);
    EXPECT_EQ(at(98.99), SequentialCall::changed);
    EXPECT_EQ(at(101.005), SequentialCall::changed);
}

// The two-part prior: (1 - w) B(g) + w B(G).

TEST(sequential_bayes_factor, TwoPartsAreTheWeightedSum) {
    const std::vector<double> d = {0.3, -0.1, 0.5, 0.2, 0.05, 0.4, -0.2};
    for (double mu : {0.0, 0.1, -0.3})
        for (double w : {0.05, 0.3}) {
            const double want = (1 - w) * sequential_bayes_factor(d, mu, 0.5) + w * sequential_bayes_factor(d, mu, 100);
            EXPECT_NEAR(sequential_bayes_factor(d, mu, 0.5, 100, w), want, 1e-12 * want) << mu << " " << w;
        }
    EXPECT_EQ(sequential_bayes_factor(d, 0.1, 0.5, 100, 0), sequential_bayes_factor(d, 0.1, 0.5));
}

TEST(sequential_radius, TwoPartsBayesFactorAtTheBoundaryIsOneOverAlpha) {
    const std::vector<double> base = {0.3, -0.1, 0.5, 0.2, 0.05, 0.4, -0.2, 0.1, 0.15, 0.0, 0.35, -0.05};  // NOLINT
    for (size_t n : {4, 5, 6, 8, 12})
        for (double alpha : {0.05, 0.01}) {
            const double t = sequential_radius(n, alpha, 0.5, 100, 0.05);
            if (!std::isfinite(t)) continue;
            const auto prefix = std::span(base).first(n);
            const double m = mean_of({prefix.begin(), prefix.end()});
            const double se = sd_of({prefix.begin(), prefix.end()}) / std::sqrt(static_cast<double>(n));
            EXPECT_NEAR(sequential_bayes_factor(prefix, m + t * se, 0.5, 100, 0.05) * alpha, 1, 1e-9) << n;
        }
    // No wide part: the closed form.
    EXPECT_EQ(sequential_radius(12, 0.05, 0.5, 100, 0), sequential_radius(12, 0.05, 0.5));
    // The wide part costs the usual sizes little: T_20 within 2% of the
    // main part's alone.
    EXPECT_LT(sequential_radius(20, 0.05, 0.5, 100, 0.05) / sequential_radius(20, 0.05, 0.5), 1.02);
}

TEST(sequential_radius, TwoPartsBoundFromBlockFour) {
    for (size_t n = 0; n <= 3; ++n) EXPECT_EQ(sequential_radius(n, SequentialOptions{}), kInf) << n;
    EXPECT_TRUE(std::isfinite(sequential_radius(4, SequentialOptions{})));
    EXPECT_THROW(sequential_radius(10, 0.05, 0.5, 0, 0.05), std::invalid_argument);
    EXPECT_THROW(sequential_radius(10, 0.05, 0.5, 100, 1), std::invalid_argument);
    EXPECT_THROW(sequential_radius(10, 0.05, 0.5, 100, -0.1), std::invalid_argument);
}

TEST(sequential_look, LargeChangeIsCalledAtBlockFour) {
    // +50% under about 2% noise: decided at block 4, not 6.
    const std::vector<double> b = {100, 102, 98, 101, 99, 100};
    const std::vector<double> c = {151, 148, 150, 152, 149, 150};
    EXPECT_EQ(sequential_look(std::span(b).first(3), std::span(c).first(3), SequentialOptions{}).call,
              SequentialCall::go_on);
    EXPECT_EQ(sequential_look(std::span(b).first(4), std::span(c).first(4), SequentialOptions{}).call,
              SequentialCall::changed);
    // Without the wide part, block 6.
    SequentialOptions main_only;
    main_only.wide_weight = 0;
    EXPECT_EQ(sequential_look(std::span(b).first(5), std::span(c).first(5), main_only).call, SequentialCall::go_on);
    EXPECT_EQ(sequential_look(b, c, main_only).call, SequentialCall::changed);
}

TEST(sequential_look, InvalidArgumentsThrow) {
    std::vector<double> b = {1, 2, 3}, c = {1, 2};
    EXPECT_THROW(sequential_look(b, c, SequentialOptions{}), std::invalid_argument);
    c = {1, 2, std::nan("")};
    EXPECT_THROW(sequential_look(b, c, SequentialOptions{}), std::invalid_argument);
    c = {1, 2, kInf};
    EXPECT_THROW(sequential_look(b, c, SequentialOptions{}), std::invalid_argument);
    c = {1, 2, 3};
    SequentialOptions o;
    o.confidence = 1;
    EXPECT_THROW(sequential_look(b, c, o), std::invalid_argument);
    o.confidence = 0;
    EXPECT_THROW(sequential_look(b, c, o), std::invalid_argument);
    o = {};
    o.threshold = -0.01;
    EXPECT_THROW(sequential_look(b, c, o), std::invalid_argument);
    o = {};
    o.threshold = kInf;
    EXPECT_THROW(sequential_look(b, c, o), std::invalid_argument);
    o = {};
    o.mixture = 0;
    EXPECT_THROW(sequential_look(b, c, o), std::invalid_argument);
    EXPECT_NO_THROW(sequential_look(b, c, SequentialOptions{}));
}

TEST(sequential_look, ConfidenceWidensTheInterval) {
    std::vector<double> d = {0.011, -0.002, 0.019, 0.007, 0.013, 0.001, 0.016, 0.009, 0.004, 0.022};
    std::vector<double> b, c;
    blocks_with_log_ratios(d, b, c);
    SequentialOptions lo, hi;
    lo.confidence = 0.9;
    hi.confidence = 0.99;
    const auto a = sequential_look(b, c, lo), z = sequential_look(b, c, hi);
    EXPECT_LT(z.lower, a.lower);
    EXPECT_GT(z.upper, a.upper);
    EXPECT_EQ(a.p, z.p);  // the p does not depend on the confidence
}

}  // namespace

// ---------------------------------------------------------------------------
// settling_advice: the threshold the budget can likely settle, found by
// inverting blocks_to_settle.

// Ten blocks of an A/A experiment at about 10% noise a block difference.
const std::vector<double> kNoisyAa = {0.08, -0.12, 0.05, -0.03, 0.11, -0.09, 0.02, -0.06, 0.13, -0.10};

TEST(settling_advice, TheProposedThresholdIsTheSmallestWithinTheBudget) {
    using gfxstat::analysis::blocks_to_settle_in_all;
    using gfxstat::analysis::settling_advice;
    std::vector<double> b, c;
    blocks_with_log_ratios(kNoisyAa, b, c);
    SequentialOptions o;  // +-1%
    const auto a = settling_advice(b, c, o, 100);
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->max_blocks, 100u);
    EXPECT_DOUBLE_EQ(a->threshold, 0.01);
    // What +-1% needs is blocks_to_settle's own figure, beyond the budget.
    const auto look = sequential_look(b, c, o);
    ASSERT_TRUE(look.blocks_to_settle.has_value());
    ASSERT_TRUE(a->blocks_needed.has_value());
    EXPECT_EQ(*a->blocks_needed, 10 + *look.blocks_to_settle);
    EXPECT_GT(*a->blocks_needed, 100u);
    ASSERT_TRUE(a->settling_threshold.has_value());
    const double t = *a->settling_threshold;
    EXPECT_GT(t, 0.01);
    EXPECT_LT(t, 1);
    // At the proposed threshold the predicted blocks fit the budget...
    SequentialOptions at = o;
    at.threshold = t;
    const auto m = blocks_to_settle_in_all(b, c, at);
    ASSERT_TRUE(m.has_value());
    EXPECT_LE(*m, 100u);
    EXPECT_EQ(*m, a->settling_blocks);
    // ...and one step of its 2 significant digits smaller they do not.
    const double pct = 100 * t;
    const double step = std::pow(10.0, std::floor(std::log10(pct)) - 1);
    EXPECT_NEAR(pct / step, std::round(pct / step), 1e-9) << pct;  // 2 significant digits
    at.threshold = (pct - step) / 100;
    const auto smaller = blocks_to_settle_in_all(b, c, at);
    EXPECT_TRUE(!smaller || *smaller > 100u) << at.threshold;
}

TEST(settling_advice, PredictedBlocksNeverGrowWithTheThreshold) {
    using gfxstat::analysis::blocks_to_settle_in_all;
    std::vector<double> b, c;
    blocks_with_log_ratios(kNoisyAa, b, c);
    SequentialOptions o;
    size_t previous = std::numeric_limits<size_t>::max();
    size_t fell = 0;
    for (double t = 0.005; t < 0.5; t *= 1.2) {
        o.threshold = t;
        const auto m = blocks_to_settle_in_all(b, c, o);
        const size_t now = m ? *m : std::numeric_limits<size_t>::max();
        EXPECT_LE(now, previous) << t;
        fell += now < previous;
        previous = now;
    }
    EXPECT_GT(fell, 5u);  // the grid spans the range where it matters
}

TEST(settling_advice, NoneWhenTheBudgetSufficesOrNothingIsBoundedOrSettled) {
    using gfxstat::analysis::settling_advice;
    std::vector<double> b, c;
    blocks_with_log_ratios(kNoisyAa, b, c);
    SequentialOptions o;
    const auto look = sequential_look(b, c, o);
    ASSERT_TRUE(look.blocks_to_settle.has_value());
    // A budget that holds what +-1% needs: nothing to advise.
    EXPECT_FALSE(settling_advice(b, c, o, 10 + *look.blocks_to_settle).has_value());
    EXPECT_TRUE(settling_advice(b, c, o, 10 + *look.blocks_to_settle - 1).has_value());
    // Three blocks: the interval is not bounded yet.
    EXPECT_FALSE(settling_advice(std::span(b).first(3), std::span(c).first(3), o, 100).has_value());
    // 1% noise at +-5%: settles within the budget.
    std::vector<double> quiet;
    for (double d : kNoisyAa) quiet.push_back(d / 10);
    blocks_with_log_ratios(quiet, b, c);
    o.threshold = 0.05;
    EXPECT_FALSE(settling_advice(b, c, o, 100).has_value());
}

TEST(settling_advice, NoThresholdWhenEvenAHundredPercentNeedsMore) {
    using gfxstat::analysis::settling_advice;
    std::vector<double> wild;
    for (double d : kNoisyAa) wild.push_back(d * 20);  // +-200% a block
    std::vector<double> b, c;
    blocks_with_log_ratios(wild, b, c);
    const auto a = settling_advice(b, c, SequentialOptions{}, 12);
    ASSERT_TRUE(a.has_value());
    EXPECT_FALSE(a->settling_threshold.has_value());
}
