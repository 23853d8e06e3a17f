// SPDX-License-Identifier: MIT
// The cutoff of gfxstat's outlier sentence: a value is called an outlier
// when it lies more than c(n) robust standard deviations (MAD / 0.6745)
// from the median. c(n) is calibrated by simulation so that clean samples
// of the unimodal families benchmark data comes in (normal, skewed
// timings, Student t3, quantised values) get an outlier sentence at most
// 5% of the time at every n: tools/make_outlier_table.cpp writes the table
// (analysis/outlier_cutoffs.cpp); docs/diagnostics.md has the measured
// rates.
#pragma once

#include <cstddef>
#include <span>

namespace gfxstat::analysis {

struct OutlierCutoff {
    size_t n;
    double cutoff;
};

// Sorted by n, from 3; generated.
const std::span<const OutlierCutoff> outlier_cutoff_table();

// c(n): from the table, linear in log n between its sizes; beyond its last
// size growing as n^(1/3), as the largest of n Student t3 values does (the
// heaviest tail of the calibration families). +infinity for n < 3: two
// values cannot tell which one is out.
double outlier_cutoff(size_t n);

}  // namespace gfxstat::analysis
