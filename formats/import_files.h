// SPDX-License-Identifier: MIT
// `gfxstat import`'s work, without its command line: each file read in
// its format (or as a suite's CSV table) into one results file, and what
// came in counted for the line that says so (report/import_outcome.h).
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "data/results_model.h"
#include "formats/csv_suite.h"
#include "formats/import_support.h"

namespace gfxstat::formats {

// What an import added.
struct ImportedRuns {
    size_t runs = 0;
    // Values of across-run metrics; values of within-run metrics (a run's
    // frames) are no samples and are counted apart, per what they are per.
    size_t samples = 0;
    std::map<std::string, size_t> within;  // per ("frame") -> values
    std::set<std::string> variants;
};

// Why `format` cannot be imported, "" when it can: a format that parses
// only a live run (time: the run's own cost, which no saved output holds),
// or an unknown name, with the nearest known one. The name is escaped.
std::string import_format_problem(const std::string& format);

// Adds the runs of every file in `files` to `results` (which may hold an
// earlier file's runs), read as `format` or, when `roles` names any
// column, as a suite's CSV table. `labels` is empty (each format's own
// label), one label for every file, or one per file. Throws InputError,
// also when no file held a run.
ImportedRuns import_files(const std::string& format, const std::vector<std::string>& files,
                          const std::vector<std::string>& labels, ImportOptions options,
                          const CsvColumnRoles& roles, data::ResultsFile& results);

}  // namespace gfxstat::formats
