// SPDX-License-Identifier: MIT
// A metric's direction as a table heading says it: "lower is better",
// "higher is better", "direction unknown"; one place for the words, so
// that every table and report says a direction alike.
#pragma once

#include "analysis/verdict.h"
#include "data/results_model.h"

namespace gfxstat::report {

// `unknown`: the words for a metric without a direction where
// "direction unknown" would not read (history says "no direction").
const char* direction_words(data::Direction d, const char* unknown = "direction unknown");

// A comparison's direction (analysis::Better), in the same words.
const char* direction_words(analysis::Better b);

}  // namespace gfxstat::report
