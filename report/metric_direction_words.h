// SPDX-License-Identifier: MIT
// A metric's direction as a table heading says it: "lower is better",
// "higher is better", and `unknown` for a metric without one ("direction
// unknown" in tables; history's heading says "no direction").
#pragma once

#include "data/results_model.h"

namespace gfxstat::report {

const char* direction_words(data::Direction d, const char* unknown = "direction unknown");

}  // namespace gfxstat::report
