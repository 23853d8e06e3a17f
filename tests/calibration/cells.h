// SPDX-License-Identifier: MIT
// The cells of the calibration table and how one is measured: a family, a
// sample size per side and a condition (A/A, a multiplicative change for
// power, an additive shift for coverage), R seeded replicates of
// compare_samples and the CLI's verdict (verdict_probe.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/calibration/families.h"

namespace gfxstat::calibration {

inline constexpr double kAlpha = 0.05;            // the CLI's default --confidence 0.95
inline constexpr double kThreshold = 0.01;        // the CLI's default --threshold 1 (%)
inline constexpr double kCoverageShift = 0.05;    // the additive shift, times the family mean

enum class Condition { aa, scale2, scale5, scale10, shift5 };
inline constexpr Condition kConditions[] = {Condition::aa, Condition::scale2, Condition::scale5,
                                            Condition::scale10, Condition::shift5};
const char* condition_name(Condition c);
Change change_for(const Family& f, Condition c);

struct CellSpec {
    size_t family = 0;  // index into families()
    size_t n = 0;       // values per side
    Condition condition = Condition::aa;
    size_t reps = 0;
    uint64_t seed = 0;  // the cell's own seed, from the run's seed and the cell's identity
};

struct CellResult {
    CellSpec spec;
    size_t reps = 0;
    // Verdicts.
    size_t gate_fails = 0;    // regression beyond the threshold (what --gate fails on)
    size_t significant = 0;   // improvement, regression or changed
    size_t correct = 0;       // significant in the direction of the change (power cells)
    size_t no_change = 0, inconclusive = 0;
    size_t by_welch = 0, by_mann_whitney = 0, by_boot_means = 0, by_other = 0;  // the primary test chosen
    // The headline interval against the true change (0, or the shift).
    size_t interval_defined = 0, covered = 0;
    // Per sample (both sides in A/A: 2 reps samples).
    size_t samples = 0;
    size_t bimodal = 0;
    size_t outlier_sentence = 0;
    size_t planted_found = 0;  // outlier family: the planted value is among those reported
    size_t drift = 0;          // trending || shifted || trending_within_boots
    size_t first_run = 0;      // first_run_differs
};

// The cells of the table: every family and n; the verdict families under
// every condition, the detection families in A/A only. `quick`: a fast
// subset (a few families and sizes, A/A and one power condition).
std::vector<CellSpec> table_cells(uint64_t seed, size_t reps, bool quick);

CellResult run_cell(const CellSpec& spec);

// Runs every cell on `threads` threads (each cell is deterministic on its
// own seed, so the result does not depend on the thread count).
std::vector<CellResult> run_cells(const std::vector<CellSpec>& specs, unsigned threads);

inline constexpr size_t kSizes[] = {2, 3, 5, 8, 10, 20, 50};

}  // namespace gfxstat::calibration
