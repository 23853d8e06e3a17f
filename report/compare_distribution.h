// SPDX-License-Identifier: MIT
// One metric's samples as ministat draws them: the metric's title with its
// unit and direction, a key line per sample, the histogram and the table
// of N, Min, Max, Median, Avg and Stddev; no line wider than the report's
// --width. The whole report (compare_text.cpp) prints it for every metric,
// the short one (compare_short.cpp) for its primary metric only.
#pragma once

#include <cstddef>
#include <cstdio>

#include "findings/compare_findings.h"

namespace gfxstat::cli {

// `max_rows`: the histogram's rows at most (taller stacks are scaled down).
void print_distribution(const CompareReport& r, const MetricReport& m, FILE* out, size_t max_rows);

}  // namespace gfxstat::cli
