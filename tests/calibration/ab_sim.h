// SPDX-License-Identifier: MIT
// Simulated `gfxstat ab` experiments and the fixed designs they are measured
// against (ab_calibration.cpp, bench/ab_efficiency.cpp), on the calibration
// families (families.h).
//
// How a family becomes a stream of runs in time. ab runs its variants in
// blocks, every variant once per block in a seeded random order, all in one
// boot, so each run has a slot in one time line: block i holds slots 2i and
// 2i + 1. The families' per-run distributions are used as they are
// (generate() with n = 1), except the two whose trouble is in time:
//
//  - boot-modes: the mode (100 or 104) is a property of the boot; an ab
//    experiment is in one boot, so one mode is drawn per experiment and
//    every run of both variants is N(mode, 0.5) (times the change).
//  - drift: N(100, 1) plus a linear drift of +3 over the experiment's
//    planned time line (2 * max_runs slots for ab, 2 * N for a fixed
//    design with N runs a side), shared by both variants: the machine
//    drifts, not the build.
//
// A change multiplies the latent value before any rounding (Change::scale),
// as in the calibration suite. A "bad" change of delta is a scale of
// 1 + delta where lower is better and 1 - delta where higher is better.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/confidence_sequence.h"
#include "tests/calibration/families.h"

namespace gfxstat::calibration {

// The families ab is calibrated on: every verdict family.
std::vector<size_t> ab_families();

// The scale of a change of `delta` in the family's bad direction.
double bad_scale(const Family& f, double delta);

// One experiment's machine: draws the per-experiment state (the boot's
// mode) on construction; then value(scale, slot) is one run at that slot
// of a time line `slots` long.
class RunStream {
public:
    RunStream(const Family& f, size_t slots, Rng& rng);
    double value(double scale, size_t slot);

private:
    const Family& f_;
    Rng& rng_;
    size_t slots_;
    double mode_ = 0;
    Sample scratch_;
    enum class Kind { iid, boot, drift } kind_;
};

enum class AbCall { regression, improvement, equivalent, inconclusive };

struct AbOutcome {
    AbCall call = AbCall::inconclusive;
    size_t blocks = 0;  // runs per variant used
};

// One ab experiment: blocks of baseline and candidate (scale) in a random
// order, a look after every block from the second on, stop at the first
// call that is not go_on or after max_runs blocks (inconclusive).
AbOutcome run_ab(const Family& f, double scale, size_t max_runs, const analysis::SequentialOptions& o, Rng& rng);

// The fixed designs. Each returns +1 (significant, candidate worse), -1
// (significant, candidate better) or 0, from a two-sided test at alpha.
//
// welch_fixed: N runs of the baseline, then N of the candidate (not
// interleaved: what hyperfine and a plain `gfxstat run` twice do), Welch's
// t on the values (gfxstat compare's headline test on clean data).
int welch_fixed(const Family& f, double scale, size_t n, double alpha, Rng& rng);
// paired_fixed: N blocks as ab runs them, then a one-sample t test of the
// log ratios (the fixed-N version of ab's own design).
int paired_fixed(const Family& f, double scale, size_t n, double alpha, Rng& rng);

// The Phoronix Test Suite's dynamic run count (pts_test_run_manager::
// increase_run_count_check, learnt from its source, not copied): run
// `scheduled` times; then, while the sample's relative standard deviation
// (n - 1 denominator) is at least `threshold_percent` or a value lies
// outside mean +- 3 population sd, run again while fewer than 4 * scheduled
// (tests under two minutes); up to 5 * scheduled only while the relative
// sd has moved by less than half of its first noisy value (the source's
// test). Each variant is run on its own, baseline first, then Welch's t.
struct PtsOutcome {
    int verdict = 0;
    size_t runs_baseline = 0, runs_candidate = 0;
};
PtsOutcome pts_fixed(const Family& f, double scale, double threshold_percent, size_t scheduled, double alpha,
                     Rng& rng);

}  // namespace gfxstat::calibration
