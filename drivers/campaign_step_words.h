// SPDX-License-Identifier: MIT
// The line `campaign resume` prints after each step: how the run ended,
// how long it took, and what it measured, so that a user watching a
// campaign sees the numbers as they come, not only at `analyze`.
#pragma once

#include <string>

#include "data/results_model.h"

namespace gfxstat::drivers {

// "ok 1.02 s: latency_mean 23.2 us", "ok 0.5 s: gem_exec_nop median 2.1 us
// of 100 values", "fail 0.01 s (exit 1: no such file)". The value is the
// run's value of `tracked` (the metric progress follows; "" when the
// workload's metrics come from its output: the first of the record's with
// a unit and a direction, as `gfxstat run` picks it), with the unit its
// declaration in `file` gives; nothing when the run measured none.
std::string step_result_words(const data::RunRecord& run, const data::ResultsFile& file, const std::string& tracked);

}  // namespace gfxstat::drivers
