// SPDX-License-Identifier: MIT
// What compare left out of its samples, in the notes it prints on stderr
// beside the report: outliers dropped (or why none was), and runs left out
// (failed, warm-ups, without the metric), one note for the same runs left
// out of several metrics.
#pragma once

#include <string>
#include <vector>

#include "findings/compare_findings.h"

namespace gfxstat::report {

// The notes' texts, names escaped for a terminal, in the order compare
// prints them.
std::vector<std::string> left_out_notes(const cli::CompareReport& report);

}  // namespace gfxstat::report
