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
#include "report/readable_units.h"

namespace gfxstat::cli {

// "-4.29% (-0.1443): difference of means (Welch t), 95% CI -6.1% to -2.5%";
// with `unit`, the absolute numbers in that unit ("(-1.87 ms)").
std::string headline_change(const analysis::TwoSampleComparison& c, const analysis::Verdict& v, double confidence,
                            const report::DisplayUnit* unit = nullptr);

// For an exact metric whose values vary within a side: a warning sentence
// (a deterministic metric should not vary); "" when neither side varies.
std::string exact_variation(const analysis::TwoSampleComparison& c, const std::string& baseline,
                            const std::string& candidate);

}  // namespace gfxstat::cli
