// SPDX-License-Identifier: MIT
// compare over a suite of benchmarks: which design the data is, and the
// suite-level analysis of a suite measured once a side.
//
// A suite whose every benchmark has 2+ values a side is analysed benchmark
// by benchmark (analyse_comparisons), p-values adjusted over the suite. A
// suite where some benchmark has a single value on a side (the per-test
// averages a thread pastes, one rate per gem_fence_upload row) cannot be:
// its benchmarks are then the pairs, and the suite is tested as paired
// data (analysis/paired_suite.h). Twelve rates of one IGT run that each
// moved by +0.1% show nothing to a two-sample test over the rates (p = 0.9:
// the rates differ from each other far more) and a clear change to the
// paired one (p = 0.005): the design must follow the data.
#pragma once

#include "findings/compare_findings.h"

namespace gfxstat::cli {

// True when the suite is to be tested as pairs: 2 or more benchmarks, none
// compared exactly, and some side of some primary benchmark holding a
// single value.
bool wants_paired_suite(const CompareReport& r);

// Fills r.paired (one per candidate, over the primary benchmarks measured
// for it and the baseline) and sets r.paired_by_benchmark. Each pair is
// the benchmark's mean on each side. The primary test is the paired t on
// the oriented log ratios, or the Wilcoxon signed-rank test when the
// differences look far from normal and 8 or more of them are nonzero
// (analysis::paired_suite_primary);
// p-values are adjusted over the candidates (Holm, or BH with `fdr`).
// Throws InputError when fewer than 2 benchmarks pair up, or when values
// that are not all positive come in different units (no ratio, and no
// difference, means anything across them).
void analyse_paired_suite(CompareReport& r, bool fdr);

// A suite (2+ benchmarks) where some benchmark was not measured enough for
// a variant (fewer than 2 values a side; 1 for an exact metric): that
// comparison is left out (the whole benchmark, when the baseline lacks it)
// with a note in r.selection_notes, so that one skipped subtest does not
// stop the suite. Nothing is left out when nothing would remain: the
// comparison's own error then says what is missing.
void leave_out_unmeasured(CompareReport& r);

}  // namespace gfxstat::cli
