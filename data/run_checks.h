// SPDX-License-Identifier: MIT
// The rules a run record obeys in a results file, apart from keeping it:
// ResultsFile::add_run applies them to every run it keeps, and a reader
// that keeps only run identities (results_reader's hook) to every run it
// reads, so both refuse the same runs with the same words.
#pragma once

#include <string>

#include "data/results_model.h"

namespace gfxstat::data {

// Why `run` cannot join `file`, its identity aside: an empty variant, an
// index past kMaxRunIndex, a metric, environment or design not recorded
// before, a metric twice, a block without a design. "" when none.
std::string run_conflict(const ResultsFile& file, const RunRecord& run);

// Why a record of `variant` naming `environment` and `design` ("" for
// none) cannot join `file`: either is used before it is recorded, or the
// design does not list the variant. Runs and image checks share it. ""
// when none.
std::string reference_conflict(const ResultsFile& file, const std::string& variant, const std::string& environment,
                               const std::string& design);

// "run 3 of variant 'a'[ from file ORIGIN] is recorded twice".
std::string run_recorded_twice(const RunRecord& run);

}  // namespace gfxstat::data
