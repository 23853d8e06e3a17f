// SPDX-License-Identifier: MIT
// Change points over a series of builds (gfxstat history, docs/history.md):
// where a metric moved along a history of builds, each build measured a
// few times.
//
// The method: binary segmentation over the builds. Each build is one unit
// of the series, summarised by the mean of its values (on log values when
// every value is positive, so that changes are ratios), weighted by its
// number of values. A segment's split statistic at each candidate split is
// the weighted difference of the two sides' means standardised by the
// pooled variation of the build means about their own side's mean: noise
// from build to build (each build in another boot, another compile's code
// layout) is in the yardstick, not only the noise between runs of one
// build, so it does not make changes. The largest |t| over the splits is
// judged by a permutation test that permutes whole builds (valid whatever
// the runs of one build share), seeded, so results repeat. A significant
// segment is split there and both sides are tested again, breadth first,
// until no test is significant, a side would be shorter than
// `min_segment` builds, or `max_changes` changes were found.
//
// Error control: the first test on the whole series is at `alpha`, so a
// series with no change shows a change point with probability at most
// alpha (plus the Monte Carlo error of the permutations). Each later test
// is also at `alpha`; it only runs inside a segment that a significant
// test produced, so the expected number of spurious changes in a series
// with K real ones is at most alpha times the 2K + 1 segments tested.
//
// Cost: one segment's test is O(length x permutations) (prefix sums make
// each split O(1)); segments tested at one depth of the recursion never
// overlap, so a whole analysis is O(builds x permutations x (depth + 1)).
// A permutation test stops as soon as its p can no longer fall below alpha
// (most tests of a quiet series stop after a few dozen permutations).
//
// No I/O, no global state: spans in, plain structs out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gfxstat::analysis {

struct ChangePointOptions {
    double alpha = 0.01;          // false-alarm level of each split test, in (0, 0.5)
    size_t permutations = 999;    // per split test; p has a resolution of 1 / (permutations + 1)
    size_t min_segment = 2;       // builds at least on each side of a change (>= 2)
    size_t max_changes = 10;      // stop after this many changes
    double confidence = 0.95;     // of each change's interval, in (0, 1)
    uint64_t seed = 12345;        // of the permutations
    // Work on log values when every value is positive (changes are ratios);
    // false: on the values themselves (changes relative to the earlier
    // segment's mean).
    bool log_when_positive = true;
    // Changes in the same direction one after another, at least this many:
    // reported as a possible gradual drift (ChangePointResult::drifts).
    size_t drift_run = 3;
};

// A stretch of builds between two change points (or the series' ends).
struct ChangeSegment {
    size_t first = 0, last = 0;  // build indices, inclusive
    size_t builds = 0;
    size_t values = 0;
    // Of every value of the segment's builds, on the values' own scale.
    double mean = 0, median = 0;
};

struct BuildChange {
    size_t before = 0;  // the last build before the change
    size_t after = 0;   // the first build after it
    // Relative change of the later segment against the earlier one, in
    // percent, and its interval at `confidence` (Welch's t on the two
    // segments' build means; on log values the ratio, exactly).
    double change_pct = 0, low_pct = 0, high_pct = 0;
    double p = 1;                  // the permutation test's p when the change was found
    size_t permutations = 0;       // permutations that test ran
    double statistic = 0;          // its |t|
    size_t depth = 0;              // 0: found on the whole series; 1: inside one of its sides, ...
};

// Changes in one direction one after another (ChangeSegment indices of the
// first and last change): a step-like detection of what may be a gradual
// drift over those builds.
struct DriftRun {
    size_t first_change = 0, changes = 0;
    bool upwards = false;
    double total_pct = 0;  // the last segment against the first one of the run
};

struct ChangePointResult {
    bool log_scale = false;
    std::vector<ChangeSegment> segments;  // in build order; one when nothing changed
    std::vector<BuildChange> changes;     // in build order; changes[i] is between segments i and i + 1
    std::vector<DriftRun> drifts;
    size_t tests = 0;                     // split tests run
    size_t permutations = 0;              // permutations run, all tests together
    bool hit_max_changes = false;         // stopped by max_changes with segments left to test
    // Fewer builds than two segments of min_segment: nothing could be tested.
    bool too_few_builds = false;
};

// `builds`: the values of each build, in series order; none may be empty.
// Throws std::invalid_argument for an empty build, a non-finite value or
// options out of range.
ChangePointResult find_change_points(std::span<const std::vector<double>> builds, const ChangePointOptions& options);

// The permutation test of one segment (exposed for tests): the best split
// of `means` (weights `weights`) and its p. `split` is the index of the
// first build of the right side, within the span.
struct SplitTest {
    size_t split = 0;
    double statistic = 0;
    double p = 1;
    size_t permutations = 0;
};
SplitTest test_best_split(std::span<const double> means, std::span<const double> weights, size_t min_segment,
                          size_t permutations, double alpha, uint64_t seed);

// The smallest p the permutation test can give a series of `builds`
// builds: a clean step between its two halves, the most balanced split,
// is matched by the permutations that keep each half together at either
// end, 2 / C(builds, builds / 2) of them. A series whose smallest p is
// above alpha cannot show a change, however large.
double smallest_split_p(size_t builds);

// The fewest builds whose smallest p is at most `alpha`.
size_t builds_for_alpha(double alpha);

}  // namespace gfxstat::analysis
