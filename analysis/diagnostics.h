// SPDX-License-Identifier: MIT
// Can the numbers be trusted? Per sample: is it bimodal (dip test,
// bimodality coefficient and a two-normal mixture, which must agree), does
// it drift with run order or change level part-way, is the first run after
// a boot different, which values are outliers, and how much of the
// variance lies between boots. Rendered into plain sentences by the
// reports; the comparison (comparison.h) changes its test accordingly.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/boot_clustering.h"
#include "analysis/dip.h"
#include "analysis/drift.h"
#include "analysis/normal_mixture.h"
#include "analysis/outliers.h"
#include "analysis/scaled_values.h"

namespace gfxstat::analysis {

// How a sample's values were collected, in run order.
struct SampleLayout {
    // The boot of each value (an index into boot_ids), or empty when boots
    // are unknown (column files, imported data).
    std::span<const uint32_t> boot_of_value;
    std::span<const std::string> boot_ids;
    // The first value of each boot; empty means {0}: one series.
    std::span<const size_t> firsts;
    // The machine of each value (an index into machine_ids), or empty when
    // some value's machine is unknown: results merged from a fleet, where
    // machine is the level above boot (nested_variance.h).
    // (Default member initializers: layouts written {boots, ids, firsts}
    // leave them empty without a missing-initializer warning.)
    std::span<const uint32_t> machine_of_value{};
    std::span<const std::string> machine_ids{};
    // What reports call each machine (its hostname, else its id), in
    // machine_ids' order; empty: the ids. Two ids of one name (a machine
    // whose id changes from boot to boot, as a LAVA device's can) are
    // one machine where the name decides (stored_boots in comparison.h).
    std::span<const std::string> machine_names{};
};

struct DiagnosticOptions {
    double confidence = 0.95;  // for intervals (the drift slope)
    double threshold = 0.01;   // relative: smaller drifts and shifts are not reported
};

// Diagnostics use fixed levels, stricter than a typical test, because
// several run on every sample and each false alarm costs a reviewer's
// attention: see docs/diagnostics.md.
inline constexpr double kBimodalDipLevel = 0.05;
inline constexpr double kMixtureBicMargin = 6;   // "strong" on the Kass-Raftery scale
inline constexpr double kMixtureMinSeparation = 2;  // Ashman's D
inline constexpr double kMixtureClearSeparation = 3;
// BIC already charges the two normals 2 log n for their two parameters
// more than the ex-Gaussian's; a further margin (6 was tried) cost half the
// power on 80/20 mixtures and bought nothing: skewed unimodal samples are
// called bimodal at most 2% of the time without one (docs/diagnostics.md).
inline constexpr double kMixtureOverExGaussian = 0;
inline constexpr double kBimodalityCoefficientCut = 5.0 / 9.0;
inline constexpr double kDriftLevel = 0.01;
// The first-run test (a t test against the other values) assumes normal
// values; on long-tailed timings it fires 2-3 times as often as its level
// says. It is judged on log values when all are positive (a right tail
// becomes nearly symmetric) at this stricter level, so that the sentence
// stays under 1% on clean samples of every calibrated family.
inline constexpr double kFirstRunLevel = 0.0005;
inline constexpr size_t kMinValuesForShape = 10;

struct Bimodality {
    bool judged = false;  // n >= kMinValuesForShape and not constant
    // Values repeat (quantised): the dip test, the mixture and the
    // lognormal and ex-Gaussian fits see them spread evenly over their
    // rounding cells (diagnostics.cpp, spread_ties), the width of the
    // smallest gap between distinct values.
    bool ties_spread = false;
    DipTest dip;
    // (G1^2 + 1) / (G2 + 3 (n-1)^2 / ((n-2)(n-3))), of the values as given;
    // NaN when undefined. Reported, no longer part of the rule: it is above
    // 5/9 for most skewed samples, bimodal or not.
    double coefficient = 0;
    NormalMixtureFit mixture;
    // BIC of a lognormal fit (maximum likelihood on log x, with the
    // Jacobian), the skewed unimodal alternative; NaN unless all values
    // are positive.
    double bic_lognormal = 0;
    // BIC of the better ex-Gaussian (normal + exponential tail, to the right
    // or mirrored to the left); computed only when the rule needs it (the
    // mixture's modes lie far apart but the dip test does not see them),
    // NaN otherwise.
    double bic_ex_gaussian = 0;
    bool dip_significant = false;  // dip p < kBimodalDipLevel
    bool coefficient_high = false; // coefficient > 5/9
    // Two normals fit better than one normal and than a lognormal by more
    // than kMixtureBicMargin in BIC, are separated by Ashman's D >
    // kMixtureMinSeparation, and the smaller holds at least 3 values' weight.
    bool mixture_separated = false;
    // The rule: the mixture finds two separated modes and the dip test (its
    // level holds for every unimodal shape, uniform being the least
    // favourable) agrees; or the modes lie so far apart (Ashman's D >
    // kMixtureClearSeparation) that the mixture speaks alone, provided it
    // also beats the ex-Gaussian in BIC (by kMixtureOverExGaussian), so
    // that a long tail is not called a mode. Or, when no mixture can be fitted, the dip
    // test alone. Measured false rates: docs/diagnostics.md.
    bool bimodal = false;
    // The modes reported when bimodal, ordered by mean: the mixture's
    // components, or (modes_from_split: no mixture, or repeated values) the
    // two groups of the best split of the sorted values (least squares),
    // with population sds.
    std::array<NormalComponent, 2> modes{};
    bool modes_from_split = false;
};

// The trend of the values against their position within their boot (the
// first run after each boot is 0), pooled over boots: least squares with a
// level per boot. Throttling that builds up during each boot's runs shows
// here even when boot-to-boot differences dominate the series.
struct WithinBootTrend {
    bool defined = false;     // 2+ boots, some with 3+ values, residual df >= 1
    double slope = 0;         // per run within a boot
    double slope_ci_low = 0, slope_ci_high = 0;
    double p = 1;             // t test, df = n - boots - 1
    // slope * (mean boot size - 1) / |mean|: the drift over a typical boot.
    double relative_drift = 0;
};
WithinBootTrend within_boot_trend(std::span<const double> values, std::span<const uint32_t> boot_of_value,
                                  double confidence);

struct SampleDiagnostics {
    size_t n = 0;
    Bimodality bimodality;
    DriftAnalysis drift;
    // When runs cluster by boot (between-boot variance significant at
    // 1 - confidence), the trend and the change point are judged on the
    // boot means in boot order: values within a boot are not independent,
    // and a difference between boots is not a drift within a series.
    bool drift_over_boots = false;
    // Judged with drift_over_boots: the drift within the boots.
    WithinBootTrend within_boots;
    bool trending_within_boots = false;
    // Flags: larger than the threshold and significant at kDriftLevel / k,
    // k the number of drift tests run (2, or 3 with the trend within
    // boots), so that a drift-free sample gets a drift sentence at most
    // kDriftLevel of the time.
    // When both the trend and the change point qualify, only the one that
    // fits the series better (a line, or two levels) is flagged.
    bool trending = false;      // Spearman trend over run order
    bool shifted = false;       // a change point (Pettitt)
    bool first_run_differs = false;  // the first run after each boot
    // The first-run test's p as judged (on log values when all are
    // positive); drift.first_run keeps the values' own statistics.
    double first_run_p = 1;
    OutlierReport outliers;
    std::optional<BootVariance> boots;  // when boots are known
    // 2+ when the values span that many machines (SampleLayout): then the
    // boot variance, the drift and the first-run effect are judged on the
    // values less their machine's mean, within machines. A fleet merged
    // machine by machine would otherwise show the machines' levels as a
    // drift over boots, and machine variance as boot variance; the machine
    // level has an analysis of its own (comparison.h, Fleet). 0 otherwise.
    size_t machines = 0;
};

// `exact`, when given, holds the same values (any order) as the exact
// decimals they were read as: the skewness and kurtosis of the bimodality
// coefficient come from those (moments.h), not from the doubles, which
// near 1e9 have lost digits of the noise.
// `sorted`, when it holds as many values, is `values` in ascending order
// (sorted_ascending, rank_tests.h), shared with the caller's other
// statistics; otherwise the values are sorted here, once.
Bimodality judge_bimodality(std::span<const double> values, const ScaledValues* exact = nullptr,
                            std::span<const double> sorted = {});

// BIC (-2 log L + 3 log n) of the maximum-likelihood ex-Gaussian, the
// better of the values and their mirror image (Bimodality::bic_ex_gaussian);
// NaN for fewer than 4 values or no spread. Checked against
// tests/data/ex_gaussian_reference.json.
double ex_gaussian_bic(std::span<const double> values);

// `values` in run order; `exact` and `sorted` as for judge_bimodality (the
// outliers are read off the same order).
SampleDiagnostics diagnose_sample(std::span<const double> values, const SampleLayout& layout,
                                  const DiagnosticOptions& options, const ScaledValues* exact = nullptr,
                                  std::span<const double> sorted = {});

// The share of `values` that belongs to each of two modes (mean posterior
// probability under the modes as normals; the nearer mode when a mode's sd
// is 0): compares another sample's mode weights with the modes found in a
// bimodal one.
std::array<double, 2> mode_weights(const std::array<NormalComponent, 2>& modes, std::span<const double> values);

}  // namespace gfxstat::analysis
