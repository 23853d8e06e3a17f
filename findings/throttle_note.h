// SPDX-License-Identifier: MIT
// What compare found about throttled runs (docs/compare-format.md,
// "Throttled runs"): how many runs of each side the GPU clock sampler saw
// throttled, and whether each verdict holds on the unthrottled runs alone;
// or, with --drop-throttled, how many were left out. The note's words are
// report/throttle_note.h's.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/verdict.h"

namespace gfxstat::cli {

struct ThrottleSide {
    std::string label;
    size_t throttled = 0, runs = 0;  // of the side's measured runs
};

// One comparison (metric, candidate) on the unthrottled runs.
struct VerdictWithout {
    std::string metric, candidate;
    bool compared = false;      // false: it could not be made (too few runs left)
    std::string why_not;
    analysis::Outcome with = analysis::Outcome::inconclusive, without = analysis::Outcome::inconclusive;
    double relative_change = 0;  // without them; NaN when the baseline is 0
    double change = 0;
    bool same() const { return compared && with == without; }
};

struct ThrottleReport {
    std::vector<ThrottleSide> sides;  // baseline first
    bool dropped = false;             // --drop-throttled: the runs were left out
    size_t left_out = 0;
    std::vector<VerdictWithout> without;  // empty with --drop-throttled
    // The comparison without them could not be made at all: why.
    std::string without_error;
    size_t throttled() const {
        size_t n = 0;
        for (const auto& s : sides) n += s.throttled;
        return n;
    }
};

}  // namespace gfxstat::cli
