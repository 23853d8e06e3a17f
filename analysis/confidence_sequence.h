// SPDX-License-Identifier: MIT
// The stop rule of `gfxstat ab`: after each block (every variant run once,
// in a random order) it looks at the block differences of the primary
// metric and says whether the answer is known: changed, equivalent within
// the threshold, or not yet.
//
// The method is a confidence sequence for the mean block difference: an
// interval that holds at every look at once, so that looking after each
// block, and stopping when it says so, keeps the error rates it states
// (Lai 1976; Howard, Ramdas, McAuliffe & Sekhon 2021). It comes from a
// mixture likelihood ratio of the t statistic: with the scale of the
// differences given the invariant (right Haar, 1/sigma) prior and the
// standardised effect delta = mu / sigma a normal N(0, g) prior, the
// Bayes factor of "the mean is mu" against the mixture is, after n
// differences with mean m and standard deviation s (t on nu = n - 1 df),
//
//   B_n(mu) = (1 + n g)^(-1/2) * [(1 + t^2/nu) / (1 + t^2/(nu (1 + n g)))]^(n/2),
//   t = (m - mu) / (s / sqrt n).
//
// It is the likelihood ratio of the scale-invariant part of the data, so
// under "the mean is mu" it is a nonnegative martingale starting at 1, and
// by Ville's inequality P(some n has B_n(mu) >= 1/alpha) <= alpha. The
// confidence sequence is { mu : B_n(mu) < 1/alpha }; B_n grows with t^2,
// so it is the interval m +- T_n s / sqrt n with T_n in closed form
// (sequential_radius). Exact for normal differences whatever their
// variance; the other shapes are measured (docs/ab.md, the calibration).
//
// The prior is a mixture of two such normals: weight 1 - w on the main
// one (variance g) and w on a wide one (variance G), so the Bayes factor
// is (1 - w) B_n(mu; g) + w B_n(mu; G), still a martingale under "the mean
// is mu" (an average of martingales). Without the wide part no look before
// block 6 could decide at the defaults: B_n(mu; 0.5) is at most
// (1 + n/2)^((n - 1)/2), below 20 up to n = 5, whatever the data. The wide
// part (G = 100, w = 0.05) reaches 1/alpha at block 4 when the change is
// many times the spread (a 50% change under 2% noise), and costs a change
// of the usual size about 2% more blocks (docs/ab.md, *What the stop rule
// costs*). Each part grows with t^2, so their sum does, and the interval
// stays m +- T_n s / sqrt n, with T_n found by bisection.
//
// Why block differences: each block holds every variant once, close in
// time, so a drift of the machine (clocks, temperature) is shared by both
// runs of a block and cancels in their difference. Positive metrics are
// compared as log ratios (ln candidate/baseline): a drift that scales
// both cancels exactly, and the threshold is relative.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gfxstat::analysis {

// The mixture's prior variance of the standardised effect. 0.5 puts the
// tightest boundary at 10 to 40 blocks, where most experiments stop
// (docs/ab.md shows the boundary for others).
inline constexpr double kSequentialMixture = 0.5;
// The wide part of the prior and its weight (above): effects of ten
// standard deviations and more, decided from block 4.
inline constexpr double kSequentialWideMixture = 100;
inline constexpr double kSequentialWideWeight = 0.05;

inline constexpr const char* kSequentialMethod = "t-mixture confidence sequence";

struct SequentialOptions {
    // The confidence sequence holds at every look with this probability:
    // a false "changed" (either way) is at most 1 - confidence over the
    // whole experiment, a false regression at most half that.
    double confidence = 0.95;
    double threshold = 0.01;  // relative: changes smaller than this are "equivalent"
    double mixture = kSequentialMixture;
    double wide_mixture = kSequentialWideMixture;
    double wide_weight = kSequentialWideWeight;  // in [0, 1); 0: the main normal alone
    // A deterministic metric (MetricInfo::exact): the same difference in
    // every block is the change itself, and decides once the mixture can
    // reach 1/alpha (block 6 at the defaults). Otherwise identical
    // differences are ties of a discrete metric (frame rates locked to 60
    // or 30), which say nothing about the spread: such looks go on, with
    // an unbounded interval, and add nothing to p, until the differences
    // vary. Deciding on six ties called a real 5% change "equivalent" in
    // 16% of experiments (docs/ab-calibration.md, fps ties).
    bool exact = false;
    // A group-sequential design (group_sequential.h): the looks planned
    // before the first run, in blocks (group_looks). Empty: the confidence
    // sequence, valid at every block. Otherwise the interval exists only
    // at a planned look (mean +- the Pocock bound times the standard
    // error, valid at all the looks at once) and is unbounded in between,
    // so that the rule decides nowhere else; p is the group design's.
    std::vector<size_t> looks;
};

enum class SequentialCall {
    go_on,       // the interval holds 0 and leaves the threshold band
    changed,     // the interval excludes 0
    equivalent,  // the interval lies inside (-threshold, +threshold)
};
const char* sequential_call_name(SequentialCall c);  // "go on", "changed", "equivalent"

