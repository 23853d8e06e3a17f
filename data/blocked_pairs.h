// SPDX-License-Identifier: MIT
// The pairs a blocked design compares (a `gfxstat ab` results file): in
// each block every variant ran once, close in time, so the baseline's and
// a candidate's values of one block are a pair, and what is compared is
// their difference (docs/results-format.md, "Design records").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "data/results_model.h"

namespace gfxstat::data {

// The per-run value a block design compares: the mean of the run's values
// of `metric`; nullopt when the run lacks it (or holds no value of it).
std::optional<double> run_value(const RunRecord& run, std::string_view metric);

struct BlockedPairs {
    std::vector<uint64_t> blocks;           // block numbers, increasing
    std::vector<double> baseline, candidate;  // one value each per block
    size_t incomplete = 0;  // blocks missing one side (failed runs)
};

// The ok, non-warm-up runs of `design` of two variants of one metric,
// paired by block, in block order. A within-run metric (one value per
// frame) or one the file does not declare gives no pairs: select_metric
// refuses those with the reason. A block with a run of either variant but
// no usable value of one of them (failed, warm-up, without the metric)
// counts as incomplete.
BlockedPairs blocked_pairs(const ResultsFile& file, std::string_view design, std::string_view metric,
                           std::string_view baseline, std::string_view candidate);

}  // namespace gfxstat::data
