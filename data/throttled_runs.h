// SPDX-License-Identifier: MIT
// Runs the GPU clock sampler saw throttled (data/throttle_record.h): how
// many a variant has, and a results file without them, for compare's
// "throttled" note and --drop-throttled.
#pragma once

#include <cstddef>
#include <string_view>

#include "data/results_model.h"

namespace gfxstat::data {

inline bool run_throttled(const RunRecord& r) { return r.throttle && is_throttled(*r.throttle); }

struct ThrottledCount {
    size_t measured = 0;   // runs that ended ok and were not warm-ups
    size_t throttled = 0;  // of those, throttled
};

// Over the measured runs of `variant` (every variant when empty).
ThrottledCount count_throttled(const ResultsFile& file, std::string_view variant = {});

// The same file without its throttled runs (warm-ups included): the
// header, metrics, environments and designs as they are. `left_out`, when
// given, counts the measured runs that were removed.
ResultsFile without_throttled(const ResultsFile& file, size_t* left_out = nullptr);

}  // namespace gfxstat::data
