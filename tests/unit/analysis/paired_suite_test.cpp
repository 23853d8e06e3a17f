// SPDX-License-Identifier: MIT
// The paired analysis of a suite (one value per benchmark and build) against
// tests/data/paired_reference.json, written by
// tests/data/make_paired_reference.py: log ratios in 60-digit decimal,
// scipy's ttest_1samp / ttest_rel / ttest_ind(equal_var=False), t.sf / t.ppf
// for TOST and intervals, and the signed-rank references described in
// signed_rank_test.cpp. Cases include two real suites from the mailing
// lists gfxstat's users write to: gem_fence_upload (intel-gfx, 2014) and
// GfxBench 4.0 per-test averages (mesa-dev, 2018).
#include "analysis/paired_suite.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace gfxstat::analysis {
namespace {

using nlohmann::json;

const json& reference() {
    static const json doc = [] {
        std::ifstream in(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/paired_reference.json");
        if (!in) throw std::runtime_error("cannot open tests/data/paired_reference.json");
        return json::parse(in);
    }();
    return doc;
}

const json& suite_case(const std::string& id) {
    for (const json& c : reference().at("paired_suite"))
        if (c.at("id") == id) return c;
    throw std::runtime_error("no paired_suite case " + id);
}

Better better_from(const std::string& s) {
    if (s == "higher") return Better::higher;
    if (s == "lower") return Better::lower;
    if (s == "unknown") return Better::unknown;
    throw std::runtime_error("bad direction " + s);
}

std::vector<PairedValue> pairs_of(const json& c) {
    const auto b = c.at("baseline").get<std::vector<double>>();
    const auto k = c.at("candidate").get<std::vector<double>>();
    const auto how = c.at("better").get<std::vector<std::string>>();
    std::vector<PairedValue> out;
    for (size_t i = 0; i < b.size(); ++i) out.push_back({b[i], k[i], better_from(how[i])});
    return out;
}

PairedSuite analyse(const json& c) {
    PairedSuiteOptions o;
    o.confidence = c.at("confidence");
    o.threshold = c.at("threshold");
    return analyse_paired_suite(pairs_of(c), o);
}

double rel_tol(double expected, double rel) { return std::max(std::fabs(expected) * rel, 1e-300); }

void expect_rel(double actual, double expected, double rel, const std::string& what) {
    EXPECT_NEAR(actual, expected, rel_tol(expected, rel)) << what;
}

TEST(PairedSuiteReference, MatchesScipyAndExactReferences) {
    int cases = 0;
    for (const json& c : reference().at("paired_suite")) {
        SCOPED_TRACE(c.at("id").get<std::string>());
        const json& want = c.at("expect");
        const PairedSuite s = analyse(c);
        EXPECT_EQ(s.pairs, want.at("pairs").get<size_t>());
        EXPECT_EQ(s.log_ratio, want.at("log_ratio").get<bool>());
        EXPECT_EQ(s.oriented, want.at("oriented").get<bool>());
        const auto d = want.at("differences").get<std::vector<double>>();
        ASSERT_EQ(s.differences.size(), d.size());
        for (size_t i = 0; i < d.size(); ++i) {
            if (d[i] == 0)
                EXPECT_EQ(s.differences[i], 0) << i;
            else
                expect_rel(s.differences[i], d[i], 1e-15, "difference " + std::to_string(i));
        }

        const json& t = want.at("t");
        EXPECT_TRUE(s.t.defined);
        EXPECT_EQ(s.t.df, t.at("df").get<double>());
        expect_rel(s.t.t, t.at("t"), 1e-10, "t");
        expect_rel(s.t.p, t.at("p"), 1e-9, "t p");
        expect_rel(s.t.difference, t.at("difference"), 1e-12, "mean difference");
        expect_rel(s.t.stderr_, t.at("stderr"), 1e-10, "stderr");
        expect_rel(s.t.ci[0], t.at("ci")[0], 1e-9, "t ci lower");
        expect_rel(s.t.ci[1], t.at("ci")[1], 1e-9, "t ci upper");

        const json& w = want.at("wilcoxon");
        EXPECT_EQ(s.wilcoxon.n, w.at("n").get<size_t>());
        EXPECT_EQ(s.wilcoxon.zeros, w.at("zeros").get<size_t>());
        EXPECT_EQ(s.wilcoxon.v, w.at("v").get<double>());
        EXPECT_EQ(s.wilcoxon.exact, w.at("exact").get<bool>());
        EXPECT_EQ(s.wilcoxon.method, w.at("method").get<std::string>());
        expect_rel(s.wilcoxon.p, w.at("p"), 1e-9, "wilcoxon p");
        if (w.contains("p_scipy")) expect_rel(s.wilcoxon.p, w.at("p_scipy"), 1e-6, "wilcoxon p (scipy)");

        const json& hl = want.at("hodges_lehmann");
        EXPECT_EQ(s.hodges_lehmann.exact, hl.at("exact").get<bool>());
        expect_rel(s.hodges_lehmann.estimate, hl.at("estimate"), 1e-12, "HL estimate");
        expect_rel(s.hodges_lehmann.ci[0], hl.at("ci")[0], 1e-12, "HL lower");
        expect_rel(s.hodges_lehmann.ci[1], hl.at("ci")[1], 1e-12, "HL upper");
        EXPECT_NEAR(s.hodges_lehmann.achieved_confidence, hl.at("achieved_confidence").get<double>(), 1e-12);
        if (hl.contains("r_uniroot_ci")) {
            EXPECT_NEAR(s.hodges_lehmann.ci[0], hl.at("r_uniroot_ci")[0].get<double>(), 1e-4);
            EXPECT_NEAR(s.hodges_lehmann.ci[1], hl.at("r_uniroot_ci")[1].get<double>(), 1e-4);
        }

        const json& e = want.at("equivalence");
        expect_rel(s.equivalence.margin, e.at("margin"), 1e-14, "margin");
        expect_rel(s.equivalence.p, e.at("p"), 1e-9, "tost p");
        expect_rel(s.equivalence.ci[0], e.at("ci")[0], 1e-9, "tost ci lower");
        expect_rel(s.equivalence.ci[1], e.at("ci")[1], 1e-9, "tost ci upper");
        EXPECT_EQ(s.equivalence.equivalent, e.at("equivalent").get<bool>());

        if (s.log_ratio) {
            expect_rel(s.geomean_ratio, want.at("geomean_ratio"), 1e-12, "geomean ratio");
            expect_rel(s.geomean_ci[0], want.at("geomean_ci")[0], 1e-9, "geomean lower");
            expect_rel(s.geomean_ci[1], want.at("geomean_ci")[1], 1e-9, "geomean upper");
            expect_rel(s.hl_ratio, want.at("hl_ratio"), 1e-12, "HL ratio");
            expect_rel(s.hl_ratio_ci[0], want.at("hl_ratio_ci")[0], 1e-12, "HL ratio lower");
            expect_rel(s.hl_ratio_ci[1], want.at("hl_ratio_ci")[1], 1e-12, "HL ratio upper");
        } else {
            EXPECT_TRUE(std::isnan(s.geomean_ratio));
            EXPECT_TRUE(std::isnan(s.geomean_ci[0]) && std::isnan(s.geomean_ci[1]));
            EXPECT_TRUE(std::isnan(s.hl_ratio));
            EXPECT_TRUE(std::isnan(s.hl_ratio_ci[0]) && std::isnan(s.hl_ratio_ci[1]));
        }
        expect_rel(s.unpaired_welch_p, want.at("unpaired_welch_p"), 1e-9, "unpaired Welch p");

        // The paired t on the plain differences c - b is scipy's ttest_rel.
        std::vector<double> plain;
        for (const PairedValue& p : pairs_of(c)) plain.push_back(p.candidate - p.baseline);
        expect_rel(one_sample_t_test(plain, c.at("confidence")).p, want.at("plain_ttest_rel_p"), 1e-9,
                   "ttest_rel p");
        ++cases;
    }
    EXPECT_GE(cases, 10);
}

// The intel-gfx thread: eleven rows, each moving by a few MiB/s out of
// 8100-8600. As two independent samples nothing shows; as pairs the change
// is clear, and it is 0.1%.
TEST(PairedSuite, GemFenceUploadPairingMatters) {
    const json& c = suite_case("gem_fence_upload");
    const PairedSuite s = analyse(c);
    EXPECT_NEAR(s.unpaired_welch_p, 0.93, 0.01);
    EXPECT_NEAR(s.t.p, 0.0047, 0.0001);  // log ratios
    std::vector<double> plain;
    for (const PairedValue& p : pairs_of(c)) plain.push_back(p.candidate - p.baseline);
    EXPECT_NEAR(one_sample_t_test(plain, 0.95).p, 0.0051, 0.0001);
    EXPECT_TRUE(s.log_ratio);
    EXPECT_TRUE(s.oriented);
    // 8127 -> 8127: one zero difference, so no exact test.
    EXPECT_EQ(s.wilcoxon.zeros, 1u);
    EXPECT_EQ(s.wilcoxon.n, 10u);
    EXPECT_FALSE(s.wilcoxon.exact);
    EXPECT_LT(s.wilcoxon.p, 0.05);
    EXPECT_GT(s.geomean_ratio, 1);
    EXPECT_LT(s.geomean_ratio, 1.002);
    EXPECT_GT(s.geomean_ci[0], 1);
    EXPECT_TRUE(s.equivalence.equivalent);  // and well within 1%
}

// The mesa-dev thread: ten GfxBench tests, some up and some down by a few
// percent; the suite as a whole did not move.
TEST(PairedSuite, GfxBenchSuiteShowsNoConsistentChange) {
    const PairedSuite s = analyse(suite_case("gfxbench4_mesa_dev"));
    EXPECT_GT(s.t.p, 0.5);
    EXPECT_GT(s.wilcoxon.p, 0.5);
    EXPECT_TRUE(s.wilcoxon.exact);
    EXPECT_LT(s.geomean_ci[0], 1);
    EXPECT_GT(s.geomean_ci[1], 1);
}

// Every benchmark exactly twice as fast: the paired t is undefined (no
// variability), and so is the geomean's interval; it was [2, 2].
TEST(PairedSuite, RatiosThatDoNotVaryHaveNoGeomeanInterval) {
    const std::vector<PairedValue> twice{{10, 20, Better::higher}, {30, 60, Better::higher}, {7, 14, Better::higher}};
    const PairedSuite s = analyse_paired_suite(twice, {});
    EXPECT_FALSE(s.t.defined);
    EXPECT_DOUBLE_EQ(s.geomean_ratio, 2);
    EXPECT_TRUE(std::isnan(s.geomean_ci[0]) && std::isnan(s.geomean_ci[1]));
}

TEST(PairedSuite, LowerIsBetterIsOrientedSoPositiveMeansBetter) {
    // Frame times fell by 4%: better.
    const std::vector<PairedValue> lower{{20, 19.2, Better::lower}, {10, 9.6, Better::lower}, {40, 38.4, Better::lower}};
    const PairedSuite s = analyse_paired_suite(lower, {});
    EXPECT_TRUE(s.oriented);
    for (double d : s.differences) EXPECT_NEAR(d, -std::log(0.96), 1e-15);
    EXPECT_NEAR(s.geomean_ratio, 1 / 0.96, 1e-12);
    // The same numbers with the direction unknown: plain ln(c/b), not oriented.
    std::vector<PairedValue> unknown = lower;
    unknown[1].better = Better::unknown;
    const PairedSuite u = analyse_paired_suite(unknown, {});
    EXPECT_FALSE(u.oriented);
    for (double d : u.differences) EXPECT_NEAR(d, std::log(0.96), 1e-15);
}

TEST(PairedSuite, NonPositiveValuesGivePlainDifferences) {
    const std::vector<PairedValue> p{{0, 1, Better::higher}, {2, 2.5, Better::higher}, {3, 3.25, Better::lower}};
    const PairedSuite s = analyse_paired_suite(p, {});
    EXPECT_FALSE(s.log_ratio);
    EXPECT_EQ(s.differences, (std::vector<double>{1, 0.5, -0.25}));
    // Plain margin: threshold times the mean |baseline|.
    EXPECT_DOUBLE_EQ(s.equivalence.margin, 0.01 * 5.0 / 3);
    EXPECT_TRUE(std::isnan(s.geomean_ratio));
}

TEST(PairedSuite, LowConfidenceRunsNoEquivalenceTest) {
    const std::vector<PairedValue> p{{100, 100.1, Better::higher}, {200, 200.1, Better::higher},
                                     {300, 300.2, Better::higher}};
    PairedSuiteOptions o;
    o.confidence = 0.4;
    const PairedSuite s = analyse_paired_suite(p, o);
    EXPECT_EQ(s.equivalence.p, 1);
    EXPECT_FALSE(s.equivalence.equivalent);
    EXPECT_NEAR(s.equivalence.margin, std::log1p(0.01), 1e-17);
}

TEST(PairedSuite, RefusesBadInput) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_THROW(analyse_paired_suite(std::vector<PairedValue>{}, {}), std::invalid_argument);
    EXPECT_THROW(analyse_paired_suite(std::vector<PairedValue>{{1, 2, Better::higher}}, {}), std::invalid_argument);
    EXPECT_THROW(analyse_paired_suite(std::vector<PairedValue>{{1, 2}, {nan, 2}}, {}), std::invalid_argument);
    EXPECT_THROW(analyse_paired_suite(std::vector<PairedValue>{{1, 2}, {1, inf}}, {}), std::invalid_argument);
    // c - b past the double range.
    EXPECT_THROW(analyse_paired_suite(std::vector<PairedValue>{{-1e308, 1e308}, {0, 1}}, {}), std::invalid_argument);
    PairedSuiteOptions bad;
    bad.confidence = 1;
    EXPECT_THROW(analyse_paired_suite(std::vector<PairedValue>{{1, 2}, {2, 3}}, bad), std::invalid_argument);
    bad = {};
    bad.threshold = -0.01;
    EXPECT_THROW(analyse_paired_suite(std::vector<PairedValue>{{1, 2}, {2, 3}}, bad), std::invalid_argument);
}

// Ratios past the double range still give finite log ratios.
TEST(PairedSuite, ExtremeRatios) {
    const std::vector<PairedValue> p{{1e-300, 1e300, Better::higher}, {1e300, 1e-300, Better::higher}};
    const PairedSuite s = analyse_paired_suite(p, {});
    EXPECT_TRUE(s.log_ratio);
    EXPECT_NEAR(s.differences[0], 600 * std::log(10.0), 1e-9);
    EXPECT_NEAR(s.differences[1], -600 * std::log(10.0), 1e-9);
}

}  // namespace
}  // namespace gfxstat::analysis
