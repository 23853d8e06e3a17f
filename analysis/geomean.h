// SPDX-License-Identifier: MIT
// The geometric mean of oriented ratios of means across several metrics
// (benchmarks): each ratio is turned so that above 1 is better (candidate
// over baseline when higher is better, baseline over candidate when lower
// is), so improvements in fps and in frame time both count as gains.
// With an interval from the delta method on the log scale: var(log mean)
// ~ s^2 / (n mean^2) per side, summed, and a t quantile with Welch-
// Satterthwaite degrees of freedom over all the sides.
#pragma once

#include <array>
#include <cstddef>
#include <span>

#include "analysis/verdict.h"

namespace gfxstat::analysis {

struct RatioInput {
    double baseline_mean = 0, baseline_sd = 0;
    size_t baseline_n = 0;
    double candidate_mean = 0, candidate_sd = 0;
    size_t candidate_n = 0;
    Better better = Better::unknown;
};

struct Geomean {
    bool defined = false;     // 1+ inputs, every mean > 0, every direction known
    size_t metrics = 0;
    double ratio = 0;         // oriented: > 1 is better
    // At `confidence`; undefined when no side varies or a side has one value.
    bool ci_defined = false;
    std::array<double, 2> ci{};
    double df = 0;
};

// confidence in (0, 1), else std::invalid_argument.
Geomean oriented_geomean(std::span<const RatioInput> inputs, double confidence);

}  // namespace gfxstat::analysis
