// SPDX-License-Identifier: MIT
// Every statistic `gfxstat compare` reports for one baseline/candidate pair
// of one metric, computed in one place: summaries, Student and Welch t,
// Mann-Whitney U with the Hodges-Lehmann shift, bootstrap intervals of the
// median difference and ratio, effect sizes, and the TOST equivalence test.
// The verdict needs the p-values of every comparison (multiplicity), so it
// is made afterwards (verdict.h).
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "analysis/bootstrap.h"
#include "analysis/diagnostics.h"
#include "analysis/location_interval.h"
#include "analysis/machine_changes.h"
#include "analysis/nested_variance.h"
#include "analysis/order_stats.h"
#include "analysis/rank_tests.h"
#include "analysis/stored_boots.h"
#include "analysis/confidence_sequence.h"
#include "analysis/t_tests.h"
#include "analysis/verdict.h"

namespace gfxstat::analysis {

struct SampleSummary {
    size_t n = 0;
    double min = 0, max = 0, median = 0, mean = 0, stddev = 0;
};

struct ComparisonOptions {
    double confidence = 0.95;
    double threshold = 0.01;     // relative
    bool diagnostics = true;     // false: skip them (and their effect on the test)
    int bootstrap_resamples = 9999;  // 0: no bootstrap
    uint64_t seed = 12345;
    int threads = 2;
    // A deterministic metric: the verdict compares the means exactly
    // (PrimaryTest::exact), and one value a side is enough.
    bool exact = false;
};

// Boots as clusters of runs, for a pair of samples.
struct Clustering {
    bool known = false;             // both samples carry boot ids
    // Only one sample carries boot ids (some runs of the other have none):
    // which one lacks them, "baseline" or "candidate"; "" otherwise.
    // boots_matter then speaks of the sample that has them.
    std::string unknown_side;
    size_t baseline_boots = 0, candidate_boots = 0;
    size_t shared_boots = 0;        // boots holding runs of both
    // Each sample comes from a single boot, and not the same one: whatever
    // differs between those boots is mixed into the difference.
    bool confounded = false;
    // Between-boot variance is significant (one-way ANOVA F test at
    // 1 - confidence) in either sample.
    bool boots_matter = false;
    // The verdict tests boot means (needs boots_matter and 2+ boots a
    // side); `by_boots` false means runs were the unit.
    bool by_boots = false;
    std::vector<double> baseline_means, candidate_means;  // per boot, when known
    // by_boots with 2+ boots holding both variants (an interleaved A/B):
    // the boot effect cancels in each boot's difference, so the test is the
    // paired t on candidate mean - baseline mean per shared boot.
    bool paired = false;
    std::vector<double> boot_differences;  // per shared boot, when paired
    std::vector<double> paired_baseline_means;  // the baseline's mean in each of those boots
    TTest boot_means_test;          // Welch on boot means, or the paired t
    Equivalence boot_means_equivalence;
};

// Machines as clusters of boots and runs, for a pair of samples merged
// from a fleet (nested_variance.h). Filled when both samples carry a
// machine for every value and one of them spans 2+ machines.
struct Fleet {
    bool known = false;
    size_t baseline_machines = 0, candidate_machines = 0;
    size_t shared_machines = 0;  // machines holding runs of both
    // Each sample's machine > boot > run split (one level without boots).
    NestedVariance baseline_variance, candidate_variance;
    // The machine level is significant in either sample at 1 - confidence
    // (machines against boots within machines, or against runs when boots
    // are unknown).
    bool machines_matter = false;
    // Boots within machines are significant in either sample: a machine's
    // mean is then the mean of its boot means.
    bool boots_matter = false;
    // The verdict tests machines (machines_matter, and 2+ shared machines
    // or 2+ machines a side); otherwise the verdict is as without fleets.
    bool by_machines = false;
    // by_machines with 2+ machines holding both variants: the paired t on
    // candidate mean - baseline mean per shared machine (the rows' changes).
    bool paired = false;
    std::vector<double> baseline_means, candidate_means;  // per machine
    std::vector<double> machine_differences;              // per shared machine, when paired
    TTest machine_means_test;  // the paired t, or Welch on machine means
    Equivalence machine_means_equivalence;
    // Per shared machine: its change, and which one stands out.
    MachineChanges changes;
};

// A candidate of a few boots against a baseline of more, none shared: one
// new CI boot against stored history (stored_boots.h). It applies when
// both samples carry boot ids, no boot holds both, the candidate has 1 to
// kStoredBootsMaxCandidate boots, the baseline more (at least 2), and the
// candidate's runs come from one machine (or machines are not recorded).
// The verdict is then the prediction test's, unless the baseline cannot
// judge the candidate (`not_judged`): fewer than kStoredBootsMinBaseline
// boots, or boots from another machine than the candidate's. Then the
// verdict is inconclusive with that sentence, and no gate fails on it.
struct StoredBootsDesign {
    StoredBoots test;
    // "" when judged; else "other_machine" or "too_few_baseline_boots".
    std::string not_judged;
    // The machine of the candidate's runs (its name: hostname, else
    // machine id), "" when not recorded; the baseline's machines that are
    // not it, in order of first appearance.
    std::string candidate_machine;
    std::vector<std::string> other_machines;
};

// A blocked design (`gfxstat ab`): the baseline and the candidate ran once
// in each block, so the pairs of one block share the machine's state and
// their difference is what is independent.
struct BlockDesign {
    // The metric a sequential stop rule watched: the confidence sequence
    // decides. Otherwise (fixed blocks, other metrics) the paired t.
    bool sequential = false;
    // For this comparison: with k candidates a sequential design's is
    // 1 - (1 - confidence) / k (Bonferroni), as `gfxstat ab` stops on.
    double confidence = 0.95;
    double threshold = 0.01;  // relative
    size_t incomplete = 0;    // blocks left out (a side failed), for reports
    // A group-sequential design's planned looks (group_sequential.h): the
    // sequential analysis is its Pocock boundary, at those looks only.
    std::vector<size_t> looks;
    // A sequential design's budget (ab's --max-runs), for the advice on
    // a threshold it cannot likely settle (SettlingAdvice).
    std::optional<size_t> max_blocks;
};

struct BlockAnalysis {
    BlockDesign design;
    size_t blocks = 0;
    // Block differences are log ratios ln(candidate/baseline) when every
    // value is > 0, else plain differences.
    bool log_ratio = false;
    double baseline_center = 0;  // geometric mean (log ratios) or mean of the baseline's values
    TTest paired;                // one-sample t on the block differences, at design.confidence
    Equivalence equivalence;     // TOST on the same within +-threshold (ln(1 + threshold) for log ratios)
    std::optional<SequentialLook> look;  // design.sequential: the last look
    // design.sequential with max_blocks, the look not settled: the noise
    // makes the threshold unreachable within max_blocks (settling_advice).
    std::optional<SettlingAdvice> advice;
};

struct TwoSampleComparison {
    SampleSummary baseline, candidate;
    // Each sample's median with its distribution-free interval at the
    // comparison's confidence (median_interval), read off the order the
    // rank tests share, so that whoever describes the samples need not
    // sort them again.
    LocationInterval baseline_median, candidate_median;
    double difference = 0;           // mean(candidate) - mean(baseline)
    double relative_difference = 0;  // difference / mean(baseline); NaN when that mean is 0
    TTest student, welch;
    MannWhitney mann_whitney;
    HodgesLehmann hodges_lehmann;
    std::optional<BootstrapResult> bootstrap;
    EffectSize effect;
    Equivalence equivalence;
    PrimaryChoice primary;
    // The equivalence test the verdict uses: `equivalence`, or the one on
    // boot means when the primary test is.
    Equivalence primary_equivalence;
    double primary_p = 1;            // unadjusted
    double change = 0;               // the primary test's estimate of the change
    // ... relative to the baseline's magnitude (mean or median); NaN when
    // that is 0
    double relative_change = 0;
    double cv = 0;                   // pooled sd / |mean(baseline)| (of boot means when by boots)
    // The headline change is `change`, with its interval: the primary test's
    // own confidence interval for what it estimates (change_estimate_words),
    // absolute and relative to the same baseline magnitude as
    // relative_change. Undefined (NaN) when the test is.
    std::array<double, 2> change_ci{}, relative_change_ci{};
    bool change_ci_defined = false;
    // Why no interval is given although the test has one ("" otherwise):
    // with 2 boots a side and none shared, the boots' own spread is not
    // seen, and an interval from the runs would be too narrow.
    std::string change_ci_withheld;
    // The primary test is defined (there is variability to judge noise by).
    bool primary_defined = true;
    bool both_constant = false;      // each sample is one repeated value
    // Units per side that the primary test counted (runs, or boots), the
    // smaller side's.
    double n_per_side = 0;
    // Exact metrics: how many distinct values each side holds; more than
    // one means the "deterministic" metric varied.
    size_t baseline_distinct = 0, candidate_distinct = 0;
    // False when an exact comparison had one value on a side: the tests,
    // effect sizes and diagnostics were not computed (their fields are the
    // defaults and mean nothing).
    bool tests_computed = true;
    // Diagnostics of each sample (when ComparisonOptions::diagnostics).
    std::optional<SampleDiagnostics> baseline_diagnostics, candidate_diagnostics;
    Clustering clustering;
    Fleet fleet;
    // One new boot against stored history, when the layouts say so (the
    // primary test is then PrimaryTest::stored_boots).
    std::optional<StoredBootsDesign> stored;
    // When a sample is bimodal: the share of the other sample's values in
    // each of its modes (mode_weights), so that mode weights compare.
    std::optional<std::array<double, 2>> candidate_in_baseline_modes, baseline_in_candidate_modes;
    // A blocked design's analysis, when there was one (analyse_blocks).
    std::optional<BlockAnalysis> blocks;
};

// Makes the block analysis the comparison's primary test: the paired t on
// the block differences (PrimaryTest::paired_blocks), or for the metric a
// sequential stop rule watched the confidence sequence's last look
// (PrimaryTest::sequential_blocks, its anytime-valid p). baseline[i] and
// candidate[i] ran in the same block, in block order. Everything else of
// `c` (summaries, the two-sample tests, diagnostics) stays as computed on
// the runs. Throws std::invalid_argument when the spans differ in length
// or a value is not finite.
void analyse_blocks(TwoSampleComparison& c, std::span<const double> baseline, std::span<const double> candidate,
                    const BlockDesign& design);

// Both samples need at least 2 values. They are the exact samples in run
// order (the median is selected in place, so their order changes); the rank
// tests, the bootstrap and the diagnostics use their correctly rounded
// doubles. The layouts say which boot each value came from.
//
// The primary test, in order: when runs cluster by machine (values of a
// fleet, Fleet::by_machines), the paired t on per-machine differences when
// 2+ machines ran both variants, else Welch's t on machine means; the
// paired t on per-boot differences when
// runs cluster by boot and both variants ran in the same boots; Welch's t
// on boot means when runs cluster by boot otherwise (Clustering::by_boots);
// the Mann-Whitney test when either sample is bimodal; otherwise
// choose_primary on the samples' shapes.
//
// With options.exact, one value a side is enough (the tests that need two
// are left undefined) and the change is the difference of means, exactly.
TwoSampleComparison compare_samples(MutableScaledValues baseline, MutableScaledValues candidate,
                                    const ComparisonOptions& options, const SampleLayout& baseline_layout = {},
                                    const SampleLayout& candidate_layout = {});

// The verdict's inputs for one comparison, as `gfxstat compare` makes them:
// p_adjusted is the primary p after multiplicity adjustment (the primary p
// itself for a family of one), p_label how the reason names it. An exact
// comparison (ComparisonOptions::exact) gives an exact verdict.
VerdictInputs verdict_inputs(const TwoSampleComparison& c, Better better, double confidence, double threshold,
                             double p_adjusted, const std::string& p_label);

}  // namespace gfxstat::analysis
