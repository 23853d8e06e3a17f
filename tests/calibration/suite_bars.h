// SPDX-License-Identifier: MIT
// The bars each suite rate must meet (suite_sim.h), with the same binomial
// slack as the two-sample bars (bars.h), and the suite cells that miss them
// (`gfxstat_calibration --check`).
#pragma once

#include <vector>

#include "tests/calibration/bars.h"
#include "tests/calibration/suite_sim.h"

namespace gfxstat::calibration {

// A/A: any significant verdict at most alpha, a false --gate at most
// alpha / 2 (kAnyVerdictBar, kGateBar). Coverage: at least the interval's
// own level, 95% for the geomean's (a t interval) and the Hodges-Lehmann
// interval's achieved confidence where that is lower (87.5% at k = 4:
// the signed-rank distribution of 4 differences has no finer step).
inline constexpr Bar kSuiteCoverageBar{1 - kAlpha, false};
Bar hl_coverage_bar(const SuiteCellResult& r);

// Power: a 5% improvement of every benchmark, measured at sd 0.5% a value
// with 8 or more benchmarks, is called an improvement in at least 90% of
// the suites (a plain share, no slack: the design sees it nearly always).
inline constexpr double kSuitePowerFloor = 0.9;
bool power_bar_applies(const SuiteCellResult& r);

std::vector<Miss> suite_misses(const std::vector<SuiteCellResult>& results);

}  // namespace gfxstat::calibration
