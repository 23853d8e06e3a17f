// SPDX-License-Identifier: MIT
// The bars the per-sample sentences must meet, on fixed seeds (the full
// tables: tools/diagnostic_rates.cpp, docs/diagnostics.md). Clean samples
// of the unimodal families of tools/sample_families.h get an outlier or a
// bimodality sentence at most 5% of the time and a drift sentence at most
// 1%; each bar is checked against the 99th percentile of the binomial
// count at that rate, so that a rule that holds the bar passes on any
// seed with 99% probability and one that misses it by a few points fails.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "analysis/diagnostics.h"
#include "analysis/drift.h"
#include "analysis/outlier_cutoffs.h"
#include "tools/sample_families.h"

namespace gfxstat::analysis {
namespace {

using tools::Family;

// The 99th percentile of Binomial(reps, rate), normal approximation with
// continuity: the most counts a rule holding `rate` shows 99% of the time.
int allowed(int reps, double rate) {
    const double mean = reps * rate, sd = std::sqrt(reps * rate * (1 - rate));
    return static_cast<int>(std::ceil(mean + 2.326 * sd + 0.5));
}

TEST(DiagnosticRates, OutlierSentenceOnCleanSamples) {
    const int reps = 3000;
    for (Family f : tools::kUnimodalFamilies)
        for (size_t n : {3, 4, 5, 6, 10, 30, 50}) {
            tools::FamilyRng rng(77 + 131 * static_cast<uint64_t>(f) + n);
            int flagged = 0;
            for (int r = 0; r < reps; ++r) flagged += find_outliers(tools::draw(f, n, rng)).reported > 0;
            EXPECT_LE(flagged, allowed(reps, 0.05)) << tools::family_name(f) << " n=" << n;
        }
}

TEST(DiagnosticRates, OutlierCutoffIsCalibratedNotJustLarge) {
    // The cutoff is the 96th percentile for the worst family: with
    // another seed, that family crosses it in about 4% of samples, not
    // far fewer (a cutoff set needlessly high would pass the bar above and
    // lose power for nothing). t3 sets it at these n.
    const int reps = 6000;
    for (size_t n : {10, 30}) {
        tools::FamilyRng rng(4242 + n);
        int flagged = 0;
        for (int r = 0; r < reps; ++r) flagged += find_outliers(tools::draw(Family::student_t3, n, rng)).reported > 0;
        EXPECT_GE(flagged, reps * 3 / 100) << "n=" << n;
        EXPECT_LE(flagged, allowed(reps, 0.05)) << "n=" << n;
    }
}

TEST(DiagnosticRates, OutlierCutoffBetweenAndBeyondTheTable) {
    EXPECT_TRUE(std::isinf(outlier_cutoff(2)));
    EXPECT_TRUE(std::isinf(outlier_cutoff(0)));
    const auto t = outlier_cutoff_table();
    ASSERT_EQ(t.front().n, 3u);
    for (const auto& row : t) {
        EXPECT_EQ(outlier_cutoff(row.n), row.cutoff) << row.n;
        EXPECT_GE(row.cutoff, 3.5) << row.n;
    }
    // Linear in log n between 100 and 120.
    const double c100 = outlier_cutoff(100), c120 = outlier_cutoff(120);
    EXPECT_NEAR(outlier_cutoff(110), c100 + std::log(1.1) / std::log(1.2) * (c120 - c100), 1e-12);
    // As n^(1/3) past the last size.
    const OutlierCutoff last = t.back();
    EXPECT_NEAR(outlier_cutoff(8 * last.n), 2 * last.cutoff, 1e-12);
}

TEST(DiagnosticRates, OutlierTenSdOutIsFound) {
    // What the cutoff costs: t3's tail sets it at 9-13 robust sds from
    // n = 8 on, so a value 10 sd out of N(100, 1) is found in about 30-55%
    // of samples of 5-20 (measured 32%, 52%, 47% at n = 5, 10, 20) and
    // less often beyond (docs/diagnostics.md has the whole curve). The
    // bars sit about 3 standard errors below those rates.
    const int reps = 1000;
    const std::vector<std::pair<size_t, double>> at_least = {{5, 0.27}, {10, 0.47}, {20, 0.42}};
    for (const auto& [n, share] : at_least) {
        tools::FamilyRng rng(99 + n);
        int found = 0;
        for (int r = 0; r < reps; ++r) {
            const std::vector<double> x = tools::draw(Family::outlier_10sd, n, rng);
            const OutlierReport o = find_outliers(x);
            bool hit = false;
            for (const auto& k : o.outliers) hit |= k.reported && k.value == 110;
            found += hit && o.reported == 1;
        }
        EXPECT_GE(found, share * reps) << "n=" << n;
    }
}

TEST(DiagnosticRates, BimodalSentenceOnUnimodalSamples) {
    const int reps = 300;
    for (Family f : tools::kUnimodalFamilies)
        for (size_t n : {10, 20, 50}) {
            tools::FamilyRng rng(5 + 977 * static_cast<uint64_t>(f) + n);
            int called = 0;
            for (int r = 0; r < reps; ++r) called += judge_bimodality(tools::draw(f, n, rng)).bimodal;
            EXPECT_LE(called, allowed(reps, 0.05)) << tools::family_name(f) << " n=" << n;
        }
}

TEST(DiagnosticRates, RealModesAreFound) {
    const int reps = 200;
    struct Want {
        Family f;
        size_t n;
        double share;
    };
    for (const auto& [f, n, share] : std::vector<Want>{{Family::bimodal_d4, 50, 0.9}, {Family::fps_60_30, 50, 0.5}}) {
        tools::FamilyRng rng(3 + n);
        int found = 0;
        for (int r = 0; r < reps; ++r) found += judge_bimodality(tools::draw(f, n, rng)).bimodal;
        EXPECT_GE(found, share * reps) << tools::family_name(f) << " n=" << n;
    }
}

TEST(DiagnosticRates, DriftSentenceOnDriftFreeSamples) {
#ifdef GFXSTAT_SANITIZED_BUILD
    // Ten times slower under the sanitizers; the binomial bar of allowed()
    // widens with fewer replicates, so the check stays honest.
    const int reps = 500;
#else
    const int reps = 2000;
#endif
    // Rates of drift-free normal samples at 0.01 for each test were 0.8%
    // at n = 8 and 1.1-1.4% from 10 on (docs/diagnostics.md).
    for (Family f : {Family::normal, Family::student_t3})
        for (size_t n : {8, 12}) {
            tools::FamilyRng rng(11 + 31 * static_cast<uint64_t>(f) + n);
            int drifting = 0;
            for (int r = 0; r < reps; ++r) {
                const SampleDiagnostics d = diagnose_sample(tools::draw(f, n, rng), {}, {});
                drifting += d.trending || d.shifted || d.trending_within_boots;
            }
            EXPECT_LE(drifting, allowed(reps, 0.01)) << tools::family_name(f) << " n=" << n;
        }
}

TEST(DiagnosticRates, TrendAndChangePointShareTheDriftLevel) {
    // A series whose Spearman trend has p between 0.005 and 0.01, clearly
    // larger than the 1% threshold: at 0.01 for each of two tests the union
    // would exceed 1%, so each is judged at 0.005 and this one is not
    // flagged. Found by search over a fixed seed, then checked: its p.
    tools::FamilyRng rng(2024);
    for (int tries = 0; tries < 20000; ++tries) {
        std::vector<double> x = tools::draw(Family::normal, 30, rng);
        for (size_t i = 0; i < x.size(); ++i) x[i] += 0.05 * static_cast<double>(i);
        const Trend t = trend(x, 0.95);
        const ChangePoint c = change_point(x);
        if (!(t.spearman_p > 0.005 && t.spearman_p < 0.01 && c.p > 0.01 && std::fabs(t.relative_drift) > 0.01))
            continue;
        const SampleDiagnostics d = diagnose_sample(x, {}, {});
        EXPECT_FALSE(d.trending) << "Spearman p = " << t.spearman_p;
        // The same trend at p < 0.005 is flagged.
        for (size_t i = 0; i < x.size(); ++i) x[i] += 0.05 * static_cast<double>(i);
        const SampleDiagnostics stronger = diagnose_sample(x, {}, {});
        EXPECT_TRUE(trend(x, 0.95).spearman_p < 0.005);
        // (Flagged as a trend or, if two levels fit better, a change.)
        EXPECT_TRUE(stronger.trending || stronger.shifted);
        return;
    }
    FAIL() << "no series with a trend p in (0.005, 0.01)";
}

}  // namespace
}  // namespace gfxstat::analysis
