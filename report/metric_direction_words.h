// SPDX-License-Identifier: MIT
// A metric's direction as a table heading says it: "lower is better",
// "higher is better", "direction unknown".
#pragma once

#include "data/results_model.h"

namespace gfxstat::report {

const char* direction_words(data::Direction d);

}  // namespace gfxstat::report
