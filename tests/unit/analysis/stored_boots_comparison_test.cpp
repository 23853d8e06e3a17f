// SPDX-License-Identifier: MIT
// When compare's analysis takes the stored-boots design (analysis/comparison.h,
// StoredBootsDesign), what it says when the baseline cannot judge, and that
// its headline interval and verdict agree with the test.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "analysis/comparison.h"
#include "analysis/stored_boots.h"

namespace {

using namespace gfxstat::analysis;

// Boots of `runs` runs each; boot i's level is level + shift[i], its runs
// alternate -+ 0.3 around it. Machine names per boot when given.
struct Side {
    std::vector<double> v;
    std::vector<uint32_t> boot, machine;
    std::vector<std::string> ids, machine_ids, machine_names;
    Side(const std::string& prefix, double level, const std::vector<double>& shift, size_t runs,
         const std::vector<std::string>& names = {}) {
        for (size_t b = 0; b < shift.size(); ++b) {
            ids.push_back(prefix + std::to_string(b));
            uint32_t m = 0;
            if (!names.empty()) {
                // A fresh machine id every boot (as a LAVA device's can be); the name decides.
                machine_ids.push_back(prefix + "-id" + std::to_string(b));
                machine_names.push_back(names[b]);
                m = static_cast<uint32_t>(b);
            }
            for (size_t r = 0; r < runs; ++r) {
                v.push_back(level + shift[b] + (r % 2 ? 0.3 : -0.3));
                boot.push_back(static_cast<uint32_t>(b));
                if (!names.empty()) machine.push_back(m);
            }
        }
    }
    SampleLayout layout() const {
        SampleLayout l;
        l.boot_of_value = boot;
        l.boot_ids = ids;
        l.machine_of_value = machine;
        l.machine_ids = machine_ids;
        l.machine_names = machine_names;
        return l;
    }
};

TwoSampleComparison run(const Side& a, const Side& b) {
    ComparisonOptions o;
    o.bootstrap_resamples = 0;
    o.threads = 1;
    std::vector<double> va = a.v, vb = b.v;
    return compare_samples(MutableScaledValues{std::span<double>(va), 0}, MutableScaledValues{std::span<double>(vb), 0},
                           o, a.layout(), b.layout());
}

Verdict verdict_of(const TwoSampleComparison& c) {
    return decide(verdict_inputs(c, Better::higher, 0.95, 0.01, c.primary_p, "p"));
}

const std::vector<double> kEight = {-2, 1.5, 0.5, -1, 2, -0.5, 1, -1.5};

TEST(StoredBootsComparison, OneNewBootAgainstEightStoredIsJudgedByBoots) {
    const Side base("main", 100, kEight, 4), cand("mr", 100, {-6}, 4);
    const TwoSampleComparison c = run(base, cand);
    ASSERT_TRUE(c.stored);
    EXPECT_EQ(c.primary.test, PrimaryTest::stored_boots);
    EXPECT_TRUE(c.stored->not_judged.empty());
    const StoredBoots t = stored_boots_test(base.v, base.boot, cand.v, cand.boot, 0.95, 0.01);
    EXPECT_DOUBLE_EQ(c.primary_p, t.p);
    EXPECT_DOUBLE_EQ(c.change, t.difference);
    EXPECT_EQ(c.n_per_side, 1);
    // The runs alone (Welch) call the 6-point drop hugely significant; the
    // boots' own spread (sd 1.5) makes it a regression still, but at a p
    // far above Welch's.
    EXPECT_LT(c.welch.p, 1e-6);
    EXPECT_GT(c.primary_p, c.welch.p * 100);
    const Verdict v = verdict_of(c);
    EXPECT_EQ(v.outcome, Outcome::regression);
    EXPECT_TRUE(v.by_boots);
    EXPECT_FALSE(v.not_judged);
    // Fieller's interval of the ratio excludes 0% exactly as the test rejects.
    EXPECT_LT(c.relative_change_ci[1], 0);
}

TEST(StoredBootsComparison, AShiftWithinTheBootsSpreadIsNotARegression) {
    // 2 points down: the runs (sd 0.3) see it; the boots (sd 1.5) do not.
    const Side base("main", 100, kEight, 4), cand("mr", 100, {-2}, 4);
    const TwoSampleComparison c = run(base, cand);
    ASSERT_TRUE(c.stored);
    EXPECT_GT(c.primary_p, 0.05);
    EXPECT_LT(c.relative_change_ci[0], 0);
    EXPECT_GT(c.relative_change_ci[1], 0);
    EXPECT_EQ(verdict_of(c).outcome, Outcome::inconclusive);
}

TEST(StoredBootsComparison, TooFewStoredBootsGetASentence) {
    const Side base("main", 100, {-1, 0, 1}, 4), cand("mr", 100, {-6}, 4);
    const TwoSampleComparison c = run(base, cand);
    ASSERT_TRUE(c.stored);
    EXPECT_EQ(c.stored->not_judged, "too_few_baseline_boots");
    EXPECT_FALSE(c.primary_defined);
    const Verdict v = verdict_of(c);
    EXPECT_EQ(v.outcome, Outcome::inconclusive);
    EXPECT_TRUE(v.not_judged);
    EXPECT_TRUE(std::isnan(v.p_adjusted));
    EXPECT_EQ(v.reason.rfind("not judged: the baseline holds 3 boots", 0), 0u) << v.reason;
}

TEST(StoredBootsComparison, AnotherMachinesBootsGetASentence) {
    std::vector<std::string> names(kEight.size(), "dut-3");
    names[5] = "dut-7";
    const Side base("main", 100, kEight, 4, names), cand("mr", 100, {-6}, 4, {"dut-3"});
    const TwoSampleComparison c = run(base, cand);
    ASSERT_TRUE(c.stored);
    EXPECT_EQ(c.stored->not_judged, "other_machine");
    EXPECT_EQ(c.stored->candidate_machine, "dut-3");
    ASSERT_EQ(c.stored->other_machines.size(), 1u);
    EXPECT_EQ(c.stored->other_machines[0], "dut-7");
    const Verdict v = verdict_of(c);
    EXPECT_TRUE(v.not_judged);
    EXPECT_NE(v.reason.find("(dut-7)"), std::string::npos) << v.reason;
    // One name throughout, a new machine id every boot: one machine, judged.
    const Side same("main", 100, kEight, 4, std::vector<std::string>(kEight.size(), "dut-3"));
    const TwoSampleComparison d = run(same, cand);
    ASSERT_TRUE(d.stored);
    EXPECT_TRUE(d.stored->not_judged.empty());
    EXPECT_EQ(d.primary.test, PrimaryTest::stored_boots);
}

TEST(StoredBootsComparison, OtherLayoutsKeepTheirDesigns) {
    const Side base("main", 100, kEight, 4);
    // As many candidate boots as baseline boots: an experiment, not history.
    EXPECT_FALSE(run(Side("a", 100, {-1, 0, 1}, 4), Side("b", 100, {0, 1, 2}, 4)).stored);
    EXPECT_FALSE(run(Side("a", 100, {-1, 0, 1, 2, -2}, 4), Side("b", 100, {0, 1, 2, 3, -1}, 4)).stored);
    EXPECT_TRUE(run(Side("a", 100, {-1, 0, 1, 2, -2, 0.5}, 4), Side("b", 100, {0, 1, 2, 3, -1}, 4)).stored);
    // More than kStoredBootsMaxCandidate candidate boots.
    std::vector<double> many(kEight.size() * 2, 0.0);
    for (size_t i = 0; i < many.size(); ++i) many[i] = kEight[i % kEight.size()];
    EXPECT_FALSE(run(Side("main", 100, many, 4), Side("mr", 100, {0, 1, -1, 2, -2, 0.5}, 4)).stored);
    // A boot holding both variants: paired by boot.
    Side shared("mr", 100, {0}, 4);
    shared.ids[0] = "main3";
    EXPECT_FALSE(run(base, shared).stored);
    // One stored boot against one new: confounded, as before.
    EXPECT_FALSE(run(Side("main", 100, {0}, 4), Side("mr", 100, {0}, 4)).stored);
}

}  // namespace
