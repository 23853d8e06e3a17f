// SPDX-License-Identifier: MIT
// Runs cluster by boot: a benchmark can settle into one performance mode per
// boot, so runs within a boot are alike and 30 runs over 2 boots are not 30
// independent observations. A one-way random-effects ANOVA (boot as the
// random factor) splits the variance into between-boot and within-boot
// parts and gives the intraclass correlation, the design effect and the
// effective sample size. Matches the method-of-moments estimates (R's aov
// mean squares with the unbalanced k0) in the reference clustered cases.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gfxstat::analysis {

struct BootVariance {
    // At least 2 boots, at least 2 within-boot degrees of freedom (n >=
    // boots + 2), and finite values; otherwise only `boots` and `n` are set.
    bool defined = false;
    size_t boots = 0, n = 0;
    double msb = 0, msw = 0;  // between- and within-boot mean squares
    // Effective boot size for unequal boots: (n - sum n_i^2 / n) / (boots - 1).
    double k0 = 0;
    double sigma2_between = 0;  // max(0, (msb - msw) / k0)
    double sigma2_within = 0;   // msw
    double icc = 0;             // sigma2_between / (sigma2_between + sigma2_within); 0 when both are 0
    double icc_raw = 0;         // (msb - msw) / (msb + (k0 - 1) msw): may be negative
    double mean_boot_size = 0;  // n / boots
    double design_effect = 1;   // 1 + (mean_boot_size - 1) icc
    double effective_n = 0;     // n / design_effect
    // F = msb / msw on (boots - 1, n - boots) degrees of freedom: is there
    // between-boot variance at all? p = 1 when msw is 0 and msb is 0; p = 0
    // when msw is 0 but msb is not (boots differ, runs within them do not).
    double f = 0, f_p = 1;
};

// boot_of_value[i] is the boot of values[i], a small index (0, 1, 2, ...;
// any order, gaps allowed). The two spans have the same length, else
// std::invalid_argument.
BootVariance boot_variance(std::span<const double> values, std::span<const uint32_t> boot_of_value);

// The mean of each boot that holds values, in order of boot index.
std::vector<double> boot_means(std::span<const double> values, std::span<const uint32_t> boot_of_value);

}  // namespace gfxstat::analysis
