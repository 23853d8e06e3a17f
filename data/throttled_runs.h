// SPDX-License-Identifier: MIT
// Runs the GPU clock sampler saw throttled (data/throttle_record.h): how
// many a variant has, and a results file without them, for compare's
// "throttled" note and --drop-throttled.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

#include "data/results_model.h"

namespace gfxstat::data {

inline bool run_throttled(const RunRecord& r) { return r.throttle && is_throttled(*r.throttle); }

struct ThrottledCount {
    size_t measured = 0;   // runs that ended ok and were not warm-ups
    size_t throttled = 0;  // of those, throttled
};

// Over the measured runs of `variant` (every variant when empty).
ThrottledCount count_throttled(const ResultsFile& file, std::string_view variant = {});

// count_throttled of every variant that has a measured run, in one pass:
// for reports with a line per variant, which a pass per variant would make
// quadratic in the variants.
std::unordered_map<std::string, ThrottledCount> count_throttled_by_variant(const ResultsFile& file);

// The same file without its throttled runs (warm-ups included): the
// header, metrics, environments and designs as they are. `left_out`, when
// given, counts the measured runs that were removed.
ResultsFile without_throttled(const ResultsFile& file, size_t* left_out = nullptr);

}  // namespace gfxstat::data
