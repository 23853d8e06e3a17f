// SPDX-License-Identifier: MIT
// The facts of the moment the runs recorded (findings/volatile_context.h)
// in words: a context line per field, and a sentence per variant that ran
// under systematically different conditions. Text from data (variant
// labels, chip names) is not escaped here: the caller escapes the line for
// its target.
#pragma once

#include <string>

#include "findings/volatile_context.h"

namespace gfxstat::report {

// "load average (1 min)", "coretemp temperature (°C)", "GPU actual clock
// (MHz)", "GPU 1 shader clock (MHz)", "GPU throttling".
std::string volatile_label(const std::string& field);

// "load average (1 min) 0.77 to 1.66 over 24 runs"; "GPU throttling in 3
// of 24 runs".
std::string volatile_context_line(const findings::VolatileFact& fact);

// "b ran under higher load: load average (1 min) 1.50 to 1.70 against
// 0.20 to 0.40 for a".
std::string volatile_shift_line(const findings::VolatileShift& shift);

}  // namespace gfxstat::report
