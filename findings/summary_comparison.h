// SPDX-License-Identifier: MIT
// compare from summary statistics (gfxstat compare --summaries): rows of
// N, mean and sd (formats/summary_table.h) paired into comparisons, the t
// procedures on their moments (analysis/t_tests.h), one multiplicity
// family, a verdict each (analysis/verdict.h). Renderers:
// report/summary_comparison_text.h, report/summary_comparison_json.h.
#pragma once

#include <array>
#include <limits>
#include <string>
#include <vector>

#include "analysis/t_tests.h"
#include "analysis/verdict.h"
#include "formats/summary_table.h"

namespace gfxstat::findings {

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

// What every report of them says first: these numbers decide less than
// samples do.
inline constexpr const char* kFromSummaries =
    "From summary statistics (N, mean, sd): Welch's t. No diagnostics are possible: the shape of the samples, "
    "drift, outliers and boots are not visible in summaries.";

// One data set: a row of a file, named (as in messages: "<stdin>" for "-").
struct SummarySide {
    std::string file;  // as named in messages ("<stdin>" for "-")
    formats::SummaryRow row;
};

struct SummaryComparison {
    std::string bench;
    SummarySide baseline, candidate;
    analysis::TwoSampleMoments moments;
    analysis::TTest welch, student;
    analysis::Equivalence equivalence;
    analysis::EffectSize effect;
    double relative_change = std::numeric_limits<double>::quiet_NaN();
    std::array<double, 2> relative_ci{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
    double cv = 0;
    bool adjusted = false;  // its p joined the family
    double p_adjusted = std::numeric_limits<double>::quiet_NaN();
    std::string p_label = "p";
    analysis::Verdict verdict;
};

struct SummaryComparisons {
    SummaryCompareSettings settings;
    bool has_bench = false;
    size_t family_size = 0;
    std::vector<SummaryComparison> comparisons;
};

// Reads each file's summaries ("-" is standard input), pairs them (the
// baseline: the first row of the first file, or the row labelled
// s.baseline; each benchmark within itself) and analyses every pair with
// p-values adjusted over the family. Throws data::InputError on bad input,
// std::invalid_argument when a statistic refuses its arguments.
SummaryComparisons compare_summary_files(const std::vector<std::string>& files, const SummaryCompareSettings& s);

// compare's exit status: 0; with gate 1 for a regression beyond the
// threshold, with strict 3 when a comparison is inconclusive.
int summary_comparisons_status(const SummaryComparisons& r);

}  // namespace gfxstat::findings