// T_n: the confidence sequence's half-width in standard errors after n
// differences; +infinity while n is too small for any interval (n < 2, or
// the mixture cannot yet reach 1/alpha: n = 2, 3 at the defaults).
// alpha in (0, 1), mixture > 0, wide_mixture > 0, wide_weight in [0, 1),
// else std::invalid_argument. Without the wide part: the closed form.
double sequential_radius(size_t n, double alpha, double mixture, double wide_mixture, double wide_weight);
double sequential_radius(size_t n, double alpha, double mixture);  // wide_weight 0
// The rule's: 1 - confidence, and the options' mixture and wide part.
// With options.looks: the group design's bound at a planned look, else
// +infinity.
double sequential_radius(size_t n, const SequentialOptions& options);

// The Bayes factor above for the differences, at mu (1 for n < 2).
// Differences all equal: each part's limit for t -> infinity,
// (1 + n g)^((n - 1)/2), when they differ from mu, else 1.
double sequential_bayes_factor(std::span<const double> differences, double mu, double mixture,
                               double wide_mixture, double wide_weight);
double sequential_bayes_factor(std::span<const double> differences, double mu, double mixture);  // wide_weight 0

struct SequentialLook {
    size_t blocks = 0;
    // Block differences were log ratios (every value > 0); otherwise
    // plain differences, made relative to |mean(baseline)|.
    bool log_ratio = false;
    // The change relative to the baseline: exp(mean log ratio) - 1, or
    // mean difference / |mean(baseline)|; and the confidence sequence's
    // interval on the same scale (+-infinity while it is unbounded).
    double relative_change = 0;
    double lower = 0, upper = 0;
    // The same, in the metric's units: the mean difference and its
    // interval (for log ratios: the relative ones times the baseline's
    // geometric mean).
    double change = 0, change_lower = 0, change_upper = 0;
    double baseline_center = 0;  // geometric mean (log ratios) or mean of the baseline's block values
    // The anytime-valid p of "no change": min(1, 1 / max over looks of
    // B_k(0)); reject at alpha exactly when some look's interval excluded
    // 0. The running maximum makes it honest at any stopping time.
    double p = 1;
    SequentialCall call = SequentialCall::go_on;
    // More blocks that would likely settle it at the variability seen: the
    // interval then narrows to exclude 0 (at this estimate) or to fit the
    // band, whichever comes first; nullopt when it cannot be judged (no
    // variability yet, or fewer than 2 blocks).
    std::optional<size_t> blocks_to_settle;
    // A group design before its last look and not at a look: the next
    // planned look, in blocks (the interval is unbounded until then).
    std::optional<size_t> next_look;
    // What the rule needs, in words: "the interval must leave 0 or fit
    // inside +-1%" (for progress lines and reports).
    std::string needs;
};

// One look at `blocks` pairs: baseline[i] and candidate[i] ran in block i.
// Throws std::invalid_argument when the spans differ in length, a value is
// not finite, or the options are out of range (confidence in (0, 1),
// threshold >= 0, mixture > 0). Fewer than 2 blocks: go_on with an
// unbounded interval.
SequentialLook sequential_look(std::span<const double> baseline, std::span<const double> candidate,
                               const SequentialOptions& options);

// When the noise makes the threshold unreachable within a budget of
// blocks: what the threshold would need, and the smallest threshold that
// would likely settle within the budget. Both come from blocks_to_settle
// at the variability seen, nothing else: a look's estimate and spread held
// fixed, each threshold's predicted blocks are where its interval would
// first settle. A larger threshold widens the band, so the predicted
// blocks never grow with it, and a bisection on the threshold finds where
// they reach the budget. A figure that likely settles, not a promise: the
// estimate and the spread move as blocks come.
struct SettlingAdvice {
    size_t max_blocks = 0;  // the budget, in blocks in all (ab's --max-runs)
    double threshold = 0;   // the options' (relative)
    // Blocks in all that would likely settle it at `threshold` (more than
    // max_blocks); nullopt: more than a million more.
    std::optional<size_t> blocks_needed;
    // The smallest threshold, rounded up to 2 significant digits of its
    // percentage, at which the predicted blocks in all stay within
    // max_blocks, and those blocks; nullopt when none up to 100% does.
    std::optional<double> settling_threshold;
    size_t settling_blocks = 0;
};

// The blocks in all that would likely settle a look with these options:
// n when it is settled, n + blocks_to_settle otherwise; nullopt when that
// cannot be judged or lies more than a million blocks ahead.
std::optional<size_t> blocks_to_settle_in_all(std::span<const double> baseline, std::span<const double> candidate,
                                              const SequentialOptions& options);

// The advice for a look that is not settled, whose interval is bounded,
// and which would likely need more than max_blocks blocks in all at
// options.threshold; nullopt otherwise (settled, not yet bounded, no
// spread, or within the budget). Throws as sequential_look.
std::optional<SettlingAdvice> settling_advice(std::span<const double> baseline, std::span<const double> candidate,
                                              const SequentialOptions& options, size_t max_blocks);

}  // namespace gfxstat::analysis
