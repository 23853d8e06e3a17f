// SPDX-License-Identifier: MIT
// The small formulas the rank procedures share (analysis/rank_tests for
// Mann-Whitney and Hodges-Lehmann, analysis/signed_rank for Wilcoxon's
// signed-rank test), written once so that both match R the same way.
#pragma once

#include <vector>

namespace gfxstat::analysis {

// sum(t^3 - t) over the groups of equal values of an ascending array: the
// tie correction of a rank statistic's variance.
double tie_sum_sorted(const std::vector<double>& sorted);

// 1 - Phi(z), without the loss of digits of 1 - Phi for z past ~6.
double normal_upper(double z);

// R's median() of an even count: the mean of the two middle values, halved
// first where their sum would overflow.
double mean_of_middles(double a, double b);

}  // namespace gfxstat::analysis
