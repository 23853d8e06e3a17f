// SPDX-License-Identifier: MIT
// Compare's note on throttled runs in each renderer's words
// (findings/throttle_note.h holds what was found).
#pragma once

#include <cstdio>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "findings/throttle_note.h"

namespace gfxstat::cli {

struct CompareReport;

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
