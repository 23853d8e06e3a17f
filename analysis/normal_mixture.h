// SPDX-License-Identifier: MIT
// One normal against a mixture of two normals with unequal variances
// (mclust's "V" model), fitted by maximum likelihood (EM from several
// starts), compared by BIC. Reports the modes: weight, mean and standard
// deviation of each component, and Ashman's D, their separation.
//
// The two-normal likelihood is unbounded (a component shrinking onto one
// value), so "maximum likelihood" means the best of the non-degenerate
// local maxima reached from a fixed set of deterministic starts; a
// component must keep an sd of at least 1e-3 of the sample's and a weight
// of at least 1.5 values. In small samples the best such maximum is
// often "spurious", a component fitted to a tight group of 2-5 values, and
// may differ from what mclust reports (it starts once, from a median
// split); see normal_mixture.cpp and its test.
#pragma once

#include <array>
#include <cstddef>
#include <span>

namespace gfxstat::analysis {

struct NormalComponent {
    double weight = 0, mean = 0, sd = 0;
};

struct NormalMixtureFit {
    size_t n = 0;
    // One normal: maximum-likelihood mean and sd (n denominator). For a
    // constant sample the likelihood is unbounded: +infinity (bic_one
    // -infinity). 0 when n = 0 or a value is not finite.
    double loglik_one = 0;
    double bic_one = 0;      // -2 loglik + 2 log n (lower is better)
    // Two normals; `two_fitted` is false when no non-degenerate fit exists
    // (fewer than 4 distinct values, or every start collapsed a component),
    // and then the fields below are 0.
    bool two_fitted = false;
    double loglik_two = 0;
    double bic_two = 0;      // -2 loglik + 5 log n
    std::array<NormalComponent, 2> components{};  // ordered by mean
    // sqrt(2) |mean1 - mean2| / sqrt(sd1^2 + sd2^2); above 2 the components
    // are well separated.
    double ashman_d = 0;
    // Passes over the data of the chosen run (EM, SQUAREM and Newton steps).
    int iterations = 0;
    // False when the chosen run stopped at its work limit: 5000 passes, or
    // for n > 2000 a budget of max(12, 4e6 / n) passes on the full sample
    // (reached on the flat likelihoods of heavily overlapping components,
    // such as a unimodal sample, where the remaining gain in
    // log-likelihood is immaterial). Above 100,000 values the refinement
    // runs on narrow groups of values (normal_mixture.cpp, kGroupWidth),
    // within max(12, 4e6 / groups) passes over them, from starts screened
    // for at most 40 passes each on the 2,000 order statistics (400 below);
    // the log-likelihoods are still the values' own.
    bool converged = false;
};

// `values` in any order (the result does not depend on it); deterministic.
NormalMixtureFit fit_normal_mixture(std::span<const double> values);

}  // namespace gfxstat::analysis
