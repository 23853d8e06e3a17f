// SPDX-License-Identifier: MIT
// Per-machine changes of a fleet: for each machine that ran both variants,
// how much the candidate moved there, so that one bad DUT stands out
// instead of being averaged into the fleet's answer (or into its noise).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/diagnostics.h"
#include "analysis/t_tests.h"

namespace gfxstat::analysis {

// One machine's level in one sample: the mean of its boot means (when
// boots are the unit within a machine) or of its runs.
struct MachineMeans {
    std::vector<std::string> ids;  // machine ids, in order of machine index
    std::vector<double> means;
    std::vector<size_t> runs, boots;  // boots: 0 when boots are unknown
};
// The machines holding values, in order of machine index. `by_boots`:
// each machine's mean is the mean of its boots' means (needs boot ids;
// ignored without). Empty when the layout carries no machines.
MachineMeans machine_means(std::span<const double> values, const SampleLayout& layout, bool by_boots);

struct MachineChange {
    std::string machine;  // its id (SampleLayout::machine_ids)
    size_t baseline_runs = 0, candidate_runs = 0;
    // The units of this machine's test: its boot means (boots matter and it
    // ran 2+ boots of each variant) or its runs.
    bool by_boots = false;
    size_t baseline_units = 0, candidate_units = 0;
    double baseline_mean = 0, candidate_mean = 0;  // of the units
    double change = 0;           // candidate_mean - baseline_mean
    double relative_change = 0;  // change / |baseline_mean|; NaN when that is 0
    TTest welch;                 // Welch's t on the units, at the confidence given
    // The relative change's interval: Fieller's for the ratio of means where
    // the baseline's mean is positive, else welch.ci / |baseline_mean|; NaN
    // where there is none (the test undefined, the baseline's mean not
    // told from 0).
    std::array<double, 2> relative_ci{};
    // Does this machine's change stand out from the others'? Defined with
    // 3+ machines, every one with a defined test.
    bool loo_defined = false;
    double others_change = 0;           // mean of the other machines' changes
    double others_relative_change = 0;  // mean of their relative changes
    double loo_t = 0, loo_df = 0, loo_p = 1;
    double loo_p_adjusted = 1;          // Bonferroni over the machines
    // loo_p_adjusted < 1 - confidence and the relative changes differ by
    // more than the threshold.
    bool stands_out = false;
};

struct MachineChanges {
    std::vector<MachineChange> rows;  // machines that ran both variants, in the baseline's order
    // The row that stands out most (smallest adjusted p among those that
    // stand out); none when no row does.
    std::optional<size_t> odd;
};

// The leave-one-out test, for each machine i of k >= 3: its change d_i
// against the mean of the others' changes m_i, t = (d_i - m_i) / sqrt(se_i^2
// + V_i), where se_i is its own Welch standard error (its own measurement
// noise) and V_i the variance of the others' mean, the larger of what
// their own standard errors say (sum se_j^2 / (k-1)^2, measurement noise
// alone) and what their spread says (var(d_j) / (k-1), which holds when
// machines genuinely differ in how they respond: then one machine's
// different change is nothing odd). Satterthwaite's degrees of freedom;
// two-sided p, Bonferroni over the k machines, so that with no odd machine
// a fleet shows one at most 1 - confidence of the time. The relative
// threshold keeps a real but tiny difference from being called out.
MachineChanges machine_changes(std::span<const double> baseline, std::span<const double> candidate,
                               const SampleLayout& baseline_layout, const SampleLayout& candidate_layout,
                               bool boots_matter, double confidence, double threshold);

}  // namespace gfxstat::analysis
