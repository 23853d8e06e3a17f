// SPDX-License-Identifier: MIT
// Boot clustering against R: the reference clustered cases (2 builds x
// boots x runs) give the one-way ANOVA mean squares, variance components,
// ICC, design effect and effective n per build, the boot means, and the
// t tests on boot means that the verdict uses when boots are the unit.
#include "analysis/boot_clustering.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/t_tests.h"

namespace gfxstat::analysis {
namespace {

const nlohmann::json& clustered_cases() {
    static const nlohmann::json j = [] {
        std::ifstream in(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/reference_cases.json");
        return nlohmann::json::parse(in)["clustered_cases"];
    }();
    return j;
}

struct Build {
    std::vector<double> values;
    std::vector<uint32_t> boots;
};

// The values of one build with boot labels turned into indices in order of
// first appearance.
Build build_of(const nlohmann::json& data, const std::string& build) {
    Build b;
    std::map<std::string, uint32_t> index;
    for (size_t i = 0; i < data["y"].size(); ++i) {
        if (data["build"][i] != build) continue;
        const std::string boot = data["boot"][i];
        const auto it = index.emplace(boot, static_cast<uint32_t>(index.size())).first;
        b.values.push_back(data["y"][i]);
        b.boots.push_back(it->second);
    }
    return b;
}

void expect_rel(double got, double want, const char* what) {
    EXPECT_NEAR(got, want, 1e-9 * std::max(1.0, std::fabs(want))) << what;
}

TEST(BootClustering, MatchesReferenceAnova) {
    for (const auto& c : clustered_cases()) {
        for (const auto& [label, key] : {std::pair{"a", "icc_build_a"}, std::pair{"b", "icc_build_b"}}) {
            SCOPED_TRACE(c["id"].get<std::string>() + " build " + label);
            const Build b = build_of(c["data"], label);
            const BootVariance v = boot_variance(b.values, b.boots);
            const auto& ref = c[key];
            ASSERT_TRUE(v.defined);
            expect_rel(v.msb, ref["msb"], "msb");
            expect_rel(v.msw, ref["msw"], "msw");
            expect_rel(v.k0, ref["k0"], "k0");
            expect_rel(v.sigma2_between, ref["sigma2_between"], "sigma2_between");
            expect_rel(v.sigma2_within, ref["sigma2_within"], "sigma2_within");
            expect_rel(v.icc, ref["icc"], "icc");
            expect_rel(v.icc_raw, ref["icc_raw"], "icc_raw");
            expect_rel(v.mean_boot_size, ref["mean_cluster_size"], "mean cluster size");
            expect_rel(v.design_effect, ref["design_effect"], "design effect");
            expect_rel(v.effective_n, ref["n_eff"], "effective n");
        }
    }
}

TEST(BootClustering, BootMeansAndTheirTestsMatchR) {
    for (const auto& c : clustered_cases()) {
        SCOPED_TRACE(c["id"].get<std::string>());
        const Build a = build_of(c["data"], "a"), b = build_of(c["data"], "b");
        const std::vector<double> ma = boot_means(a.values, a.boots), mb = boot_means(b.values, b.boots);
        const auto want_a = c["boot_means"]["a"].get<std::vector<double>>();
        const auto want_b = c["boot_means"]["b"].get<std::vector<double>>();
        ASSERT_EQ(ma.size(), want_a.size());
        ASSERT_EQ(mb.size(), want_b.size());
        for (size_t i = 0; i < ma.size(); ++i) expect_rel(ma[i], want_a[i], "boot mean a");
        for (size_t i = 0; i < mb.size(); ++i) expect_rel(mb[i], want_b[i], "boot mean b");
        const ScaledValues sa{std::span<const double>(ma), 0}, sb{std::span<const double>(mb), 0};
        const TwoSampleMoments m = two_sample_moments(sa, sb);
        const TTest welch = welch_t_test(m, 0.95), student = student_t_test(m, 0.95);
        const auto& rw = c["welch_t_on_boot_means"];
        const auto& rs = c["pooled_t_on_boot_means"];
        EXPECT_NEAR(welch.t, rw["statistic"].get<double>(), 1e-7 * std::fabs(rw["statistic"].get<double>()));
        EXPECT_NEAR(welch.df, rw["df"].get<double>(), 1e-7 * rw["df"].get<double>());
        EXPECT_NEAR(welch.p, rw["p_value"].get<double>(), 1e-7 * rw["p_value"].get<double>());
        EXPECT_NEAR(welch.ci[0], rw["ci95"][0].get<double>(), 1e-7);
        EXPECT_NEAR(welch.ci[1], rw["ci95"][1].get<double>(), 1e-7);
        EXPECT_NEAR(student.p, rs["p_value"].get<double>(), 1e-7 * rs["p_value"].get<double>());
        // The mixed model (REML) estimate of the build effect is the same
        // difference for these balanced designs.
        EXPECT_NEAR(m.difference, c["nlme_lme_REML"]["estimate"].get<double>(), 1e-9);
    }
}

// With two boots the ANOVA F is the square of the pooled t between them,
// and its p the pooled t test's (checked against R in t_tests_test).
TEST(BootClustering, TwoBootsFIsPooledTSquared) {
    const std::vector<double> v = {10.1, 10.4, 9.8, 10.0, 11.2, 11.0, 11.5, 10.9, 11.3};
    const std::vector<uint32_t> boot = {0, 0, 0, 0, 1, 1, 1, 1, 1};
    const BootVariance r = boot_variance(v, boot);
    ASSERT_TRUE(r.defined);
    const std::vector<double> x(v.begin(), v.begin() + 4), y(v.begin() + 4, v.end());
    const TwoSampleMoments m =
        two_sample_moments(ScaledValues{std::span<const double>(x), 0}, ScaledValues{std::span<const double>(y), 0});
    const TTest t = student_t_test(m, 0.95);
    EXPECT_NEAR(r.f, t.t * t.t, 1e-9 * r.f);
    EXPECT_NEAR(r.f_p, t.p, 1e-9 + 1e-7 * t.p);
    // Unequal boot sizes: k0 = (n - sum n_i^2 / n) / (g - 1) = (9 - 41/9) / 1.
    EXPECT_NEAR(r.k0, 9 - 41.0 / 9, 1e-12);
}

TEST(BootClustering, HugeOffsetKeepsDigits) {
    // The same design shifted by 1e9: every variance component unchanged
    // to 1e-6 relative (the values themselves carry only ~7 digits of noise).
    const std::vector<double> v = {0.1, 0.4, -0.2, 0.0, 1.2, 1.0, 1.5, 0.9, 1.3, 2.1, 2.4, 2.2};
    const std::vector<uint32_t> boot = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};
    std::vector<double> shifted;
    for (double x : v) shifted.push_back(1e9 + x);
    const BootVariance a = boot_variance(v, boot), b = boot_variance(shifted, boot);
    ASSERT_TRUE(a.defined && b.defined);
    EXPECT_NEAR(b.msw, a.msw, 1e-6 * a.msw);
    EXPECT_NEAR(b.msb, a.msb, 1e-6 * a.msb);
    EXPECT_NEAR(b.icc, a.icc, 1e-6);
}

TEST(BootClustering, EdgeCases) {
    const std::vector<double> v = {1, 2, 3};
    EXPECT_FALSE(boot_variance(v, std::vector<uint32_t>{0, 0, 0}).defined);  // one boot
    EXPECT_FALSE(boot_variance(v, std::vector<uint32_t>{0, 1, 2}).defined);  // one value per boot
    EXPECT_EQ(boot_variance(v, std::vector<uint32_t>{0, 1, 2}).boots, 3u);
    EXPECT_THROW(boot_variance(v, std::vector<uint32_t>{0, 1}), std::invalid_argument);
    // Boots differ but runs within a boot do not: all variance is between.
    const BootVariance r = boot_variance(std::vector<double>{1, 1, 1, 2, 2, 2}, std::vector<uint32_t>{0, 0, 0, 5, 5, 5});
    ASSERT_TRUE(r.defined);
    EXPECT_EQ(r.boots, 2u);
    EXPECT_EQ(r.icc, 1);
    EXPECT_EQ(r.f_p, 0);
    EXPECT_EQ(r.design_effect, 3);
    // One within-boot degree of freedom (many single-run boots and one pair
    // of equal runs) proves nothing: undefined.
    std::vector<double> many;
    std::vector<uint32_t> boots;
    for (uint32_t b = 0; b < 20; ++b) {
        many.push_back(b % 3);
        boots.push_back(b);
    }
    many.push_back(0);
    boots.push_back(0);
    EXPECT_FALSE(boot_variance(many, boots).defined);
    // Values near the double range: the ratios stay finite.
    const BootVariance huge = boot_variance(std::vector<double>{1e308, 1.1e308, 1.2e308, 0.9e308, 1.0e308, 0.95e308},
                                            std::vector<uint32_t>{0, 0, 0, 1, 1, 1});
    ASSERT_TRUE(huge.defined);
    EXPECT_TRUE(std::isfinite(huge.icc) && std::isfinite(huge.design_effect) && std::isfinite(huge.effective_n));
    // Nothing varies at all.
    const BootVariance z = boot_variance(std::vector<double>{3, 3, 3, 3, 3}, std::vector<uint32_t>{0, 0, 1, 1, 1});
    EXPECT_EQ(z.icc, 0);
    EXPECT_EQ(z.f_p, 1);
    EXPECT_EQ(z.design_effect, 1);
    EXPECT_EQ(boot_means(std::vector<double>{1, 2, 4}, std::vector<uint32_t>{2, 0, 2}),
              (std::vector<double>{2, 2.5}));
}

}  // namespace
}  // namespace gfxstat::analysis
