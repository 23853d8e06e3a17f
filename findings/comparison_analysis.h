// SPDX-License-Identifier: MIT
// The statistics of compare's report (findings/compare_findings.h): each
// candidate against its baseline, the p-values adjusted over the family of
// primary metrics, each verdict; which metrics are primary; the geomeans.
#pragma once

#include <string>
#include <vector>

#include "findings/compare_findings.h"

namespace gfxstat::cli {

// Which metrics are primary (the multiplicity family, the gate) and which
// secondary: all when the user named them (`named`); else those the
// workload declares primary; else those with a direction; else all.
void assign_roles(std::vector<MetricReport>& metrics, bool named);

// Fills in report.metrics' comparisons and verdicts (after --drop-outliers
// when report.drop_outliers): the statistics of every candidate against its
// baseline, p-values adjusted over all of them (Holm, or Benjamini-Hochberg
// with `fdr`), then each verdict. Throws InputError for a side with fewer
// than 2 values.
void analyse_comparisons(CompareReport& report, bool fdr, bool diagnostics, int threads = 2);

// The geomean of each candidate over the metrics named with --geomean, or
// by default over the primary metrics when they are one kind of quantity
// (one unit: the same metric across benchmarks) and there are 2 or more;
// what it leaves out, in report.geomean_notes. Throws InputError for a
// named metric not compared or without a direction.
void compute_geomeans(CompareReport& report, const std::vector<std::string>& named);

}  // namespace gfxstat::cli
