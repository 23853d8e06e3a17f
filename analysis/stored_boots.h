// SPDX-License-Identifier: MIT
// One new boot (or a few) against stored history: a baseline of B boots
// (builds of main on one machine, nightly after nightly, several runs a
// boot) and a candidate of k boots that share none of them. Runs within a
// boot share its level (clocks, memory layout), so the boot is the unit,
// and with one candidate boot the between-boot variance can only come from
// the baseline's boots.
//
// The model: run r of boot i is mu + b_i + e_ir, b_i ~ N(0, sb^2) the
// boot's level, e_ir ~ N(0, sw^2) the run's noise. A boot mean of n runs
// then varies by sb^2 + sw^2 / n. The test is the prediction interval for
// the mean of k new boot means from the B baseline boot means:
//
//   d  = mean(candidate boot means) - mean(baseline boot means)
//   s2 = the sample variance of the baseline boot means (B - 1 df), whose
//        expectation is sb^2 + sw^2 * h, h = mean over baseline boots of 1/n_i
//   sw2 = the baseline's pooled within-boot variance (N - B df)
//   sb2 = max(0, s2 - sw2 * h), the method-of-moments estimate of sb^2
//   V  = s2 / B + (sb2 + sw2 * hc) / k, hc = mean over candidate boots of 1/m_j
//   t  = d / sqrt(V) with B - 1 degrees of freedom.
//
// When the candidate's boots have as many runs as the baseline's (hc = h)
// and s2 >= sw2 * h, V = s2 (1/B + 1/k) and t is exactly Student's t with
// B - 1 df under the model; a candidate with fewer runs a boot gets the
// wider interval its own n calls for, one with more the narrower; the
// floor at 0 on sb2 only widens the interval. The calibration suite
// (docs/calibration.md, "One new boot against stored history") measures
// the false-regression rate, also with heavy-tailed boot levels.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace gfxstat::analysis {

// Below this many baseline boots compare does not judge (a sentence, not
// a verdict): with 4 boots the interval's t quantile is 3.18 (2.78 at 5,
// 2.26 at 10) and, with heavy-tailed boot levels, the calibration's
// false-regression rate and power both suffer (docs/calibration.md).
inline constexpr size_t kStoredBootsMinBaseline = 5;
// A candidate of at most this many boots, and fewer than the baseline's, is
// "a few new boots against history"; more, or as many as the baseline's,
// is an experiment of its own (Welch's t on boot means, analysis/comparison.h).
inline constexpr size_t kStoredBootsMaxCandidate = 5;

struct StoredBoots {
    size_t baseline_boots = 0, candidate_boots = 0;  // B and k: boots holding values
    size_t baseline_runs = 0, candidate_runs = 0;    // values
    double baseline_mean = 0;   // mean of the baseline's boot means
    double candidate_mean = 0;  // mean of the candidate's boot means
    double s_boot_means = 0;    // sd of the baseline's boot means (sqrt s2)
    double s_between = 0;       // sqrt(sb2), the boot levels' sd
    // sqrt(sw2), the runs' sd within a boot; NaN when no baseline boot has
    // 2 runs (then V = s2 (1/B + 1/k): the candidate's n cannot be told apart).
    double s_within = 0;
    double df = 0;              // B - 1
    double difference = 0;      // d
    double relative_difference = 0;  // d / |baseline_mean|; NaN when that is 0
    double stderr_ = 0;         // sqrt(V)
    // V's two parts: the variance of the baseline's mean (s2 / B) and of
    // the candidate's ((sb2 + sw2 hc) / k), for Fieller's ratio interval.
    double var_baseline_mean = 0, var_candidate_mean = 0;
    double t = 0;
    double p = 1;               // two-sided
    std::array<double, 2> ci{}, relative_ci{};  // at the confidence; relative NaN when the mean is 0
    // TOST within +-threshold * |baseline_mean|, at alpha = 1 - confidence.
    double equivalence_p = 1;
    bool equivalent = false;
    // B >= 2, k >= 1 and V > 0; otherwise p = 1, t NaN and the intervals
    // NaN (no spread between the baseline's boots to judge a boot by).
    bool defined = false;
};

// baseline[i] ran in boot baseline_boot[i] (any index; equal indices are
// one boot), likewise the candidate. confidence in (0.5, 1), threshold
// >= 0 relative; std::invalid_argument otherwise, or when a span of boots
// differs in length from its values, or a value is not finite.
StoredBoots stored_boots_test(std::span<const double> baseline, std::span<const uint32_t> baseline_boot,
                              std::span<const double> candidate, std::span<const uint32_t> candidate_boot,
                              double confidence, double threshold);

}  // namespace gfxstat::analysis
