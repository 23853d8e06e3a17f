// SPDX-License-Identifier: MIT
// The verdict on a suite measured once a side (analysis/paired_suite.h),
// made the one way `gfxstat compare` makes it (findings/compare_suite.cpp) and
// the calibration suite measures it (tests/calibration/suite_sim.cpp): which
// test is primary, its p, and the inputs decide() reads. Kept here so that
// the rates docs/calibration.md publishes are the rates of compare's own
// rule, not of a copy of it.
#pragma once

#include <span>
#include <string>

#include "analysis/paired_suite.h"
#include "analysis/verdict.h"

namespace gfxstat::analysis {

// The primary test on the per-benchmark differences: the paired t
// (PrimaryTest::paired_benchmarks), unless 8 or more of them look far from
// normal (|skewness| > 1 or |excess kurtosis| > 3: a cliff among the rows)
// and 8 or more are nonzero (the signed-rank test drops zeros), when the
// Wilcoxon signed-rank test is (signed_rank_benchmarks); the shape rule of
// choose_primary, applied to the one sample of differences.
PrimaryChoice paired_suite_primary(const PairedSuite& s);

// The chosen test's p, before any adjustment over candidates.
double paired_suite_p(const PairedSuite& s, const PrimaryChoice& primary);

// decide()'s inputs. The differences are oriented (above 0 is better) when
// every direction is known, so `better` is then higher; otherwise unknown.
// The change is the primary test's estimate (the mean log ratio, or the
// Hodges-Lehmann estimate), relative to the baseline as exp(change) - 1 on
// log ratios, or change / mean |baseline| on plain differences (NaN when
// that mean is 0). `baseline` holds the suite's baseline values, one per
// pair, as analyse_paired_suite was given them; p_adjusted is the primary p
// after adjustment over the candidates, named p_label in the reason.
VerdictInputs paired_suite_verdict_inputs(const PairedSuite& s, const PrimaryChoice& primary,
                                          std::span<const double> baseline, double confidence, double threshold,
                                          double p_adjusted, const std::string& p_label);

}  // namespace gfxstat::analysis
