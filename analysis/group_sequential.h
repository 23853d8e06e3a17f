// SPDX-License-Identifier: MIT
// The group-sequential stop rule of `gfxstat ab --stop group`: a few looks
// at the block differences, planned before the first run from --max-runs,
// each a one-sample t test at one nominal level (a Pocock boundary), that
// level chosen so that the chance of any false "changed" over all the looks
// is alpha (Pocock 1977; the t statistic with the variance unknown, as
// Jennison & Turnbull 2000, ch. 3.8 and 11).
//
// Why it exists beside the confidence sequence (confidence_sequence.h): the
// t-mixture may be looked at after every block and so pays for every
// block; at 10 blocks its interval is 4.1 standard errors wide where a
// fixed-n t interval is 2.3. Ten looks planned in advance cost much less:
// the Pocock level for 10 looks at alpha 0.05 is about 0.01 a look (t of
// about 2.7 at 20 blocks), and a 2% change under 2% noise is called after
// about 0.55 of the runs of the fixed design with the same power
// (docs/ab.md, "What the stop rule costs"). The price: the rule holds only
// at the planned looks (ab evaluates it nowhere else, whatever the
// progress lines show), and compare must know the looks (the design
// record holds them).
//
// The boundary: under "no change" with normal block differences, the t
// statistics at the looks have one joint law, free of the mean and the
// variance. It is computed by a seeded simulation of that law
// (kGroupReplicates replicates; each replicate draws, per stretch between
// two looks, the stretch's sum and within sum of squares, N(0, m) and a
// chi-square on m - 1 df, so its cost does not grow with the blocks): the
// per-look level is the largest at which the simulated chance of any |t|
// beyond its bound is at most alpha. Its error is the simulation's: the
// overall level is alpha within a binomial standard error of
// sqrt(alpha (1 - alpha) / kGroupReplicates), 0.0005 at alpha 0.05, a
// tenth of alpha / 10 (the table in docs/ab.md lists the levels; the
// unit tests check them by an independent simulation of whole samples).
// The same seed every time: ab, compare and the calibration compute the
// same boundary from the same looks and alpha.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace gfxstat::analysis {

inline constexpr const char* kGroupSequentialMethod = "group-sequential t (Pocock)";
// Replicates of the boundary's simulation: its overall level's standard
// error is sqrt(alpha (1 - alpha) / this), under a tenth of alpha / 10.
inline constexpr size_t kGroupReplicates = 200000;

// The planned looks for at most max_blocks blocks, in complete blocks: the
// first at block 4 (a change many times the spread is called there, as
// the confidence sequence calls it), then equally spaced to max_blocks, 10
// looks at most (one look a 4 blocks or more). max_blocks < 4: one look,
// at max_blocks (a fixed t test). max_blocks >= 2.
std::vector<size_t> group_looks(size_t max_blocks);

struct GroupBoundary {
    std::vector<size_t> looks;    // complete blocks at each look, increasing, the first >= 2
    double alpha = 0.05;          // the overall two-sided level
    double nominal = 0.05;        // each look's two-sided level of the t test
    std::vector<double> critical; // |t| bound per look: t quantile 1 - nominal / 2 on looks[k] - 1 df
    // Per replicate, the smallest nominal p over the K looks under "no
    // change", sorted: what group_p reads.
    std::vector<double> min_p;
};

// The boundary for these looks at this overall alpha, computed once per
// process and kept (thread-safe). Throws std::invalid_argument for looks
// that are empty, not increasing, or start below 2, or alpha outside (0, 1).
const GroupBoundary& group_boundary(std::span<const size_t> looks, double alpha);

// The bound at a look: critical[k] when `blocks` is looks[k], else
// +infinity (no look there: the rule is not evaluated).
double group_radius(const GroupBoundary& b, size_t blocks);

// The p of "no change" given the smallest nominal two-sided p seen over
// the looks so far: the simulated chance that the smallest over all K
// looks is at most that, (count + 1) / (replicates + 1). p <= alpha
// exactly when some look's |t| passed its bound.
double group_p(const GroupBoundary& b, double smallest_nominal_p);

// The two-sided p of the one-sample t at this |t| on df degrees of freedom.
double t_two_sided_p(double abs_t, double df);

}  // namespace gfxstat::analysis
