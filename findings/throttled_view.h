// SPDX-License-Identifier: MIT
// What compare does with throttled runs (data/throttled_runs.h): counts
// them per side, and sets each verdict on all runs beside the same
// comparison made on the unthrottled runs alone. The comparison itself is
// compare's own (run twice), not a copy of it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "findings/compare_findings.h"
#include "data/results_model.h"

namespace gfxstat::cli {

// The sides of `first` (a metric of the report built from `files`): with
// one file its labels are variants of it; with several, side i is file
// i's only variant. nullopt when no measured run of any side is throttled.
std::optional<ThrottleReport> throttle_sides(const std::vector<data::ResultsFile>& files,
                                             const MetricReport& first);

// Every comparison of `with` (all runs) beside the same one in `without`
// (the unthrottled runs), matched by metric and candidate.
// With several files, one variant each: throws data::InputError naming the
// file whose every run is throttled, when `kept` (the files without their
// throttled runs) has lost a variant that `files` had; `names` are the
// files' names as the user gave them.
void check_runs_left(const std::vector<std::string>& names, const std::vector<data::ResultsFile>& files,
                     const std::vector<data::ResultsFile>& kept);

std::vector<VerdictWithout> verdicts_without(const CompareReport& with, const CompareReport& without);

}  // namespace gfxstat::cli
