// SPDX-License-Identifier: MIT
// The machine > boot > run variance decomposition against
// tests/data/fleet_reference.json, written by
// tests/data/make_fleet_reference.py (the balanced closed form, the
// expected mean squares solved from projection-matrix traces with numpy,
// Sokal & Rohlf's coefficients as exact fractions, F tails from scipy and
// the one-level split against scipy.stats.f_oneway); and properties: the
// general coefficients reduce to the balanced closed form, boots are
// nested (a boot index reused on another machine is another boot).
#include "analysis/nested_variance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace gfxstat::analysis;
using nlohmann::json;

json load_reference() {
    std::ifstream in(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/fleet_reference.json");
    if (!in) throw std::runtime_error("cannot open tests/data/fleet_reference.json");
    return json::parse(in);
}

void expect_rel(double actual, double expected, double tol, const std::string& what) {
    if (expected == 0) {
        EXPECT_NEAR(actual, 0, 1e-12) << what;
        return;
    }
    EXPECT_LE(std::fabs(actual - expected) / std::fabs(expected), tol)
        << what << ": actual " << actual << " expected " << expected;
}

TEST(NestedVariance, MatchesPythonReference) {
    const json doc = load_reference();
    ASSERT_GE(doc.at("cases").size(), 5u);
    for (const json& c : doc.at("cases")) {
        const std::string id = c.at("id");
        SCOPED_TRACE(id);
        const auto values = c.at("values").get<std::vector<double>>();
        const auto machine = c.at("machine").get<std::vector<uint32_t>>();
        std::vector<uint32_t> boot;
        if (!c.at("boot").is_null()) boot = c.at("boot").get<std::vector<uint32_t>>();
        const NestedVariance v = nested_variance(values, machine, boot);
        const json& e = c.at("expected");
        ASSERT_TRUE(v.defined);
        EXPECT_EQ(v.levels, e.at("levels").get<int>());
        EXPECT_EQ(v.machines, e.at("machines").get<size_t>());
        EXPECT_EQ(v.n, e.at("n").get<size_t>());
        for (const char* k : {"ms_machines", "ms_within", "df_machines", "df_within", "n0_machines",
                              "sigma2_machines_raw", "sigma2_machines", "sigma2_within", "share_machines",
                              "share_within", "f_machines", "f_machines_df2"}) {
            const double got = k == std::string("ms_machines")           ? v.ms_machines
                               : k == std::string("ms_within")           ? v.ms_within
                               : k == std::string("df_machines")         ? v.df_machines
                               : k == std::string("df_within")           ? v.df_within
                               : k == std::string("n0_machines")         ? v.n0_machines
                               : k == std::string("sigma2_machines_raw") ? v.sigma2_machines_raw
                               : k == std::string("sigma2_machines")     ? v.sigma2_machines
                               : k == std::string("sigma2_within")       ? v.sigma2_within
                               : k == std::string("share_machines")      ? v.share_machines
                               : k == std::string("share_within")        ? v.share_within
                               : k == std::string("f_machines")          ? v.f_machines
                                                                         : v.f_machines_df2;
            expect_rel(got, e.at(k).get<double>(), 1e-9, k);
        }
        expect_rel(v.p_machines, e.at("p_machines").get<double>(), 1e-6, "p_machines");
        if (v.levels == 2) {
            EXPECT_EQ(v.boots, e.at("boots").get<size_t>());
            expect_rel(v.ms_boots, e.at("ms_boots").get<double>(), 1e-9, "ms_boots");
            expect_rel(v.df_boots, e.at("df_boots").get<double>(), 1e-12, "df_boots");
            expect_rel(v.n0_boots, e.at("n0_boots").get<double>(), 1e-12, "n0_boots");
            expect_rel(v.n0_machines_boots, e.at("n0_machines_boots").get<double>(), 1e-12, "n0_machines_boots");
            expect_rel(v.sigma2_boots_raw, e.at("sigma2_boots_raw").get<double>(), 1e-9, "sigma2_boots_raw");
            expect_rel(v.sigma2_boots, e.at("sigma2_boots").get<double>(), 1e-9, "sigma2_boots");
            expect_rel(v.share_boots, e.at("share_boots").get<double>(), 1e-9, "share_boots");
            expect_rel(v.f_boots, e.at("f_boots").get<double>(), 1e-9, "f_boots");
            expect_rel(v.p_boots, e.at("p_boots").get<double>(), 1e-6, "p_boots");
        }
        if (c.contains("balanced")) {
            // The closed form the script computed on the values shaped
            // (machines, boots, runs).
            const auto cf = e.at("closed_form_sigma2_raw").get<std::vector<double>>();
            expect_rel(v.sigma2_machines_raw, cf[0], 1e-9, "closed form machines");
            expect_rel(v.sigma2_boots_raw, cf[1], 1e-9, "closed form boots");
            expect_rel(v.sigma2_within, cf[2], 1e-9, "closed form within");
        }
    }
}

TEST(NestedVariance, NegativeRawComponentIsKeptAndTruncated) {
    const json doc = load_reference();
    for (const json& c : doc.at("cases")) {
        if (c.at("id") != "unbalanced_no_machine_effect") continue;
        const NestedVariance v = nested_variance(c.at("values").get<std::vector<double>>(),
                                                 c.at("machine").get<std::vector<uint32_t>>(),
                                                 c.at("boot").get<std::vector<uint32_t>>());
        EXPECT_LT(v.sigma2_machines_raw, 0);
        EXPECT_EQ(v.sigma2_machines, 0);
        EXPECT_EQ(v.share_machines, 0);
        EXPECT_NEAR(v.share_boots + v.share_within, 1, 1e-12);
        return;
    }
    FAIL() << "case missing";
}

// On balanced data the general (unbalanced) coefficients are n, n and b n,
// and the components equal the closed form from the same mean squares.
TEST(NestedVariance, GeneralFormulaEqualsClosedFormOnBalancedData) {
    std::mt19937_64 rng(99);
    std::normal_distribution<double> z(0, 1);
    for (int rep = 0; rep < 50; ++rep) {
        const uint32_t a = 2 + rep % 4, b = 2 + (rep / 4) % 3, n = 2 + (rep / 12) % 4;
        std::vector<double> values;
        std::vector<uint32_t> machine, boot;
        for (uint32_t i = 0; i < a; ++i) {
            const double m = 3 * z(rng);
            for (uint32_t j = 0; j < b; ++j) {
                const double bl = z(rng);
                for (uint32_t k = 0; k < n; ++k) {
                    values.push_back(1000 + m + bl + 0.5 * z(rng));
                    machine.push_back(i);
                    boot.push_back(j);
                }
            }
        }
        const NestedVariance v = nested_variance(values, machine, boot);
        ASSERT_TRUE(v.defined);
        ASSERT_EQ(v.levels, 2);
        EXPECT_NEAR(v.n0_boots, n, 1e-9 * n);
        EXPECT_NEAR(v.n0_machines_boots, n, 1e-9 * n);
        EXPECT_NEAR(v.n0_machines, b * n, 1e-9 * b * n);
        const VarianceComponents c = balanced_components(v.ms_machines, v.ms_boots, v.ms_within, b, n);
        EXPECT_NEAR(v.sigma2_machines_raw, c.machines, 1e-9 * (std::fabs(c.machines) + v.ms_machines / (b * n)));
        EXPECT_NEAR(v.sigma2_boots_raw, c.boots, 1e-9 * (std::fabs(c.boots) + v.ms_boots / n));
        EXPECT_DOUBLE_EQ(v.sigma2_within, c.within);
        // Balanced: machines are tested against boots exactly.
        EXPECT_DOUBLE_EQ(v.f_machines_df2, v.df_boots);
        EXPECT_NEAR(v.f_machines, v.ms_machines / v.ms_boots, 1e-12 * v.f_machines);
    }
}

TEST(NestedVariance, BootIndexReusedOnAnotherMachineIsAnotherBoot) {
    // Boots numbered 0..b-1 within each machine, or uniquely: the same.
    std::vector<double> values;
    std::vector<uint32_t> machine, local, global;
    std::mt19937_64 rng(5);
    std::normal_distribution<double> z(0, 1);
    for (uint32_t i = 0; i < 3; ++i)
        for (uint32_t j = 0; j < 3 + i; ++j)
            for (uint32_t k = 0; k < 2 + (i + j) % 3; ++k) {
                values.push_back(10 + i + 0.5 * j * z(rng) + z(rng));
                machine.push_back(i);
                local.push_back(j);
                global.push_back(10 * i + j);
            }
    const NestedVariance a = nested_variance(values, machine, local), b = nested_variance(values, machine, global);
    EXPECT_EQ(a.boots, b.boots);
    EXPECT_EQ(a.boots, 12u);
    EXPECT_DOUBLE_EQ(a.ms_boots, b.ms_boots);
    EXPECT_DOUBLE_EQ(a.sigma2_machines_raw, b.sigma2_machines_raw);
    EXPECT_DOUBLE_EQ(a.p_machines, b.p_machines);
}

TEST(NestedVariance, OneLevelWithoutBootsOrOneBootPerMachine) {
    const std::vector<double> values = {1, 2, 3, 5, 6, 7, 2, 3, 4};
    const std::vector<uint32_t> machine = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    const NestedVariance none = nested_variance(values, machine);
    const NestedVariance same = nested_variance(values, machine, machine);  // each machine one boot
    EXPECT_EQ(none.levels, 1);
    EXPECT_EQ(same.levels, 1);
    ASSERT_TRUE(none.defined);
    // Group means 2, 6, 3; grand 11/3; MSM = 3 * ((2-11/3)^2 + (6-11/3)^2 + (3-11/3)^2) / 2 = 13; MSW = 1.
    EXPECT_NEAR(none.ms_machines, 13, 1e-12);
    EXPECT_NEAR(none.ms_within, 1, 1e-12);
    EXPECT_NEAR(none.sigma2_machines, 4, 1e-12);  // (13 - 1) / 3
    EXPECT_DOUBLE_EQ(none.ms_machines, same.ms_machines);
    EXPECT_DOUBLE_EQ(none.p_machines, same.p_machines);
}

TEST(NestedVariance, UndefinedWithOneMachineOrTooFewValues) {
    EXPECT_FALSE(nested_variance(std::vector<double>{1, 2, 3}, std::vector<uint32_t>{0, 0, 0}).defined);
    EXPECT_FALSE(nested_variance(std::vector<double>{1, 2, 3}, std::vector<uint32_t>{0, 1, 1}).defined);
    EXPECT_FALSE(nested_variance(std::vector<double>{1, 2, NAN, 4, 5}, std::vector<uint32_t>{0, 0, 1, 1, 1}).defined);
    EXPECT_THROW(nested_variance(std::vector<double>{1, 2}, std::vector<uint32_t>{0}), std::invalid_argument);
    EXPECT_THROW(nested_variance(std::vector<double>{1, 2}, std::vector<uint32_t>{0, 1}, std::vector<uint32_t>{0}),
                 std::invalid_argument);
}

}  // namespace
