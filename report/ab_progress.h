// SPDX-License-Identifier: MIT
// What gfxstat ab says on stderr while and after it runs: the plan in one
// line, each run (rewritten in place on a terminal, only failures
// otherwise), each block's look at every comparison, what was recorded,
// and how the stop rule ended. The verdict itself is compare's report.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "drivers/ab_runner.h"

namespace gfxstat::report {

// "3 variants, baseline 'a'; order random (--seed 7 repeats it); stops when
// settled (...), at most 50 blocks", escaped.
std::string ab_plan_line(const drivers::AbPlan& plan, const std::vector<std::string>& variants,
                         const std::string& order_name, double confidence, double threshold_pct);

// On a terminal: "block 3 b ok 1.02 s", not escaped. Without one: the
// same for a run that did not end ok, escaped ("block 3 b: fail (exit 1)"),
// nullopt for one that did.
std::string ab_run_line(const drivers::AbRunProgress& p);
std::optional<std::string> ab_run_failure_line(const drivers::AbRunProgress& p);

// "block 7/50 (lp2 lp1): lp2 vs lp1 fps +3.2% [-0.5%, +7.1%]: the interval
// must leave 0 or fit inside +-1%", one line per comparison, not escaped.
// With fixed blocks there is no stop rule: the running estimate only.
// `first_bounded`: the first block with an interval (drivers::first_bounded_block).
std::vector<std::string> ab_block_lines(const drivers::AbBlockProgress& p, const std::vector<std::string>& labels,
                                        size_t first_bounded, double threshold_pct, bool fixed);

// "4 blocks, 8 measured runs, 1 failed recorded in FILE", escaped.
std::string ab_recorded_line(const drivers::AbReport& r, const std::string& output);

// Why variant `v` cannot be compared: fewer than 2 usable runs (not escaped).
std::string ab_too_few_runs(const drivers::AbReport& r, const std::vector<std::string>& variants, size_t v);

// How the blocks ended: the blocks asked for, settled, or inconclusive with
// how many more blocks would likely settle each open comparison; escaped.
std::string ab_end_line(const drivers::AbPlan& plan, const drivers::AbReport& r,
                        const std::vector<std::string>& variants, size_t max_runs);

}  // namespace gfxstat::report
