// SPDX-License-Identifier: MIT
// compare --summaries --format json: every comparison's tests, interval,
// effect size and verdict; numbers that are not finite are null.
#pragma once

#include <string>

#include "findings/summary_comparison.h"

namespace gfxstat::report {

// Indented by 2, invalid UTF-8 replaced, without a final newline.
std::string summary_comparisons_json(const findings::SummaryComparisons& r);

}  // namespace gfxstat::report
