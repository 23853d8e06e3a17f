// SPDX-License-Identifier: MIT
// The statistics of `gfxstat bisect`: whether a good and a bad build
// really differ (bisect check), and whether the commit under test is like
// the good one or like the bad one (each bisect step), with an error
// budget that holds for the whole bisection.
//
// Why a budget: `git bisect` trusts every answer. One commit called wrongly
// sends the search into the wrong half for good, and nothing later can
// notice. So the chance that *any* step is wrong is what has to be small:
// the whole budget alpha (1 - confidence) is split over the steps the
// bisection is expected to take plus one share for the references (a union
// bound): each step may err with alpha / (steps + 1) at most.
//
// The references. The good and bad samples (runs of the two builds, the
// mean of each run's values) give two levels; on the log scale when every
// value is positive, so that the levels and the threshold are relative.
// The commit is like-good or like-bad; the boundary between the two is the
// midpoint of the levels.
//
// A step is Wald's sequential probability ratio test between the two
// levels, made safe against what the references cannot pin down. After
// run i, with Y_i the run's distance from the midpoint (positive on the
// bad side), the evidence is S_n = sum theta_i Y_i; the step calls "bad"
// when S_n >= ln(1/a) and "good" when S_n <= -ln(1/a), a = the step's
// share of the budget. For a commit at the good level, Y ~ N(-delta,
// sigma^2), and exp(S_n) is a nonnegative supermartingale as long as
// theta_i <= 2 delta / sigma^2: by Ville's inequality it reaches 1/a with
// chance at most a, whenever the step stops (the same for the bad level).
// So theta_i = 2 D / s_i^2 with D no more than the true distance from
// either level to the estimated midpoint and s_i no less than the runs'
// true spread:
//   - D = half the gap between the levels less the half-width of the
//     midpoint's Welch interval (at half the references' share);
//   - s_i = the larger of an upper confidence bound of the references'
//     pooled spread (chi-square, the other half of the share) and the
//     spread of the commit's own runs before run i (so that a noisier
//     commit slows the step down instead of misleading it; from earlier
//     runs only, which keeps the supermartingale).
// A commit at the good level is called bad only if the references' bounds
// failed (their share, once for all steps) or the test erred (the step's
// share). Exact for normal noise; other shapes are measured
// (tests/unit/drivers/bisect_test.cpp, bench/bisect_efficiency.sh).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace gfxstat::analysis {

struct BisectOptions {
    // Of the whole bisection: the chance that any step (or the references'
    // boundary) is wrong stays within 1 - confidence.
    double confidence = 0.95;
    // Steps the bisection is expected to take: ceil(log2(commits to test + 1)).
    size_t expected_steps = 7;
    // Relative: good and bad must differ by more than this beyond doubt
    // (bisect check), else there is nothing to bisect.
    double threshold = 0.01;
    // Runs of a step at most (for the expected runs a step takes).
    size_t max_runs = 50;
    // The metric is deterministic (a size, a count): identical values are
    // the level itself, not ties of a coarse metric.
    bool exact = false;
};

// The references, as the whole bisection uses them (recorded in the steps
// file, so that every step and the report use the same numbers).
struct BisectReferences {
    bool log_scale = false;          // every value > 0: levels on ln(value)
    size_t good_runs = 0, bad_runs = 0;
    // Levels on the working scale (mean of ln values, or of values) and the
    // sample standard deviations there.
    double good_level = 0, bad_level = 0;
    double good_sd = 0, bad_sd = 0;
    // The same levels in the metric's units (geometric mean, or mean).
    double good_center = 0, bad_center = 0;
    // Bad against good, relative: exp(bad - good) - 1, or (bad - good) /
    // |good|; with the Welch interval at the references' confidence.
    double change = 0, change_lower = 0, change_upper = 0;
    double p = 1;                    // Welch's two-sided p of "no difference"
    // The midpoint on the working scale and its interval's half-width.
    double boundary = 0, boundary_half_width = 0;
    // The budget: each step's share and the references' share.
    double step_alpha = 0, reference_alpha = 0;
    // The references' pooled standard deviation, its upper bound, and the
    // safe half-gap D (working scale; 0 when the references cannot give
    // one: their levels are too close for their noise).
    double pooled_sd = 0, sd_upper = 0, half_gap = 0;
    // ln(1 / step_alpha): the evidence a step needs either way.
    double evidence_needed = 0;
    bool exact = false;
    // Runs a step at either level takes on average at the references'
    // spread (Wald's approximation; nullopt: more than max_runs).
    std::optional<size_t> expected_runs;
    // bisect check's answer: good and bad differ by more than the
    // threshold beyond doubt; and in words why (not) and what to do.
    bool differ = false;
    std::string why;
};

// Throws std::invalid_argument for a value that is not finite or options
// out of range (confidence in (0, 1), threshold >= 0, expected_steps >= 1,
// max_runs >= 2). Fewer than 2 runs in a reference: differ = false, why
// says so (the other fields as far as they can be computed).
BisectReferences bisect_references(std::span<const double> good, std::span<const double> bad,
                                   const BisectOptions& options);

enum class BisectCall { go_on, good, bad };
const char* bisect_call_name(BisectCall c);  // "go on", "good", "bad"

struct BisectLook {
    size_t runs = 0;
    // The commit's level relative to the good one (exp(level - good) - 1,
    // or (level - good) / |good|) and its 95% t interval on that scale, for
    // reports (the call is the evidence's; -inf/+inf with fewer than 2 runs).
    double estimate = 0, lower = 0, upper = 0;
    // S_n: > 0 towards bad; the call is made at +-evidence_needed.
    double evidence = 0;
    // Where the commit lies between the references: 0 at the good level,
    // 1 at the bad level (NaN with no run).
    double position = 0;
    BisectCall call = BisectCall::go_on;
    // What the rule still needs, in words, for progress lines.
    std::string needs;
    // The commit's interval lies wholly beyond the bad level, or wholly
    // beyond the good level on the far side: a change that is neither
    // reference's (worth a note in the report).
    bool beyond_references = false;
};

// One look at a step's values (one per run, in run order). Values must be
// finite (std::invalid_argument); on the log scale they must be > 0 (a
// value <= 0 there is std::invalid_argument: the metric changed its kind).
BisectLook bisect_look(const BisectReferences& refs, std::span<const double> values);

// The expected number of bisection steps for `commits` commits left to
// test: ceil(log2(commits + 1)), at least 1.
size_t bisect_expected_steps(size_t commits);

}  // namespace gfxstat::analysis
