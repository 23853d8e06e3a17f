// SPDX-License-Identifier: MIT
// A suite whose benchmarks each gave one value per build (per-test averages
// pasted in a mail, one row per test of a suite): the benchmarks are pairs,
// and the question "did the suite get faster" is a one-sample question on
// the per-benchmark differences. Testing the two columns as independent
// samples buries a consistent 0.1% change under the spread between
// benchmarks (unpaired_welch_p shows by how much).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "analysis/signed_rank.h"
#include "analysis/t_tests.h"
#include "analysis/verdict.h"

namespace gfxstat::analysis {

struct PairedValue {
    double baseline = 0, candidate = 0;
    Better better = Better::unknown;
};

struct PairedSuite {
    size_t pairs = 0;
    // The differences tested: oriented log ratios when every value is > 0
    // (ln(c/b) when higher is better, ln(b/c) when lower is better, so that
    // > 0 is better; plain ln(c/b) when any direction is unknown), else
    // plain differences c - b (oriented the same way).
    bool log_ratio = false;
    bool oriented = false;  // every direction known: > 0 means better
    std::vector<double> differences;
    TTest t;  // one-sample t on the differences (the paired t)
    SignedRank wilcoxon;
    OneSampleHodgesLehmann hodges_lehmann;
    // one_sample_tost within ln(1 + threshold) (log ratios) or
    // threshold * mean |baseline| (plain), at alpha = 1 - confidence. With
    // confidence <= 0.5 (alpha >= 0.5) no TOST is run: p = 1, not
    // equivalent, ci (-inf, +inf).
    Equivalence equivalence;
    // log_ratio: the geometric mean of the (oriented) ratios, exp(mean), and
    // exp of t's interval; and exp of the Hodges-Lehmann estimate and
    // interval. NaN otherwise.
    double geomean_ratio = NAN;
    std::array<double, 2> geomean_ci{NAN, NAN};
    double hl_ratio = NAN;
    std::array<double, 2> hl_ratio_ci{NAN, NAN};
    // Welch's t p-value on the baseline values against the candidate values
    // as two independent samples, as if the design were not paired: for the
    // report's sentence on how much pairing matters.
    double unpaired_welch_p = 1;
};

struct PairedSuiteOptions {
    double confidence = 0.95;
    double threshold = 0.01;  // relative, for equivalence
};

// Needs 2+ pairs, finite values, confidence in (0, 1) and a finite
// threshold >= 0; otherwise std::invalid_argument (also when a plain
// difference overflows).
PairedSuite analyse_paired_suite(std::span<const PairedValue> pairs, const PairedSuiteOptions& options);

}  // namespace gfxstat::analysis
