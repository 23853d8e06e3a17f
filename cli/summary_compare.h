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

#include "analysis/verdict.h"

namespace gfxstat::cli {

struct CompareSettings;

// What compare's options mean here (the defaults are compare's).
struct SummaryCompareSettings {
    double confidence = 0.95;  // in (0.5, 1): the equivalence test's interval is at 1 - 2 alpha
    double threshold = 0.01;   // relative (compare's --threshold is in percent: divide by 100)
    analysis::Better better = analysis::Better::unknown;  // --lower-is-better / --higher-is-better
    std::string format = "text";                          // text, markdown or json
    int width = 72;                                       // text: lines at most this many columns
    bool gate = false, strict = false;
    bool fdr = false;      // Benjamini-Hochberg instead of Holm over the comparisons
    std::string baseline;  // a row's label (--baseline); "" for the first row of the first file
    std::string program = "gfxstat compare";  // what errors on stderr begin with
};

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
