// SPDX-License-Identifier: MIT
// `gfxstat compare --summaries FILE...`: the comparison that N, mean and
// standard deviation per side allow, as mailing-list threads paste them
// (a ministat report, a table of n/mean/sd: formats/summary_table.h).
// Welch's t decides (with Student's t, the TOST equivalence test and
// Hedges' g beside it); nothing about the samples' shape, drift, outliers
// or boots can be checked, and every format says so.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "findings/summary_comparison.h"

namespace gfxstat::cli {

struct CompareSettings;

// What compare's options mean here (findings/summary_comparison.h).
using findings::SummaryCompareSettings;

// The settings of a parsed `gfxstat compare` command line that apply to
// summaries: confidence, threshold (percent to relative), direction,
// format, width, gate, strict, fdr, baseline and program.
SummaryCompareSettings summary_compare_settings(const CompareSettings& s);

// Reads each file's summaries (formats/summary_table.h; "-" is standard
// input) and compares: the baseline is the first row of the first file
// (or the row labelled s.baseline), every other row a candidate. When the
// rows name benchmarks, each benchmark is compared within itself, with
// the baseline's label as its baseline; a benchmark without the baseline
// or without a candidate is an error. p-values are Holm-adjusted (or
// Benjamini-Hochberg with fdr) over every comparison. Prints the report to
// `out`, errors to stderr, and returns compare's exit status: 0; with
// s.gate 1 for a regression beyond the threshold, with s.strict 3 when a
// comparison is inconclusive; 2 on bad input (nothing is printed to out).
int compare_summaries(const std::vector<std::string>& files, const SummaryCompareSettings& s, FILE* out);

}  // namespace gfxstat::cli
