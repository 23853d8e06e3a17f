// SPDX-License-Identifier: MIT
// Outliers, counted and listed, never dropped silently: the modified z-score
// (Iglewicz & Hoaglin: 0.6745 (x - median) / MAD, flagged beyond 3.5) and
// Tukey's fences (quartiles as R's quantile type 7; 1.5 IQR beyond the
// quartiles is an outlier, 3 IQR far out). Those classical flags fire on
// 8-30% of clean samples of 3-50 values (more on skewed timings), so the
// sentence gfxstat prints, and --drop-outliers, use a stricter rule:
// `reported`, a modified z-score beyond the calibrated cutoff c(n) of
// outlier_cutoffs.h (at most 5% of clean samples get a sentence).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace gfxstat::analysis {

struct Outlier {
    size_t index = 0;       // position in the values given
    double value = 0;
    // 0.6745 (x - median) / MAD, or the mean-absolute-deviation fallback
    // (see OutlierReport::mad_zero). NaN only when both scales are 0, that
    // is every value equal, and then nothing is listed.
    double modified_z = 0;
    bool modified_z_flag = false;  // |modified_z| > 3.5 (strictly)
    bool tukey_flag = false;       // strictly outside the 1.5 IQR fences
    bool far_out = false;          // strictly outside the 3 IQR fences (implies tukey_flag)
    // |modified_z| > OutlierReport::cutoff (strictly) and the MAD is not 0:
    // what the outlier sentence names and --drop-outliers leaves out.
    // Implies modified_z_flag (the cutoff is never below 3.5).
    bool reported = false;
};

struct OutlierReport {
    size_t n = 0;
    double median = 0;      // R type 7 (the middle pair averaged)
    double mad = 0;         // raw median absolute deviation (not scaled by 1.4826)
    // When the MAD is 0 (more than half the values equal the median), the
    // modified z uses the mean absolute deviation about the median instead:
    // (x - median) / (1.253314 * meanAD), and this is true. When that is 0
    // too (all values equal), no value is flagged by z.
    bool mad_zero = false;
    double q1 = 0, q3 = 0;  // R quantile type 7
    double lower_fence = 0, upper_fence = 0;  // q1 - 1.5 IQR, q3 + 1.5 IQR
    double lower_far = 0, upper_far = 0;      // q1 - 3 IQR, q3 + 3 IQR
    // c(n) (outlier_cutoffs.h): +infinity for n < 3. With a MAD of 0 nothing
    // is reported whatever the cutoff: more than half the values are equal
    // (quantised timings), and the next quantum up is not an outlier.
    double cutoff = 0;
    // Every value flagged by either classical rule, in index order.
    std::vector<Outlier> outliers;
    size_t by_modified_z = 0, by_tukey = 0, far_out = 0;
    size_t reported = 0;  // values with Outlier::reported
};

// Needs no minimum size: with fewer than 3 values the summaries (median,
// MAD, quartiles, fences) are filled in but nothing is flagged; with none
// everything is 0. Non-finite values: std::invalid_argument. O(n) apart
// from the list (selection, no sort).
OutlierReport find_outliers(std::span<const double> values);
// The same, given also the values in ascending order (`sorted`, the same
// values as `values`): the quartiles and the median are read off it, the
// MAD by walking out from the median, with no selection.
OutlierReport find_outliers(std::span<const double> values, std::span<const double> sorted);

}  // namespace gfxstat::analysis
