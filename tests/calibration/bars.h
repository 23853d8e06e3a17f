// SPDX-License-Identifier: MIT
// The bars each measured rate must meet, with binomial slack for the
// Monte Carlo error of R replicates, and the list of cells that miss them
// (`gfxstat_calibration --check`).
#pragma once

#include <string>
#include <vector>

#include "tests/calibration/cells.h"

namespace gfxstat::calibration {

// A rate's bar: at most (upper) or at least `nominal`, loosened by
// 3 sqrt(nominal (1 - nominal) / count): three binomial standard errors at
// the bar itself, so a procedure exactly at its nominal rate misses it in
// about 1 cell in 700 (one-sided normal tail), and the slack grows as the
// replicates shrink (--quick, sanitized builds).
struct Bar {
    double nominal = 0;
    bool upper = true;  // the rate must not exceed it (a false alarm rate)
    double limit(size_t count) const;
    bool met(size_t hits, size_t count) const;  // vacuously true when count == 0
};

inline constexpr Bar kGateBar{kAlpha / 2, true};           // A/A false --gate
inline constexpr Bar kAnyVerdictBar{kAlpha, true};         // A/A improvement or regression
inline constexpr Bar kCoverageBar{1 - kAlpha - 0.02, false};
inline constexpr Bar kSampleBar{0.05, true};               // false bimodal, false outlier sentence
inline constexpr Bar kDriftBar{0.01, true};                // false drift, false first-run difference

struct Miss {
    std::string cell;  // family, n, condition
    std::string what;  // the rate, its value and its bar
};

std::vector<Miss> misses(const std::vector<CellResult>& results);

}  // namespace gfxstat::calibration
