// SPDX-License-Identifier: MIT
#include "data/run_checks.h"

#include <string_view>
#include <unordered_set>

namespace gfxstat::data {

std::string reference_conflict(const ResultsFile& file, const std::string& variant, const std::string& environment,
                               const std::string& design) {
    if (!environment.empty() && !file.find_environment(environment))
        return "environment '" + environment + "' is used before it is recorded";
    if (!design.empty()) {
        const DesignRecord* d = file.find_design(design);
        if (!d) return "design '" + design + "' is used before it is recorded";
        bool listed = false;
        for (const auto& v : d->variants) listed |= v == variant;
        if (!listed) return "variant '" + variant + "' is not one of design '" + design + "''s variants";
    }
    return {};
}

std::string run_conflict(const ResultsFile& file, const RunRecord& run) {
    if (run.variant.empty()) return "a run needs a non-empty variant label";
    // The reader takes indices up to 2^63-1 (they are JSON integers that
    // signed 64-bit readers hold): a writer must not write what it cannot
    // read back. Reached only after a run with index 2^63-1, whose variant
    // then has no index left.
    if (run.run > kMaxRunIndex)
        return "run index " + std::to_string(run.run) + " of variant '" + run.variant +
               "' is beyond 2^63-1, the largest a results file holds (the variant already has a run "
               "with the largest index; record new runs under another label)";
    // Pairs for the few metrics of a benchmark's run, a hash set for the
    // thousands of a wide table's row: linear either way.
    constexpr size_t kPairwise = 16;
    std::unordered_set<std::string_view> names;
    if (run.metrics.size() > kPairwise) names.reserve(run.metrics.size());
    for (size_t i = 0; i < run.metrics.size(); ++i) {
        if (!file.find_metric(run.metrics[i].name))
            return "metric '" + run.metrics[i].name + "' is used before it is declared";
        bool twice = false;
        if (run.metrics.size() > kPairwise) {
            twice = !names.insert(run.metrics[i].name).second;
        } else {
            for (size_t j = 0; j < i; ++j) twice |= run.metrics[j].name == run.metrics[i].name;
        }
        if (twice) return "metric '" + run.metrics[i].name + "' appears twice in one run";
    }
    if (std::string e = reference_conflict(file, run.variant, run.environment, run.design); !e.empty()) return e;
    if (run.design.empty() && (run.block || run.position))
        return std::string("a run with a \"") + (run.block ? "block" : "position") +
               "\" needs the \"design\" it belongs to";
    return {};
}

std::string run_recorded_twice(const RunRecord& run) {
    std::string who = "run " + std::to_string(run.run) + " of variant '" + run.variant + "'";
    if (!run.origin.empty()) who += " from file " + run.origin;
    return who + " is recorded twice";
}

}  // namespace gfxstat::data
