// SPDX-License-Identifier: MIT
// Suites measured once a side, by seeded simulation: how often the verdict
// `gfxstat compare` gives on a suite of benchmarks tested as pairs
// (analysis/paired_suite.h, analysis/paired_suite_verdict.h) is wrong, and
// how often its intervals hold the true change (docs/calibration.md,
// "Suites measured once a side, tested as pairs").
//
// A drawn suite has k benchmarks whose levels differ widely, as the rows of
// a GfxBench run or an IGT program's rates do: log-uniform between 50 and
// 5000. Each benchmark gives one value a side, its level times lognormal
// noise (each value on its own), and the candidate's level is the
// baseline's times the change. The cliff family adds what a suite of real
// rows shows now and then (gem_fence_upload's 64-surface row): one
// benchmark in eight, drawn independently, falls off a cliff on one side,
// its value times 0.25 or 1.5, on the baseline or the candidate with equal
// chance. Cliffs are noise, not change: the differences stay symmetric
// around the true change, which is therefore what both the mean of the log
// ratios (the geomean) and their centre of symmetry (Hodges-Lehmann)
// estimate. The integer family rounds every value to a whole number, as the
// per-test averages pasted in mails often are (GfxBench's "104" fps): at
// the low levels many benchmarks then give the same value on both sides, a
// zero difference, which the signed-rank test drops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/paired_suite.h"
#include "tests/calibration/families.h"

namespace gfxstat::calibration {

// How each benchmark's one value a side scatters.
struct SuiteNoise {
    const char* name;         // short id, used in the tables and by --family
    const char* description;  // in words
    double sd;                // sd of ln(value) around ln(level)
    double cliff_share;       // share of benchmarks with a cliff on one side (0: none)
    bool integers = false;    // each value rounded to an integer, as pasted per-test averages are
};

// Every noise family, in table order.
const std::vector<SuiteNoise>& suite_noises();
const SuiteNoise* find_suite_noise(const std::string& name);

// The true change. `better2` and `better5`: every benchmark's candidate
// level is 2% or 5% higher (every row higher is better: rates, scores).
// `mixed5`: every benchmark 5% better in a suite where one row in four is
// lower is better (a time: its level divided by 1.05), so that the raw
// values move both ways and only the oriented ratios agree.
enum class SuiteChange { aa, better2, better5, mixed5 };
inline constexpr SuiteChange kSuiteChanges[] = {SuiteChange::aa, SuiteChange::better2, SuiteChange::better5,
                                                SuiteChange::mixed5};
const char* suite_change_name(SuiteChange c);
// The true oriented ratio (above 1 is better): what every benchmark's
// oriented ratio of levels is, and what the intervals must hold.
double suite_change_ratio(SuiteChange c);

inline constexpr size_t kSuiteSizes[] = {4, 8, 12, 30};

// One drawn suite in `out`: k pairs (baseline, candidate, direction).
void draw_suite(const SuiteNoise& noise, size_t k, SuiteChange change, Rng& rng,
                std::vector<analysis::PairedValue>& out);

struct SuiteCellSpec {
    size_t noise = 0;  // index into suite_noises()
    size_t k = 0;      // benchmarks in the suite
    SuiteChange change = SuiteChange::aa;
    size_t reps = 0;
    uint64_t seed = 0;  // the cell's own seed, from the run's seed and the cell's identity
};

struct SuiteCellResult {
    SuiteCellSpec spec;
    size_t reps = 0;
    // Verdicts, as compare gives them on one candidate (a family of one).
    size_t gate_fails = 0;    // regression beyond the threshold (what --gate fails on)
    size_t significant = 0;   // improvement, regression or changed
    size_t correct = 0;       // improvement (every change drawn is one; A/A: none is)
    size_t wrong_way = 0;     // regression under a real improvement
    size_t no_change = 0, inconclusive = 0;
    // The primary test chosen, and the significant verdicts it gave.
    size_t by_signed_rank = 0, significant_by_signed_rank = 0;
    // p < alpha, whatever the verdict (equivalence shown comes first in
    // decide(), and hides rejections of a real but negligible change): the
    // primary test's own rejection rate, also split by the test chosen, and
    // each test's whatever was chosen. In A/A these are the tests' sizes.
    size_t rejects = 0, rejects_by_signed_rank = 0, t_rejects = 0, wilcoxon_rejects = 0;
    // Intervals against the true ratio: the geomean's (exp of the paired
    // t's), the Hodges-Lehmann one's, and the headline one (the primary
    // test's: what the suite table prints). Each over the replicates where
    // both its ends are finite.
    size_t geomean_defined = 0, geomean_covered = 0;
    size_t hl_defined = 0, hl_covered = 0;
    double hl_achieved_sum = 0;  // the Hodges-Lehmann interval's achieved confidence, summed
    size_t headline_defined = 0, headline_covered = 0;
    // The headline interval over the replicates where the signed-rank test
    // decided (the Hodges-Lehmann interval): the choice is made on the data,
    // so its interval is judged where it is chosen, not only on average.
    size_t signed_rank_defined = 0, signed_rank_covered = 0;
};

// The cells of the suite table: every noise, k and change. `quick`: what
// ctest checks (calibration_quick): every noise and k in A/A, and x1.05
// from k = 8 on (the power bar's cells among them).
std::vector<SuiteCellSpec> suite_cells(uint64_t seed, size_t reps, bool quick);

SuiteCellResult run_suite_cell(const SuiteCellSpec& spec);

// Every cell on `threads` threads; deterministic whatever the count.
std::vector<SuiteCellResult> run_suite_cells(const std::vector<SuiteCellSpec>& specs, unsigned threads);

}  // namespace gfxstat::calibration
