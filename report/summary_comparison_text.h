// SPDX-License-Identifier: MIT
// compare --summaries' reports for people (findings/summary_comparison.h).
#pragma once

#include <cstdio>

#include "findings/summary_comparison.h"

namespace gfxstat::report {

// Lines at most r.settings.width columns (clamped to 40..1000); text from
// the files is escaped.
void print_summary_comparisons_text(const findings::SummaryComparisons& r, FILE* out);
// A table, then a line per comparison; text from the files is escaped.
void print_summary_comparisons_markdown(const findings::SummaryComparisons& r, FILE* out);

}  // namespace gfxstat::report
