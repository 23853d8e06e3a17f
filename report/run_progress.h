// SPDX-License-Identifier: MIT
// What gfxstat run says on stderr while and after it runs: one progress
// line per run (rewritten in place on a terminal), and the end-of-run
// words: what was recorded where, and whether --target-ci was reached.
#pragma once

#include <string>
#include <vector>

#include "drivers/run_loop.h"

namespace gfxstat::report {

// "run 3/10 ok 1.02 s  latency_mean: median 23.1 +- 0.4 us  ETA 0:12",
// not escaped (exit reasons, metric names and units come from the workload).
std::string run_progress_line(const drivers::RunProgress& p);

// The lines after the runs, escaped, each to follow "gfxstat run: ".
std::vector<std::string> run_end_lines(const drivers::RunPlan& plan, const drivers::RunReport& report);

}  // namespace gfxstat::report
