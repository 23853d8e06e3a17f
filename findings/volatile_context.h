// SPDX-License-Identifier: MIT
// The facts of the moment the runs recorded (load average, temperatures,
// the clocks the GPU ran at, throttling: data/volatile_facts.h) as the
// context of a comparison: the range each took over the runs, and the
// variants that ran under systematically different conditions.
//
// "Systematically" is one rule, the same for every command
// (docs/diagnostics.md, "Volatile facts"): a variant's readings of a field
// all lie strictly above (or all strictly below) the reference's, and
//  - if the readings were exchangeable (the variants interleaved under
//    the same conditions), ranges this far apart would arise with a chance
//    of 2·n!·m!/(n+m)! (n, m readings a side), which must be below 0.01:
//    at least 5 runs a side, or 4 against 6, 3 against 9, 2 against 19;
//  - the medians differ by at least what matters for the field: 0.5 of
//    load, 5 °C, a tenth of the lower clock, half the runs throttled.
// Ties do not count as apart, so identical readings never give a finding.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "data/results_model.h"

namespace gfxstat::findings {

// The chance level of the rule above.
inline constexpr double kVolatileShiftLevel = 0.01;

struct VolatileRange {
    size_t runs = 0;     // runs with a reading
    size_t nonzero = 0;  // readings above 0: the runs throttled, for a throttle field
    double low = 0, high = 0, median = 0;
};

// One field over all runs, and over each variant's.
struct VolatileFact {
    std::string field;
    VolatileRange all;
    std::vector<std::pair<std::string, VolatileRange>> variants;  // those with readings, in order
};

// `variant` read `field` systematically higher (or lower) than `reference`.
struct VolatileShift {
    std::string field, variant, reference;
    bool higher = false;
    VolatileRange range, reference_range;
    double chance = 1;  // 2·n!·m!/(n+m)!
};

struct VolatileContext {
    std::vector<VolatileFact> facts;    // fields in name order
    std::vector<VolatileShift> shifts;  // by field, then variant
};

// A variant's readings: field -> one value per run, in run order.
struct VolatileReadings {
    std::string variant;
    std::map<std::string, std::vector<double>> fields;
};

// Every variant's runs that are not warm-ups, variants in order of first
// appearance. Runs without an environment, or without the field, or with
// a value that does not read as a number, give no reading.
std::vector<VolatileReadings> volatile_readings(const data::ResultsFile& f);

// Ranges, and shifts of every variant against the first (the reference:
// compare's baseline, show's first variant).
VolatileContext volatile_context(const std::vector<VolatileReadings>& variants);

// 2·n!·m!/(n+m)!: the chance that n and m exchangeable readings without
// ties fall into two ranges that do not overlap (either way round). 1
// when a side is empty.
double separation_chance(size_t n, size_t m);

// The least difference between medians that counts for `field`, given
// the lower of the two medians (clocks: a tenth of it).
double volatile_minimum_difference(const std::string& field, double lower_median);

}  // namespace gfxstat::findings
