// SPDX-License-Identifier: MIT
// Results merged from a fleet nest: runs within boots within machines. A
// machine is a level of clustering above the boot: one test machine can be
// a few percent faster than its neighbours for as long as it lives (its
// silicon, its cooling, its firmware), so runs of one machine, like runs
// of one boot, are not independent observations of a build.
//
// The nested random-effects analysis of variance (method of moments, Sokal
// & Rohlf, Biometry, ch. 10; Searle, Casella & McCulloch, Variance
// Components, ch. 4) splits the variance into between machines, between
// boots within a machine, and within boots, and tests each level: machines
// against boots within machines, boots against runs within boots. With
// unequal numbers of boots and runs the expected mean squares carry the
// general coefficients below; with equal numbers they reduce to the closed
// form sigma2_within = MSW, sigma2_boots = (MSB - MSW) / n and
// sigma2_machines = (MSM - MSB) / (b n).
//
// Without boot ids (imported data) the split has one level: machines and
// runs within machines (the one-way analysis of boot_clustering.h with the
// machine as the group).
//
// Checked against tests/data/fleet_reference.json (closed form and an
// independent solve of the expected-mean-square equations in numpy, and
// the general coefficients in exact fractions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace gfxstat::analysis {

struct NestedVariance {
    // At least 2 machines, at least 1 degree of freedom between boots
    // within machines (when two levels) and at least 2 within, finite
    // values; otherwise only the counts are set.
    bool defined = false;
    // 2: machine > boot > run; 1: machine > run (no boot ids, or each
    // machine ran in a single boot, so that boot and machine coincide).
    int levels = 1;
    size_t machines = 0, boots = 0, n = 0;  // boots: (machine, boot) pairs holding values
    // Sums of squares, degrees of freedom and mean squares: between
    // machines, between boots within machines (levels 2), within the
    // lowest groups (boots, or machines when levels 1).
    double ss_machines = 0, ss_boots = 0, ss_within = 0;
    double df_machines = 0, df_boots = 0, df_within = 0;
    double ms_machines = 0, ms_boots = 0, ms_within = 0;
    // Expected mean squares (Sokal & Rohlf's n0, n0', n0''):
    //   E[MS_within]   = s2_within
    //   E[MS_boots]    = s2_within + n0_boots s2_boots
    //   E[MS_machines] = s2_within + n0_machines_boots s2_boots + n0_machines s2_machines
    // With levels 1, E[MS_machines] = s2_within + n0_machines s2_machines.
    double n0_boots = 0, n0_machines_boots = 0, n0_machines = 0;
    // The method-of-moments estimates, which may be negative ...
    double sigma2_machines_raw = 0, sigma2_boots_raw = 0;
    // ... and the components as reported, negatives set to 0.
    double sigma2_machines = 0, sigma2_boots = 0, sigma2_within = 0;
    // Each component's share of their sum (all 0 when the sum is 0).
    double share_machines = 0, share_boots = 0, share_within = 0;
    // Machines against what varies below them: against boots within
    // machines (levels 2), whose expected mean square matches the
    // machines' under no machine effect only with equal numbers; with
    // unequal numbers against the synthetic mean square
    // (n0_machines_boots / n0_boots) MS_boots + (1 - that) MS_within, with
    // Satterthwaite's degrees of freedom (Sokal & Rohlf, Box 10.4). Against
    // runs within machines when levels 1. p = 0 when the denominator is 0
    // and the numerator is not; 1 when both are.
    double f_machines = 0, f_machines_df1 = 0, f_machines_df2 = 0, p_machines = 1;
    // Boots within machines against runs within boots (levels 2).
    double f_boots = 0, p_boots = 1;
};

// machine_of_value[i] is the machine of values[i], boot_of_value[i] its
// boot (small indices, any order, gaps allowed); boot_of_value may be
// empty (boots unknown: one level). A boot index seen on two machines is
// two boots (the machine and the boot together name a boot). Throws
// std::invalid_argument when a non-empty index span differs in length
// from values.
NestedVariance nested_variance(std::span<const double> values, std::span<const uint32_t> machine_of_value,
                               std::span<const uint32_t> boot_of_value = {});

// The closed form for a balanced design (every machine b boots, every boot
// n runs): raw components (not truncated) from the three mean squares.
struct VarianceComponents {
    double machines = 0, boots = 0, within = 0;
};
VarianceComponents balanced_components(double ms_machines, double ms_boots, double ms_within,
                                       double boots_per_machine, double runs_per_boot);

}  // namespace gfxstat::analysis
