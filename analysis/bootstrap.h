// SPDX-License-Identifier: MIT
// Bootstrap confidence intervals for the difference and the ratio of
// medians (candidate vs baseline), resampling each sample separately
// (stratified, as R's boot(strata = ...)). Seeded: the same seed gives the
// same intervals on any machine and any number of threads.
//
// Follows R's boot 1.3-28: the percentile interval is boot.ci(type = "perc")
// and the BCa interval boot.ci(type = "bca") with the acceleration from
// jackknife influence values (empinf(type = "jack"), i.e. leave one value
// out of one sample at a time). Medians are R's median(): the mean of the two
// middle values for even n. The random numbers differ from R's, so the
// intervals agree with R's within Monte Carlo error, not digit for digit.
//
// Cost: O(n log n) for sorting the samples, then per resample O(n) for
// samples of up to kLiteralResampleMaxN values and O(1) above that (the
// middle order statistics of a resample are drawn directly, exactly in
// distribution; see bootstrap.cpp). A million values a side with 9999
// resamples takes well under a second. Two threads only where the draws
// are many (some 10^5 index draws); fewer, one.
//
// Small samples: where the exact bootstrap distribution of the two medians
// has no more points than the resamples asked for (3 v 3 values: 3 x 3;
// 10 v 10: 55 x 55), the automatic method computes it instead of drawing
// (analysis/bootstrap_exact.h): the intervals are then the limits that the
// random ones estimate, free of Monte Carlo error, and need no seed. The
// percentile and BCa quantile at level p is then the smallest value whose
// cumulative probability reaches p, the bias and standard error those of
// the distribution.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gfxstat::analysis {

// How one resample's median is drawn. Both methods give the same
// distribution; they consume random numbers differently, so the intervals
// from the same seed differ slightly between them.
enum class ResampleMethod {
    automatic,         // exact where small (above), literal up to kLiteralResampleMaxN values, order statistics above
    literal,           // draw n values with replacement, take their median
    order_statistics,  // draw the middle order statistic(s) of the resample directly
};
inline constexpr std::size_t kLiteralResampleMaxN = 2000;

struct BootstrapOptions {
    uint64_t seed = 12345;
    int resamples = 9999;      // >= 1
    double confidence = 0.95;  // in (0, 1)
    int threads = 2;           // at most; values < 1 mean 1; the result does not depend on it
    ResampleMethod method = ResampleMethod::automatic;  // per sample
};

struct BootstrapInterval {
    double estimate = 0;              // the statistic on the data
    std::array<double, 2> percentile{};
    std::array<double, 2> bca{};      // bias-corrected and accelerated (jackknife)
    // false when all resamples agree, etc.: no resample below the estimate or
    // all below it (z0 infinite), acceleration undefined (all jackknife
    // influence values 0) or an adjusted level undefined (1 - a (z0 + z) <= 0).
    // bca then repeats percentile.
    bool bca_defined = true;
    // As R's print(boot): mean of the resampled statistics minus the
    // estimate, and their standard deviation.
    double bias = 0;
    double std_error = 0;
    double z0 = 0;            // BCa bias correction: qnorm(#{t* < estimate} / B)
    double acceleration = 0;  // BCa a = sum(L^3) / (6 sum(L^2)^1.5)
};

struct BootstrapResult {
    BootstrapInterval median_difference;  // median(candidate) - median(baseline)
    // median(candidate) / median(baseline). When !ratio_defined every
    // field is NaN (bca_defined false).
    BootstrapInterval median_ratio;
    bool ratio_defined = true;            // false when the baseline median or a resampled one is 0
    int resamples = 0;                    // as asked for
    // The exact bootstrap distribution was computed (analysis/bootstrap_exact.h)
    // instead of `resamples` random resamples: automatic method, and that
    // distribution has no more points than `resamples` (3 v 3 values: 9).
    bool exact = false;
};

// Both samples need at least one value, all of them not NaN; throws
// std::invalid_argument otherwise or for options out of range.
BootstrapResult bootstrap_medians(std::span<const double> baseline, std::span<const double> candidate,
                                  const BootstrapOptions& options);

// The bootstrap distribution of one sample's median: element r is the median
// of resample r. With the same seed, method and resamples these are exactly
// the baseline medians bootstrap_medians draws. For tests and diagnostics.
std::vector<double> resampled_medians(std::span<const double> values, int resamples, uint64_t seed,
                                      ResampleMethod method = ResampleMethod::automatic,
                                      int threads = 1);

}  // namespace gfxstat::analysis
