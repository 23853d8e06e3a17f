#pragma once

#include <string>
#include <vector>

#include "cli/report/compare_report.h"
#include "data/results_model.h"

namespace gfxstat::cli {
// gfxstat compare [options] BASELINE CANDIDATE...
int compare_main(int argc, char** argv);

// --metric, --baseline and --variant.
struct CompareChoices {
    std::vector<std::string> metrics;   // empty: all
    std::string baseline;               // empty: the first variant
    std::vector<std::string> variants;  // empty: all others
    bool exact = false;                 // --exact: every metric compared is deterministic
};

// One results file holding several variants, compared within itself: the
// samples of each metric, baseline and candidates (throws InputError).
std::vector<MetricReport> within_one_file(const std::string& name, const data::ResultsFile& file,
                                          const CompareChoices& ch);

// Fills in report.metrics' comparisons and verdicts (after --drop-outliers
// when report.drop_outliers): the statistics of every candidate against its
// baseline, p-values adjusted over all of them (Holm, or Benjamini-Hochberg
// with `fdr`), then each verdict. Throws InputError for a side with fewer
// than 2 values.
// Which metrics are primary (the multiplicity family, the gate) and which
// secondary: all when the user named them (`named`); else those the
// workload declares primary; else those with a direction; else all.
void assign_roles(std::vector<MetricReport>& metrics, bool named);

void analyse_comparisons(CompareReport& report, bool fdr, bool diagnostics, int threads = 2);
}  // namespace gfxstat::cli
