// SPDX-License-Identifier: MIT
#include "analysis/pooled_t.h"

#include <gtest/gtest.h>

#include "analysis/student_t.h"
#include "tests/unit/test_support.h"

namespace gfxstat::analysis {
namespace {

// ministat's comparison at every level, against the reference values
// (a = baseline, b = candidate; relative half-width as |e| / |mean(a)|).
TEST(PooledT, MatchesReferenceAtAllLevels) {
    for (const auto& c : test::reference_cases()["cases"]) {
        auto a = test::sample_from_doubles(test::doubles(c["a"]));
        auto b = test::sample_from_doubles(test::doubles(c["b"]));
        if (a.size() < 2 || b.size() < 2) continue;
        const Moments ma = moments(a.view()), mb = moments(b.view());
        const auto& levels = c["two_sample"]["ministat_all_levels"];
        for (auto it = levels.begin(); it != levels.end(); ++it) {
            const auto& want = it.value();
            if (want.contains("error")) continue;
            const double level = std::stod(it.key().substr(1));
            if (!ministat_tabulated_level(level)) continue;
            SCOPED_TRACE(c["id"].get<std::string>() + " " + it.key());
            if (want["df"].get<int>() > 100) {  // ministat's normal row: not reproduced
                EXPECT_EQ(ministat_t_critical(level, want["df"]),
                          t_critical(level, want["df"].get<int>()));
                continue;
            }
            const auto r = pooled_t_interval(ma, mb, ministat_t_critical(level, want["df"]));
            EXPECT_EQ(r.t, want["t_used"].get<double>());
            EXPECT_EQ(r.df, want["df"].get<int>());
            auto near = [](double got, double expect) {
                EXPECT_NEAR(got, expect, std::abs(expect) * 1e-9 + 1e-12);
            };
            near(r.difference, want["diff"]);
            near(r.halfwidth, want["halfwidth"]);
            near(r.pooled_sd, want["pooled_s"]);
            near(r.relative_difference_percent, want["rel_diff_pct"]);
            near(r.relative_halfwidth_percent, std::abs(want["rel_halfwidth_pct_old"].get<double>()));
            EXPECT_EQ(r.significant, want["significant"].get<bool>());
        }
    }
}

// The same interval as R's t.test(b, a, var.equal = TRUE)$conf.int.
TEST(PooledT, ExactTGivesRConfidenceInterval) {
    int compared = 0;
    for (const auto& c : test::reference_cases()["cases"]) {
        auto a = test::sample_from_doubles(test::doubles(c["a"]));
        auto b = test::sample_from_doubles(test::doubles(c["b"]));
        const auto& sp = c["two_sample"]["student_pooled"];
        if (a.size() < 2 || b.size() < 2 || !sp.contains("ci95")) continue;  // R: error
        const auto ci = sp["ci95"].get<std::vector<double>>();
        if (!std::isfinite(ci[0])) continue;
        const Moments ma = moments(a.view()), mb = moments(b.view());
        const auto r = pooled_t_interval(ma, mb, t_critical(95, ma.n + mb.n - 2));
        SCOPED_TRACE(c["id"].get<std::string>());
        const double scale = std::abs(ci[1] - ci[0]) + std::abs(r.difference);
        EXPECT_NEAR(r.difference - r.halfwidth, ci[0], scale * 1e-9);
        EXPECT_NEAR(r.difference + r.halfwidth, ci[1], scale * 1e-9);
        ++compared;
    }
    EXPECT_GE(compared, 12);
}

// ministat prints "-61.1111% +/- -39.2438%" for a negative baseline.
TEST(PooledT, RelativeHalfwidthIsNeverNegative) {
    auto a = test::sample_from_tokens({"-10", "-12", "-11", "-9", "-10"});
    auto b = test::sample_from_tokens({"-4", "-5", "-3", "-4.5", "-4"});
    const auto r = pooled_t_interval(moments(a.view()), moments(b.view()), 2.306);
    EXPECT_GT(r.relative_halfwidth_percent, 0);
    EXPECT_LT(r.relative_difference_percent, 0);  // the mean rose towards 0
    EXPECT_TRUE(r.significant);
}

TEST(PooledT, HugeStandardDeviationsDoNotOverflow) {
    auto a = test::sample_from_tokens({"1e300", "-1e300", "3e300"});
    auto b = test::sample_from_tokens({"2e300", "-2e300", "5e300"});
    const auto r = pooled_t_interval(moments(a.view()), moments(b.view()), 2.776);
    EXPECT_TRUE(std::isfinite(r.pooled_sd));
    EXPECT_TRUE(std::isfinite(r.halfwidth));
    // var(a) = 4e600, var(b) = (111/9)e600 -> pooled sqrt((4 + 111/9) / 2) e300
    EXPECT_NEAR(r.pooled_sd / 1e300, std::sqrt((4 + 111.0 / 9) / 2), 1e-12);
}

}  // namespace
}  // namespace gfxstat::analysis
