// SPDX-License-Identifier: MIT
// gfxstat ab --baseline SELECTION (docs/ab.md, "A stored baseline"): the
// baseline is stored runs (docs/store.md), only the one candidate runs, a
// fixed number of times, and the report is compare of the stored runs
// against ab's results file.
#pragma once

#include <string>
#include <vector>

#include "cli/compare_command.h"

namespace CLI {
class App;
}  // namespace CLI

namespace gfxstat::cli {

struct StoredBaseline {
    std::string selection;  // --baseline, without a leading "store:"
    std::string store;      // --store
    bool given() const { return !selection.empty(); }
};

// --baseline SELECTION and --store URL.
void add_stored_baseline_options(CLI::App& app, StoredBaseline& b);

// Once parsed: refuses what does not go with a stored baseline, reads it
// (a selection that keeps nothing stops ab before it runs), sets `runs`
// when not given and says in one line why the runs are fixed. "" when
// ab goes on, else why not. Without --baseline: refuses --store, and
// checks the --variant labels (two or more).
std::string start_stored_baseline(StoredBaseline& b, const CLI::App& app, const std::vector<std::string>& variants,
                                  size_t& runs, const char* prog);

// The inputs of the final comparison, with its choices and the report's
// pointer to compare --full set in `report`: the stored runs against the
// file's candidate, file against file; else the file with its first
// variant the baseline. (The pointer has no --store: a connection string
// may hold a password.)
std::vector<std::string> stored_baseline_inputs(const StoredBaseline& b, const std::string& output,
                                                const std::vector<std::string>& variants, CompareSettings& report);

}  // namespace gfxstat::cli
