// SPDX-License-Identifier: MIT
// Combines results files (several machines, several campaigns) into one,
// keeping provenance: each run keeps the id of the file it was first
// recorded in as its `origin`, and the new header lists the inputs. The
// same run (or image check) met twice (a file merged with a copy of itself, or with a later
// copy that grew) is kept once; the same run identity with different
// content is refused, never resolved silently.
#pragma once

#include <string>
#include <vector>

#include "data/results_model.h"
#include "data/results_reader.h"

namespace gfxstat::data {

struct MergeInput {
    std::string path;  // for messages and the header's merged_from
    const ResultsFile* file;
    const ReadReport* report;  // its run_lines name lines in messages
};

struct MergeOutcome {
    ResultsFile merged;
    size_t duplicates_dropped = 0;        // runs
    size_t duplicate_checks_dropped = 0;  // image checks
};

// Throws InputError naming both files and lines on a conflict.
// `output_path` is where the merged file goes ("" or "-": the current
// directory): an image check's relative `kept` directory is relative to its
// input's directory, and is made absolute where that is not the output's.
// Two copies of one check that differ only in `kept` are the same check.
MergeOutcome merge_results(const std::vector<MergeInput>& inputs, ResultsHeader header,
                           const std::string& output_path = "");

}  // namespace gfxstat::data
