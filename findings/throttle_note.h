// SPDX-License-Identifier: MIT
// Compare's note on throttled runs (docs/compare-format.md, "Throttled
// runs"): how many runs of each side the GPU clock sampler saw throttled,
// and whether each verdict holds on the unthrottled runs alone; or, with
// --drop-throttled, how many were left out.
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/verdict.h"

namespace gfxstat::cli {

struct CompareReport;

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

// "throttled: 3 of 10 runs of A, 0 of 10 of B"
std::string throttle_counts_line(const ThrottleReport& t);
// "the same verdict (regression, +3.1%)", "a different verdict (no_change
// instead of regression, +0.2%)", "no comparison (...)".
std::string verdict_without_words(const VerdictWithout& v);

// Each renderer's part; nothing when the report has no throttle note.
void render_throttle_text(const CompareReport& r, FILE* out);
void render_throttle_markdown(const CompareReport& r, FILE* out);
void add_throttle_json(const CompareReport& r, nlohmann::json& doc);

}  // namespace gfxstat::cli
