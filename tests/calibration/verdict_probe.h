// SPDX-License-Identifier: MIT
// Comparison -> verdict for one metric, exactly as `gfxstat compare` makes
// it (findings/comparison_analysis.cpp, analyse_comparisons), plus the interval of
// the headline change. The one place the calibration suite touches the
// verdict's inputs: when compare_samples or decide change, rewire this
// file and every measured rate follows.
#pragma once

#include <array>

#include "analysis/comparison.h"
#include "analysis/verdict.h"

namespace gfxstat::calibration {

struct ProbeInputs {
    analysis::Better better = analysis::Better::lower;
    double confidence = 0.95;
    double threshold = 0.01;  // relative; the CLI's default --threshold 1
};

struct Probe {
    analysis::Verdict verdict;
    // What `gfxstat compare --gate` fails on: a regression beyond the
    // threshold (cli/compare_command.cpp, exit_status).
    bool gate_fails = false;
    // improvement or regression (or changed): a significant verdict.
    bool significant = false;
    // The headline change (the primary test's estimate) and its interval
    // at `confidence`: Welch's CI of the mean difference, the
    // Hodges-Lehmann CI, or the boot-means test's CI.
    double change = 0;
    std::array<double, 2> interval{};
    bool interval_defined = false;  // both bounds finite
};

// One metric, one candidate: Holm's adjustment is the identity, so the
// adjusted p is the primary test's own.
Probe probe_verdict(const analysis::TwoSampleComparison& c, const ProbeInputs& in);

}  // namespace gfxstat::calibration
