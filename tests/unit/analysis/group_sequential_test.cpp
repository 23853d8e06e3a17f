// SPDX-License-Identifier: MIT
// analysis/group_sequential: the planned looks and the Pocock boundary of
// `ab --stop group`, checked against Pocock's table and by an independent
// simulation of whole samples; and sequential_look with a group design
// (decides only at a planned look).
#include "analysis/group_sequential.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "analysis/confidence_sequence.h"

namespace {

namespace an = gfxstat::analysis;

TEST(GroupSequential, LooksStartAtBlockFourAndEndAtTheMaximum) {
    EXPECT_EQ(an::group_looks(50), (std::vector<size_t>{4, 9, 14, 19, 24, 30, 35, 40, 45, 50}));
    EXPECT_EQ(an::group_looks(20), (std::vector<size_t>{4, 8, 12, 16, 20}));
    EXPECT_EQ(an::group_looks(10), (std::vector<size_t>{4, 10}));
    EXPECT_EQ(an::group_looks(4), (std::vector<size_t>{4}));
    EXPECT_EQ(an::group_looks(2), (std::vector<size_t>{2}));
    const auto big = an::group_looks(200);
    EXPECT_EQ(big.size(), 10u);
    EXPECT_EQ(big.front(), 4u);
    EXPECT_EQ(big.back(), 200u);
    EXPECT_THROW(an::group_looks(1), std::invalid_argument);
}

TEST(GroupSequential, OneLookIsTheFixedTTest) {
    const size_t looks[] = {10};
    const auto& b = an::group_boundary(looks, 0.05);
    // The simulation's 5% quantile of one t's p: 0.05 within its error.
    EXPECT_NEAR(b.nominal, 0.05, 0.002);
}

// Many blocks a look: the t's are nearly normal, so the level is Pocock's
// for known variance (Pocock 1977, Table 1; Jennison & Turnbull 2000,
// Table 2.1): 0.0294 for 2 looks, 0.0158 for 5 at alpha 0.05.
TEST(GroupSequential, LargeLooksGivePococksLevels) {
    const size_t two[] = {400, 800};
    EXPECT_NEAR(an::group_boundary(two, 0.05).nominal, 0.0294, 0.0008);
    const size_t five[] = {400, 800, 1200, 1600, 2000};
    EXPECT_NEAR(an::group_boundary(five, 0.05).nominal, 0.0158, 0.0006);
}

// The boundary's overall level by a simulation that shares nothing with
// its own (whole samples of normal differences, another generator, a
// mean and a scale that are not 0 and 1), tested at every look: the rate
// of any |t - mu| beyond its bound is alpha within 4 binomial standard
// errors.
TEST(GroupSequential, IndependentSimulationReproducesAlpha) {
    for (double alpha : {0.05, 0.025}) {
        const auto looks = an::group_looks(50);
        const auto& b = an::group_boundary(looks, alpha);
        ASSERT_EQ(b.critical.size(), looks.size());
        std::mt19937_64 gen(12345);
        std::normal_distribution<double> normal(3.0, 7.0);
        constexpr int kReps = 40000;
        int rejected = 0;
        std::vector<double> x(looks.back());
        for (int rep = 0; rep < kReps; ++rep) {
            for (double& v : x) v = normal(gen);
            for (size_t k = 0; k < looks.size(); ++k) {
                const size_t n = looks[k];
                double m = 0, q = 0;
                for (size_t i = 0; i < n; ++i) m += x[i];
                m /= static_cast<double>(n);
                for (size_t i = 0; i < n; ++i) q += (x[i] - m) * (x[i] - m);
                const double se = std::sqrt(q / static_cast<double>(n - 1) / static_cast<double>(n));
                if (std::fabs(m - 3.0) / se > b.critical[k]) {
                    ++rejected;
                    break;
                }
            }
        }
        const double rate = static_cast<double>(rejected) / kReps;
        const double se = std::sqrt(alpha * (1 - alpha) / kReps);
        EXPECT_NEAR(rate, alpha, 4 * se) << "alpha " << alpha << ", nominal " << b.nominal;
        // Pocock's level for 10 looks is 0.0106 at alpha 0.05 (known
        // variance); small looks with t's heavier tails move it a little.
        if (alpha == 0.05) {
            EXPECT_NEAR(b.nominal, 0.0106, 0.002);
        }
    }
}

TEST(GroupSequential, RejectsBadLooks) {
    const size_t none[] = {1, 4};
    EXPECT_THROW(an::group_boundary(none, 0.05), std::invalid_argument);
    const size_t down[] = {5, 4};
    EXPECT_THROW(an::group_boundary(down, 0.05), std::invalid_argument);
    const size_t ok[] = {4};
    EXPECT_THROW(an::group_boundary(ok, 1.5), std::invalid_argument);
}

an::SequentialOptions group_options(size_t max_blocks) {
    an::SequentialOptions o;
    o.looks = an::group_looks(max_blocks);
    return o;
}

// A +50% change under 2% noise: called at the first look, block 4, and
// never between looks, whatever the data say there.
TEST(GroupSequential, DecidesOnlyAtAPlannedLook) {
    const an::SequentialOptions o = group_options(50);
    std::vector<double> base, cand;
    const double noise[] = {0.01, -0.02, 0.015, -0.005, 0.02, -0.01, 0.0, 0.012, -0.018, 0.007};
    for (size_t i = 0; i < 10; ++i) {
        base.push_back(100 * (1 + noise[i]));
        cand.push_back(150 * (1 - noise[(i + 3) % 10]));
        const auto look = an::sequential_look(base, cand, o);
        if (i + 1 == 4 || i + 1 == 9) {
            EXPECT_EQ(look.call, an::SequentialCall::changed) << i + 1;
            EXPECT_TRUE(std::isfinite(look.lower));
            EXPECT_LE(look.p, 0.05);
        } else {
            EXPECT_EQ(look.call, an::SequentialCall::go_on) << i + 1;
            EXPECT_FALSE(std::isfinite(look.upper)) << i + 1;
        }
        if (i + 1 < 4) {
            EXPECT_EQ(look.p, 1);
        }
    }
    const auto between = an::sequential_look(std::span(base).first(6), std::span(cand).first(6), o);
    EXPECT_NE(between.needs.find("next look (block 9)"), std::string::npos) << between.needs;
    EXPECT_EQ(between.blocks_to_settle, 3u);
}

// The p and the call agree: p <= alpha exactly when a look's interval left
// 0; between looks p keeps the last look's value.
TEST(GroupSequential, PAgreesWithTheCall) {
    const an::SequentialOptions o = group_options(50);
    std::mt19937_64 gen(7);
    std::normal_distribution<double> normal(0, 1);
    for (int rep = 0; rep < 300; ++rep) {
        const double shift = 0.25 * (rep % 4);
        std::vector<double> base, cand;
        bool called = false;
        double last_p = 1;
        for (size_t i = 0; i < 50 && !called; ++i) {
            // Positive values: log ratios from the first block on.
            base.push_back(100 + normal(gen));
            cand.push_back(100 + normal(gen) + shift);
            const auto look = an::sequential_look(base, cand, o);
            const bool at_look = an::group_radius(an::group_boundary(o.looks, 0.05), i + 1) < 1e300;
            if (!at_look) {
                EXPECT_EQ(look.p, last_p);
            }
            if (look.call == an::SequentialCall::changed) {
                EXPECT_LE(look.p, 0.05);
            }
            if (look.call != an::SequentialCall::go_on) {
                called = true;
            } else if (at_look && look.call == an::SequentialCall::go_on) {
                EXPECT_GT(look.p, 0.05) << "block " << i + 1;
            }
            last_p = look.p;
        }
    }
}

}  // namespace
