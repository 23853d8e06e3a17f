// SPDX-License-Identifier: MIT
// The sample families of the calibration suite (calibrate.cpp): seeded
// generators for the shapes graphics benchmarks produce, each with its
// documented mean and spread, so that every rate the suite measures can be
// traced to a known truth. A family is a distribution for one side; a
// Change turns it into the candidate's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnostics.h"
#include "analysis/verdict.h"
#include "analysis/xoshiro.h"

namespace gfxstat::calibration {

// xoshiro256** seeded through SplitMix64, with the few variates the
// families need. One per replicate, so that results do not depend on
// which thread ran which cell.
class Rng {
public:
    explicit Rng(uint64_t seed);
    double uniform() { return g_.uniform(); }
    double normal();                    // N(0, 1), Box-Muller
    double exponential(double mean);    // Exp with that mean
    double student_t3();                // Student t with 3 df
private:
    analysis::Xoshiro256ss g_;
};

// What a family is used for: the diagnostic it should fire (detection
// families), or none (the verdict families, where every diagnostic
// sentence that fires on a unimodal drift-free family is a false alarm).
enum class Detects { nothing, bimodality, outlier, drift };

struct Family {
    const char* name;         // short id, used in the tables
    const char* description;  // distribution, mean and sd, in words
    const char* unit;         // what it stands for
    analysis::Better better;  // which direction is better for this metric
    double mean;              // the nominal mean: the additive shift is delta * mean
    // Unimodal and drift-free: the false bimodal / outlier / drift bars apply.
    bool clean;
    // Verdict cells (A/A, power, coverage) are measured; detection families
    // only have their per-sample diagnostics measured.
    bool verdicts;
    bool boots;               // several runs per boot; the layout carries boot ids
    bool exact;               // a deterministic metric, compared exactly
    Detects detects;
};

// Every family, in table order.
const std::vector<Family>& families();
const Family* find_family(const std::string& name);

// How the candidate differs from the family. `scale` multiplies each
// latent value before any quantisation (a real change, which the timer
// then rounds); `shift` is added to each final value, after quantisation,
// so that every location estimand (mean, median, Hodges-Lehmann shift, boot
// mean) moves by exactly `shift`: the truth that coverage is judged on.
struct Change {
    double scale = 1;
    double shift = 0;
};

// One generated sample in run order, with its boot layout when the family
// has boots (the SampleLayout points into this object: keep it alive).
struct Sample {
    std::vector<double> values;
    std::vector<uint32_t> boot_of_value;
    std::vector<std::string> boot_ids;
    std::vector<size_t> firsts;
    std::optional<size_t> planted;  // the index of a planted outlier
    analysis::SampleLayout layout() const;
};

// n values of `family` under `change`. `side` ("b" or "c") prefixes the
// boot ids: each variant runs in its own boots, as when comparing kernels.
void generate(const Family& family, size_t n, const Change& change, const char* side, Rng& rng, Sample& out);

}  // namespace gfxstat::calibration
