// SPDX-License-Identifier: MIT
// One new CI boot against stored history, by seeded simulation: how often
// `gfxstat compare` calls a regression when nothing changed, with a
// baseline of B stored boots (builds of main on one machine) and a
// candidate of k boots, none shared (analysis/stored_boots.h); beside it
// the run-level Welch t a user would otherwise get (every run counted as
// independent), and the power at a real regression (docs/calibration.md,
// "One new boot against stored history").
//
// A drawn boot has a level, 100 plus sb times a variate of sd 1 (normal,
// or Student's t with 3 df scaled to sd 1: now and then a boot far off,
// as a boot whose clocks or memory layout came out badly); each of its n
// runs adds N(0, 1) (sd 1% of the level, sw). The ratio sb / sw is what
// decides how far off the run-level test goes. Higher is better (fps); the
// regression drawn is every candidate run x0.95.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tests/calibration/bars.h"
#include "tests/calibration/markdown.h"

namespace gfxstat::calibration {

enum class BootLevels { normal, t3 };
const char* boot_levels_name(BootLevels l);  // "normal", "t3"

inline constexpr double kBootRatios[] = {0.5, 1, 3};           // sb / sw
inline constexpr size_t kRunsPerBoot[] = {5, 10};
inline constexpr size_t kCandidateBoots[] = {1, 2, 5};
inline constexpr size_t kBaselineBoots[] = {3, 5, 10, 30};     // 3: below the minimum, not judged
inline constexpr double kStoredRegression = 0.95;             // the power cells' candidate factor

struct StoredCellSpec {
    BootLevels levels = BootLevels::normal;
    double ratio = 1;       // sb / sw
    size_t runs = 5;        // per boot, both sides
    size_t k = 1;           // candidate boots
    size_t boots = 10;      // baseline boots (B)
    bool regression = false;  // the candidate x0.95; else A/A
    size_t reps = 0;
    uint64_t seed = 0;
};

struct StoredCellResult {
    StoredCellSpec spec;
    size_t reps = 0;
    // compare's verdicts (the CLI's path: compare_samples, then decide).
    size_t by_design = 0;     // the stored-boots design decided
    size_t not_judged = 0;    // it said the sentence instead (too few boots)
    size_t regressions = 0;   // outcome regression (A/A: false; else: caught)
    size_t gate_fails = 0;    // regression beyond the threshold: what --gate fails on
    size_t significant = 0;   // improvement, regression or changed
    size_t no_change = 0;
    // The run-level Welch t on the same runs: p < alpha, candidate lower.
    size_t naive_regressions = 0;
};

// Cells with k < B only (as many new boots as stored ones is an A/B of two
// sets of boots, not history).
// `quick`: what ctest checks (calibration_quick): A/A at 5 runs a boot
// against 5 and 10 stored boots (and 3 at k = 1), one power cell a kind of
// boot level.
std::vector<StoredCellSpec> stored_cells(uint64_t seed, size_t reps, bool quick);
StoredCellResult run_stored_cell(const StoredCellSpec& spec);
std::vector<StoredCellResult> run_stored_cells(const std::vector<StoredCellSpec>& specs, unsigned threads);

// A/A cells where compare judged: false regressions at most alpha and any
// significant verdict at most alpha (Bar, with slack); --check lists misses.
std::vector<Miss> stored_misses(const std::vector<StoredCellResult>& results);

void write_stored_text(std::FILE* out, const std::vector<StoredCellResult>& results, const RunInfo& info);
void write_stored_markdown(std::FILE* out, const std::vector<StoredCellResult>& results, const RunInfo& info);

}  // namespace gfxstat::calibration
