// SPDX-License-Identifier: MIT
// The verdict on one metric of one comparison: improvement, regression,
// no change (proven equivalent within a threshold) or inconclusive, with the
// test that decided, the reason in words, and how many runs per side would
// settle an inconclusive result.
#pragma once

#include <optional>
#include <string>

#include "analysis/rank_tests.h"
#include "analysis/confidence_sequence.h"
#include "analysis/t_tests.h"

namespace gfxstat::analysis {

enum class Better { lower, higher, unknown };
enum class Outcome { improvement, regression, no_change, inconclusive, changed };
// welch_boot_means: Welch's t on the per-boot means, when runs cluster by
// boot; paired_boot_means: the paired t on per-boot differences, when both
// variants ran in the same boots (comparison.h).
// exact: a deterministic metric (declared so), where any difference is a
// change and no test is needed.
// paired_blocks: the paired t on per-block differences (log ratios when
// every value is positive) of a blocked design (`gfxstat ab`, fixed
// blocks, or a metric its stop rule did not watch); group_sequential_blocks:
// the group-sequential design's t at its planned looks (`ab --stop group`,
// analysis/group_sequential.h); sequential_blocks: the
// t-mixture confidence sequence on the same, for the metric a sequential
// stop rule watched (analysis/confidence_sequence.h): after data-dependent
// stopping only an anytime-valid test keeps its error rates.
// paired_benchmarks / signed_rank_benchmarks: a suite whose benchmarks
// each gave one value a side, tested as pairs (one per benchmark): the
// paired t, or the Wilcoxon signed-rank test when the differences are far
// from normal, on the oriented log ratios (analysis/paired_suite.h).
// paired_machine_means / welch_machine_means: results of a fleet whose
// machines differ (analysis/nested_variance.h): the paired t on
// per-machine differences when 2+ machines ran both variants (each
// machine's own level cancels), else Welch's t on machine means.
// stored_boots: a candidate of a few boots against a baseline of more,
// none shared (one new CI boot against stored history): the prediction t
// on boot means, the between-boot spread from the baseline's boots
// (analysis/stored_boots.h).
enum class PrimaryTest { welch, mann_whitney, welch_boot_means, paired_boot_means, exact, paired_blocks,
                         sequential_blocks, paired_benchmarks, signed_rank_benchmarks, paired_machine_means,
                         welch_machine_means, group_sequential_blocks, stored_boots };

const char* outcome_name(Outcome o);        // "improvement", ..., "changed"
struct Verdict;
// The outcome as a report's verdict column says it: outcome_name, and
// "no_change (constant)" for a metric that was one value throughout.
std::string outcome_words(const Verdict& v);
const char* primary_test_name(PrimaryTest t);  // "welch", "mann_whitney", "welch_boot_means", "paired_boot_means", "exact"
const char* primary_test_words(PrimaryTest t); // "Welch t", "Mann-Whitney U", "Welch t on boot means", ...
// What the test estimates as the change: "difference of means",
// "Hodges-Lehmann shift", "difference of boot means", ...
const char* change_estimate_words(PrimaryTest t);

// Shape statistics that decide whether a t test suits the data.
struct Shape {
    size_t n = 0;
    double skewness = 0;         // bias-corrected G1 (0 when undefined)
    double excess_kurtosis = 0;  // bias-corrected G2 (0 when undefined)
};
Shape shape(const ScaledValues& values, const Moments& m);

struct PrimaryChoice {
    PrimaryTest test = PrimaryTest::welch;
    std::string why;
};
// Welch when the samples look roughly normal (|G1| <= 1 and |G2| <= 3 in
// both), or when either has fewer than 8 values (too few to judge the
// shape, and the exact rank test has almost no power there); the
// Mann-Whitney test otherwise.
PrimaryChoice choose_primary(const Shape& baseline, const Shape& candidate);

struct VerdictInputs {
    Better better = Better::unknown;
    double confidence = 0.95;   // alpha = 1 - confidence
    double threshold = 0.01;    // relative, for equivalence and the gate
    PrimaryChoice primary;
    double p_adjusted = 1;      // the primary test's p after multiplicity adjustment
    // How p_adjusted is named in the reason: "Holm-adjusted p", "p" (a
    // family of one, or a secondary metric: "unadjusted p").
    std::string p_label = "p";
    // The primary test is defined: false when there is no variability to
    // judge noise by (both samples constant, or every boot difference
    // equal). Then no p-value means anything, and unless the metric is
    // exact the verdict is inconclusive.
    bool defined = true;
    // Both sides hold one repeated value each (the constants), when !defined.
    bool both_constant = false;
    double baseline_constant = 0, candidate_constant = 0;
    // A deterministic metric: any difference is a change (PrimaryTest::exact).
    bool exact = false;
    // Values per side that the test counted (runs, or boots when by_boots):
    // the smaller side's, for what this n can detect.
    double n_per_side = 0;
    // Boots of the side with fewer, when boot ids are known on both and no
    // boot ran both variants (0 otherwise). With 2, whatever state a boot
    // brings (a clock or firmware mode) can sit on one side only and look
    // like a change: no test on these runs can tell, so a significant
    // difference is inconclusive and says why.
    size_t fewest_boots = 0;
    // What makes a side's runs not one sample of one thing, as the
    // diagnostics flagged it in run order ("baseline drifts", "candidate
    // changes level"); "" when nothing. The variants then ran one after the
    // other while something changed, so whatever changed is mixed into the
    // difference: neither a change nor equivalence is shown, and the
    // reason says to run the variants interleaved. Never set for designs
    // that pair the variants in time (blocks, shared boots or machines).
    std::string unsteady;
    // How far the flagged side moved, relative to its level (the larger
    // |drift from first to last| or |change of level| of the flagged
    // sides; NaN when a level is 0). A drift that went on through both
    // series moves the difference of means by about the drift over one
    // series, so only a change more than twice as large stands: then the
    // outcome is kept and `unsteady` only noted.
    double unsteady_size = 0;
    // The primary test's estimate of the change (difference of means, or
    // the Hodges-Lehmann shift): its sign says which way things moved.
    double change = 0;
    // The same relative to the baseline's magnitude; NaN when the baseline
    // is 0 (then any change counts as beyond the threshold).
    double relative_change = 0;
    Equivalence equivalence;    // TOST at `threshold`
    double cv = 0;              // pooled sd / |baseline mean|, for runs_needed
    // What the test counted as independent observations: runs, or boots
    // (then cv is that of the boot means and runs_needed counts boots).
    bool by_boots = false;
    // Blocks of a blocked design (then runs_needed counts blocks).
    bool by_blocks = false;
    // Machines of a fleet (then cv is that of the machine means, or of the
    // per-machine differences, and runs_needed counts machines).
    bool by_machines = false;
    // PrimaryTest::sequential_blocks: the confidence sequence's call at the
    // last look, its interval relative to the baseline, the blocks seen and
    // the more that would likely settle it. p_adjusted is then its
    // anytime-valid p.
    std::optional<SequentialCall> sequential_call;
    double sequential_lower = 0, sequential_upper = 0;
    // The interval's name in the reason: "confidence sequence", or
    // "repeated confidence interval" for a group-sequential design.
    const char* sequential_interval = "confidence sequence";
    size_t blocks = 0;
    std::optional<size_t> blocks_to_settle;
    // The design's budget cannot likely settle the threshold at this
    // noise (settling_advice): reports add what would.
    std::optional<SettlingAdvice> settling;
    // Why the design cannot judge the candidate (the stored-boots design
    // with too few baseline boots, or baseline boots of another machine):
    // the verdict is then inconclusive, this its reason, and it fails no
    // gate (Verdict::not_judged). "" when judged.
    std::string not_judged;
};

struct Verdict {
    Outcome outcome = Outcome::inconclusive;
    PrimaryTest primary = PrimaryTest::welch;
    double p_adjusted = 1;
    // Runs per side that would resolve +-threshold at this variability
    // (power 0.8); empty when it cannot be computed (no variability).
    // Boots per side when by_boots.
    std::optional<double> runs_needed;
    bool by_boots = false;
    bool by_blocks = false;  // runs_needed counts blocks (in all, for a sequential design)
    bool by_machines = false;  // runs_needed counts machines per side
    bool beyond_threshold = false;  // |relative change| > threshold
    // no_change because every run of both sides gave one and the same value
    // (cycles = 0 throughout): nothing to test, and nothing changed.
    bool constant = false;
    // The smallest relative change this design detects with power 0.8 at
    // this variability (two-sided alpha); empty when it cannot be computed.
    std::optional<double> detectable_change;
    std::string reason;
    // Inconclusive because a side drifts or changes level (what the test
    // saw may be the drift): what moves ("baseline drifts"); "" otherwise.
    std::string unsteady;
    // Inconclusive under a sequential design whose budget cannot likely
    // settle the threshold at this noise: the thresholds that would
    // (report/settling_advice_words.h says it after the reason).
    std::optional<SettlingAdvice> settling;
    // Inconclusive because the design could not judge (VerdictInputs::
    // not_judged): --gate, even --strict, does not fail on it.
    bool not_judged = false;
};

// The outcome rules, in order: an exact metric is compared exactly; both
// samples one and the same constant is no change (constant); any other
// undefined test (no variability) is inconclusive and says why;
// equivalence shown is no change; a significant p (adjusted) is a change
// whose direction says improvement or regression; otherwise inconclusive,
// with the runs that would settle it and, when this n cannot see a change
// of the threshold's size, the size it can see.
Verdict decide(const VerdictInputs& in);

}  // namespace gfxstat::analysis
