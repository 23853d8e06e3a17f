// SPDX-License-Identifier: MIT
// Student t quantiles: exact ones (Boost.Math), and the three-decimal table
// that ministat prints with, reproduced where ministat's table is right.
#pragma once

namespace gfxstat::analysis {

// Quantile q such that P(T <= q) = p for Student's t with df > 0 degrees of
// freedom (df may be fractional, as Welch's is). 0 < p < 1.
double t_quantile(double p, double df);

// Two-sided critical value for a confidence level in percent (0, 100).
double t_critical(double level_percent, double df);

// The critical value ministat's report uses. For the levels ministat
// tabulates correctly (80, 90, 95, 98, 99) and 1 <= df <= 100 this is its
// table entry, which is the exact quantile rounded to three decimals (checked
// against Debian's binary). Everywhere else (df > 100, where ministat falls
// back to the normal row; 99.5%, whose column holds 99.8% quantiles; any
// other level) it is the exact quantile.
double ministat_t_critical(double level_percent, int df);

// True for the levels that have a column in ministat's table.
bool ministat_tabulated_level(double level_percent);

}  // namespace gfxstat::analysis
