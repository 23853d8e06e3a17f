// SPDX-License-Identifier: MIT
// How often a fleet's verdict is wrong, measured by seeded simulation:
// machines that differ by a few percent for their whole life, boots and
// runs within them, and no true change. The machine-level test must call a
// change about 1 - confidence of the time; Welch's t on the runs, which
// takes 60 runs of 4 machines for 60 independent observations, calls one
// far more often. Two designs: the variants on different machines (Welch
// on machine means), and on the same machines, which respond to the
// candidate each a little differently (the paired t on per-machine
// differences; there the machines' levels cancel in the runs' difference
// too, so Welch's t on runs is not inflated, only wasteful). About 2 s; the rates are printed for docs/diagnostics.md.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "analysis/comparison.h"

namespace {

using namespace gfxstat::analysis;

struct Side {
    std::vector<double> values;
    std::vector<uint32_t> machine, boot;
    std::vector<std::string> machine_ids, boot_ids;
};

struct Rates {
    int reps = 0, machine_test = 0, primary_significant = 0, welch_runs_significant = 0;
};

// machines x boots x runs a side; machine levels N(0, machine_sd) relative,
// boots N(0, boot_sd), runs N(0, run_sd); `interaction`: each shared
// machine's response to the candidate, N(0, interaction) (a true mean
// change of 0 over machines).
Rates simulate(bool shared, int reps, uint64_t seed) {
    const int machines = 4, boots = 3, runs = 5;
    const double machine_sd = 0.03, boot_sd = 0.005, run_sd = 0.01, interaction = shared ? 0.01 : 0;
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> z(0, 1);
    ComparisonOptions o;
    o.bootstrap_resamples = 0;
    o.threads = 1;
    Rates r;
    for (int rep = 0; rep < reps; ++rep) {
        std::vector<double> level(2 * machines), response(2 * machines);
        for (double& x : level) x = machine_sd * z(rng);
        for (double& x : response) x = interaction * z(rng);
        Side s[2];
        for (int v = 0; v < 2; ++v) {
            for (int m = 0; m < machines; ++m) {
                const int id = shared ? m : v * machines + m;
                s[v].machine_ids.push_back("m" + std::to_string(id));
                for (int b = 0; b < boots; ++b) {
                    const double bl = boot_sd * z(rng);
                    s[v].boot_ids.push_back(std::to_string(v) + "-" + std::to_string(m) + "-" + std::to_string(b));
                    for (int k = 0; k < runs; ++k) {
                        const double rel = level[id] + bl + run_sd * z(rng) + (v == 1 ? response[id] : 0);
                        s[v].values.push_back(100 * (1 + rel));
                        s[v].machine.push_back(static_cast<uint32_t>(m));
                        s[v].boot.push_back(static_cast<uint32_t>(m * boots + b));
                    }
                }
            }
        }
        SampleLayout l[2];
        for (int v = 0; v < 2; ++v) {
            l[v].machine_of_value = s[v].machine;
            l[v].machine_ids = s[v].machine_ids;
            l[v].boot_of_value = s[v].boot;
            l[v].boot_ids = s[v].boot_ids;
        }
        const TwoSampleComparison c = compare_samples(MutableScaledValues{std::span<double>(s[0].values), 0},
                                                      MutableScaledValues{std::span<double>(s[1].values), 0}, o,
                                                      l[0], l[1]);
        ++r.reps;
        r.machine_test += c.fleet.by_machines;
        r.primary_significant += c.primary_defined && c.primary_p < 1 - o.confidence;
        r.welch_runs_significant += c.welch.p < 1 - o.confidence;
    }
    return r;
}

void check(const Rates& r, const char* what, bool welch_inflated) {
    const double n = r.reps, alpha = 0.05;
    const double fp = r.primary_significant / n, welch = r.welch_runs_significant / n;
    std::printf("%s: %d reps, machine test chosen %.1f%%, false positives %.1f%% (machine-level verdict), "
                "%.1f%% (Welch t on runs)\n",
                what, r.reps, 100 * r.machine_test / n, 100 * fp, 100 * welch);
    // Within 3 binomial standard errors of alpha.
    const double se = std::sqrt(alpha * (1 - alpha) / n);
    EXPECT_GE(r.machine_test / n, 0.95) << what;
    EXPECT_LE(fp, alpha + 3 * se) << what;
    EXPECT_GE(fp, alpha - 3 * se) << what;
    if (welch_inflated) {
        EXPECT_GE(welch, 0.25) << what;
    }
}

TEST(FleetCalibration, DifferentMachinesFalsePositivesNearAlpha) { check(simulate(false, 600, 20261203), "different machines", true); }

TEST(FleetCalibration, SharedMachinesFalsePositivesNearAlpha) { check(simulate(true, 600, 20261204), "shared machines", false); }

}  // namespace
