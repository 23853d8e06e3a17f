// SPDX-License-Identifier: MIT
// A fleet compared: per-machine changes and the leave-one-out flag against
// tests/data/fleet_reference.json (scipy's Welch tests on boot means, the
// same leave-one-out formula written out in numpy), and the machine-level
// primary test of compare_samples (scipy's paired t over the machines'
// differences); without a machine effect the comparison is as before.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/comparison.h"
#include "analysis/machine_changes.h"
#include "analysis/verdict.h"

namespace {

using namespace gfxstat::analysis;
using nlohmann::json;

json load_fleet() {
    std::ifstream in(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/fleet_reference.json");
    if (!in) throw std::runtime_error("cannot open tests/data/fleet_reference.json");
    return json::parse(in).at("fleet");
}

void expect_rel(double actual, double expected, double tol, const std::string& what) {
    EXPECT_LE(std::fabs(actual - expected), tol * std::max(1e-300, std::fabs(expected)))
        << what << ": actual " << actual << " expected " << expected;
}

// One side of the fleet with its layout: boot ids unique per machine.
struct Side {
    std::vector<double> values;
    std::vector<uint32_t> machine, boot;
    std::vector<std::string> machine_ids, boot_ids;
    SampleLayout layout() const {
        SampleLayout l;
        l.boot_of_value = boot;
        l.boot_ids = boot_ids;
        l.machine_of_value = machine;
        l.machine_ids = machine_ids;
        return l;
    }
};

Side side(const json& f, const std::string& name) {
    Side s;
    s.values = f.at(name).at("values").get<std::vector<double>>();
    s.machine = f.at(name).at("machine").get<std::vector<uint32_t>>();
    const auto local = f.at(name).at("boot").get<std::vector<uint32_t>>();
    s.machine_ids = f.at("machines").get<std::vector<std::string>>();
    for (size_t i = 0; i < s.values.size(); ++i) s.boot.push_back(s.machine[i] * 4 + local[i]);
    for (size_t m = 0; m < s.machine_ids.size(); ++m)
        for (int b = 0; b < 4; ++b) s.boot_ids.push_back(name + "-" + s.machine_ids[m] + "-" + std::to_string(b));
    return s;
}

TEST(FleetCompare, PerMachineChangesMatchReference) {
    const json f = load_fleet();
    const Side a = side(f, "baseline"), b = side(f, "candidate");
    const MachineChanges mc = machine_changes(a.values, b.values, a.layout(), b.layout(), true, 0.95, 0.01);
    ASSERT_EQ(mc.rows.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        const json& e = f.at("rows")[i];
        const MachineChange& r = mc.rows[i];
        SCOPED_TRACE(r.machine);
        EXPECT_EQ(r.machine, e.at("machine").get<std::string>());
        EXPECT_TRUE(r.by_boots);
        EXPECT_EQ(r.baseline_units, 4u);
        expect_rel(r.baseline_mean, e.at("baseline_mean"), 1e-12, "baseline mean");
        expect_rel(r.change, e.at("change"), 1e-9, "change");
        expect_rel(r.relative_change, e.at("relative_change"), 1e-9, "relative change");
        expect_rel(r.welch.p, e.at("welch_p"), 1e-6, "Welch p");
        expect_rel(r.welch.df, e.at("welch_df"), 1e-9, "Welch df");
        expect_rel(r.welch.ci[0], e.at("ci")[0], 1e-7, "ci low");
        expect_rel(r.welch.ci[1], e.at("ci")[1], 1e-7, "ci high");
        expect_rel(r.relative_ci[0], e.at("relative_ci")[0], 1e-7, "relative ci low (Fieller)");
        expect_rel(r.relative_ci[1], e.at("relative_ci")[1], 1e-7, "relative ci high (Fieller)");
        ASSERT_TRUE(r.loo_defined);
        expect_rel(r.loo_t, e.at("loo_t"), 1e-9, "leave-one-out t");
        expect_rel(r.loo_df, e.at("loo_df"), 1e-9, "leave-one-out df");
        expect_rel(r.loo_p_adjusted, e.at("loo_p_adjusted"), 1e-6, "leave-one-out p");
        EXPECT_EQ(r.stands_out, r.machine == f.at("odd_machine").get<std::string>());
    }
    ASSERT_TRUE(mc.odd);
    EXPECT_EQ(mc.rows[*mc.odd].machine, "dut-03");
}

// A latency that fell a lot on a machine whose baseline is noisy: the
// difference over the baseline gave a bound below -100%, which no ratio of
// positive means can reach; Fieller's interval for the ratio does not.
TEST(FleetCompare, PerMachineRelativeIntervalOfAPositiveMetricStaysAboveMinusOneHundredPercent) {
    Side a, b;
    a.machine_ids = b.machine_ids = {"dut-01", "dut-02"};
    const std::vector<double> base = {30, 120, 45, 95, 20, 110}, cand = {9.5, 10.4, 10.1, 9.8, 10.6, 9.9};
    for (uint32_t m = 0; m < 2; ++m)
        for (size_t i = 0; i < base.size(); ++i) {
            a.values.push_back(base[i] * (1 + 0.1 * m));
            a.machine.push_back(m);
            b.values.push_back(cand[i] * (1 + 0.1 * m));
            b.machine.push_back(m);
        }
    const MachineChanges mc = machine_changes(a.values, b.values, a.layout(), b.layout(), false, 0.95, 0.01);
    ASSERT_EQ(mc.rows.size(), 2u);
    for (const MachineChange& r : mc.rows) {
        SCOPED_TRACE(r.machine);
        ASSERT_TRUE(r.welch.defined);
        // The old interval: (difference's interval) / baseline mean.
        EXPECT_LT(r.welch.ci[0] / r.baseline_mean, -1.0);
        EXPECT_GE(r.relative_ci[0], -1.0);
        EXPECT_LT(r.relative_ci[0], r.relative_change);
        EXPECT_GT(r.relative_ci[1], r.relative_change);
        EXPECT_LT(r.relative_ci[1], 0.0);
    }
}

TwoSampleComparison compare(Side a, Side b) {
    ComparisonOptions o;
    o.bootstrap_resamples = 0;
    o.threads = 1;
    const SampleLayout la = a.layout(), lb = b.layout();
    std::vector<double> va = a.values, vb = b.values;
    return compare_samples(MutableScaledValues{std::span<double>(va), 0},
                           MutableScaledValues{std::span<double>(vb), 0}, o, la, lb);
}

TEST(FleetCompare, MachinesAreTheUnitWhenTheyMatter) {
    const json f = load_fleet();
    const TwoSampleComparison c = compare(side(f, "baseline"), side(f, "candidate"));
    ASSERT_TRUE(c.fleet.known);
    EXPECT_TRUE(c.fleet.machines_matter);
    EXPECT_TRUE(c.fleet.by_machines);
    EXPECT_TRUE(c.fleet.paired);
    EXPECT_EQ(c.fleet.shared_machines, 3u);
    EXPECT_EQ(c.primary.test, PrimaryTest::paired_machine_means);
    const json& p = f.at("paired");
    expect_rel(c.primary_p, p.at("p"), 1e-6, "paired p");
    expect_rel(c.fleet.machine_means_test.t, p.at("t"), 1e-9, "paired t");
    expect_rel(c.change, p.at("change"), 1e-9, "change");
    expect_rel(c.relative_change, p.at("relative_change"), 1e-9, "relative change");
    expect_rel(c.change_ci[0], p.at("ci")[0], 1e-7, "ci low");
    EXPECT_EQ(c.n_per_side, 3);
    const Verdict v = decide(verdict_inputs(c, Better::lower, 0.95, 0.01, c.primary_p, "p"));
    EXPECT_EQ(v.primary, PrimaryTest::paired_machine_means);
    EXPECT_TRUE(v.by_machines);
    EXPECT_FALSE(v.by_boots);
    EXPECT_EQ(v.outcome, Outcome::inconclusive);
    ASSERT_TRUE(v.runs_needed);
    EXPECT_NE(v.reason.find("machines per side"), std::string::npos) << v.reason;
    EXPECT_STREQ(primary_test_name(PrimaryTest::paired_machine_means), "paired_machine_means");
    EXPECT_STREQ(primary_test_name(PrimaryTest::welch_machine_means), "welch_machine_means");
    EXPECT_STREQ(primary_test_words(PrimaryTest::welch_machine_means), "Welch t on machine means");
}

TEST(FleetCompare, WelchOnMachineMeansWhenNoMachineRanBoth) {
    const json f = load_fleet();
    Side a = side(f, "baseline"), b = side(f, "candidate");
    for (std::string& id : b.machine_ids) id = "other-" + id;  // the candidate ran elsewhere
    const TwoSampleComparison c = compare(a, b);
    EXPECT_TRUE(c.fleet.by_machines);
    EXPECT_FALSE(c.fleet.paired);
    EXPECT_EQ(c.fleet.shared_machines, 0u);
    EXPECT_TRUE(c.fleet.changes.rows.empty());
    EXPECT_EQ(c.primary.test, PrimaryTest::welch_machine_means);
    ASSERT_EQ(c.fleet.baseline_means.size(), 3u);
    EXPECT_EQ(c.n_per_side, 3);
    // Welch's t on the three machine means a side (each the mean of its boot means).
    const json& rows = f.at("rows");
    expect_rel(c.fleet.baseline_means[2], rows[2].at("baseline_mean"), 1e-12, "machine mean");
}

TEST(FleetCompare, WithoutAMachineEffectNothingChanges) {
    // Two machines, three boots each, no machine or boot effect: the
    // fleet is reported, but the test is the one without machines.
    std::mt19937_64 rng(11);
    std::normal_distribution<double> z(0, 1);
    const auto make = [&](const std::string& name) {
        Side s;
        s.machine_ids = {"m0", "m1"};
        for (uint32_t m = 0; m < 2; ++m)
            for (uint32_t bt = 0; bt < 3; ++bt) {
                s.boot_ids.push_back(name + std::to_string(m * 3 + bt));
                for (int r = 0; r < 5; ++r) {
                    s.values.push_back(100 + z(rng));
                    s.machine.push_back(m);
                    s.boot.push_back(m * 3 + bt);
                }
            }
        return s;
    };
    const Side a = make("a"), b = make("b");
    const TwoSampleComparison with = compare(a, b);
    Side a0 = a, b0 = b;
    a0.machine.clear();
    b0.machine.clear();
    const TwoSampleComparison without = compare(a0, b0);
    EXPECT_TRUE(with.fleet.known);
    EXPECT_FALSE(without.fleet.known);
    ASSERT_TRUE(with.fleet.baseline_variance.defined);
    EXPECT_FALSE(with.fleet.machines_matter) << with.fleet.baseline_variance.p_machines << " "
                                              << with.fleet.candidate_variance.p_machines;
    EXPECT_FALSE(with.fleet.by_machines);
    EXPECT_EQ(with.primary.test, without.primary.test);
    EXPECT_EQ(with.primary_p, without.primary_p);
    EXPECT_EQ(with.change, without.change);
    const Verdict v = decide(verdict_inputs(with, Better::lower, 0.95, 0.01, with.primary_p, "p"));
    const Verdict v0 = decide(verdict_inputs(without, Better::lower, 0.95, 0.01, without.primary_p, "p"));
    EXPECT_EQ(v.reason, v0.reason);
    EXPECT_FALSE(v.by_machines);
}

}  // namespace
