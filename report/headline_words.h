// SPDX-License-Identifier: MIT
// The headline change of a comparison in words, one definition for every
// format: the primary test's estimate of the change (difference of means
// for Welch's t, the Hodges-Lehmann shift for Mann-Whitney, the difference
// of boot means when boots are the unit, the exact difference for an exact
// metric), relative to the baseline's magnitude, with that test's own
// confidence interval.
#pragma once

#include <string>

#include "analysis/comparison.h"
#include "analysis/verdict.h"
#include "text/readable_units.h"

namespace gfxstat::cli {

// "-4.29% (-0.1443): difference of means (Welch t), 95% CI -6.1% to -2.5%";
// with `unit`, the absolute numbers in that unit ("(-1.87 ms)").
std::string headline_change(const analysis::TwoSampleComparison& c, const analysis::Verdict& v, double confidence,
                            const text::DisplayUnit* unit = nullptr);

// A relative change and an interval's ends in percent, one spelling for
// the full report and --brief alike: the estimate with 3 significant
// digits ("+0.0452%"), an end as short as its precision deserves (a tenth
// of a percent above 1%, a hundredth below, none past 100%: "+0.08%",
// "+2.0%", "+1265%").
std::string change_percent(double relative);
std::string bound_percent(double relative);

// A difference of values recorded in `row`'s unit (with `sign`, a '+'
// before positive ones) in the unit readable for `magnitude` (the
// difference itself, or the largest end of its interval), 3 significant
// digits: "+1.87 ms" in a row of seconds (text/readable_units.h).
std::string difference_value(double v, const text::DisplayUnit& row, double magnitude, bool sign);

// For an exact metric whose values vary within a side: a warning sentence
// (a deterministic metric should not vary); "" when neither side varies.
std::string exact_variation(const analysis::TwoSampleComparison& c, const std::string& baseline,
                            const std::string& candidate);

}  // namespace gfxstat::cli
