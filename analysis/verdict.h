// The verdict on one metric of one comparison: improvement, regression,
// no change (proven equivalent within a threshold) or inconclusive, with the
// test that decided, the reason in words, and how many runs per side would
// settle an inconclusive result.
#pragma once

#include <optional>
#include <string>

#include "analysis/rank_tests.h"
#include "analysis/t_tests.h"

namespace gfxstat::analysis {

enum class Better { lower, higher, unknown };
enum class Outcome { improvement, regression, no_change, inconclusive, changed };
// welch_boot_means: Welch's t on the per-boot means, when runs cluster by
// boot; paired_boot_means: the paired t on per-boot differences, when both
// variants ran in the same boots (comparison.h).
enum class PrimaryTest { welch, mann_whitney, welch_boot_means, paired_boot_means };

const char* outcome_name(Outcome o);        // "improvement", ..., "changed"
const char* primary_test_name(PrimaryTest t);  // "welch", "mann_whitney", "welch_boot_means", "paired_boot_means"
const char* primary_test_words(PrimaryTest t); // "Welch t", "Mann-Whitney U", "Welch t on boot means", ...

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
    bool beyond_threshold = false;  // |relative change| > threshold
    std::string reason;
};

Verdict decide(const VerdictInputs& in);

}  // namespace gfxstat::analysis
