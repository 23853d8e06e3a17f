// SPDX-License-Identifier: MIT
// gfxstat summary's text report (findings/sample_summary.h).
#pragma once

#include <cstdio>
#include <vector>

#include "findings/sample_summary.h"

namespace gfxstat::report {

// The rows of one metric (or of column files), lines at most `width`
// columns: the metric's heading when `heading` or its unit was scaled, the
// table, then diagnostics in words under it for the samples they concern.
// Text from data is escaped.
void print_summary_table(const std::vector<findings::SampleSummary>& rows, FILE* out, int width, bool heading);

// Rows of any metrics: a table per metric (findings::by_metric), a blank
// line between them, each under its heading when there are several.
void print_summary_tables(const std::vector<findings::SampleSummary>& rows, FILE* out, int width);

}  // namespace gfxstat::report
