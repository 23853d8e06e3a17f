// SPDX-License-Identifier: MIT
// What a results file holds, counted: the facts `gfxstat show` prints and a
// reviewer asks for first (how many runs, which failed, which boots, and
// whether the variants ran in different environments).
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "data/results_model.h"

namespace gfxstat::data {

struct VariantOverview {
    std::string variant;
    size_t runs = 0;                       // every run record
    size_t warmup = 0;                     // warm-up runs (any exit)
    std::array<size_t, kExitClassCount> by_class{};      // non-warm-up runs, by ExitClass
    // Of the measured runs (by_class[ok]), those the GPU clock sampler saw
    // throttled: data::count_throttled for this variant, counted in the one
    // pass over the runs (a pass per variant was quadratic in the variants).
    size_t throttled = 0;
    // Samples each metric has in the runs analyses use (ok, not warm-up).
    std::map<std::string, size_t> samples;
    std::map<std::string, size_t> runs_with_metric;
    std::vector<std::string> origins;      // distinct run origins ("" = this file)
    // The workloads its runs recorded, in order of first appearance, with
    // their runs; more than one: the variant mixes experiments. Runs that
    // recorded none (older files, imports) are counted apart.
    std::vector<std::pair<WorkloadRecord, size_t>> workloads;
    size_t runs_without_workload = 0;
};

// One environment field, or tag, and the values each variant's runs had.
struct EnvironmentField {
    std::string field;  // "kernel_release"; tags as "tag:<key>"
    // variant -> value -> number of runs ("" = not recorded for those runs)
    std::map<std::string, std::map<std::string, size_t>> values;
    bool differs_between_variants = false;  // the variants' value sets differ
    bool varies_within_variant = false;     // some variant saw several values
};

// One machine of a fleet (machine_key), with its runs per variant.
struct MachineOverview {
    std::string key;   // machine_key: the `machine` field, else the hostname
    std::string name;  // machine_name: the hostname when recorded, else the key
    size_t boots = 0;  // distinct known boot ids of its runs
    std::map<std::string, size_t> runs;  // variant -> runs
};

struct ResultsOverview {
    std::vector<VariantOverview> variants;  // in order of first appearance
    // boot id ("" = unknown) in order of first appearance, runs per variant
    std::vector<std::pair<std::string, std::map<std::string, size_t>>> boots;
    size_t known_boots = 0;                 // entries of `boots` with an id
    size_t runs_of_unknown_boot = 0;
    // Fields that differ or vary, volatile ones (data/volatile_facts.h)
    // left out: they are the context of the runs, not their configuration.
    std::vector<EnvironmentField> environment;
    size_t runs_without_environment = 0;
    // Machines in order of first appearance; runs whose environment names
    // none (no environment, or neither field) are counted apart.
    std::vector<MachineOverview> machines;
    size_t runs_of_unknown_machine = 0;
};

ResultsOverview overview(const ResultsFile& file);

}  // namespace gfxstat::data
