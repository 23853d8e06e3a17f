// SPDX-License-Identifier: MIT
// Store selections (docs/store.md, "Selections"): the filter language of
// docs/filter-language.md over stored runs, plus `last:N` (the runs of the
// last N builds among those the rest keeps). The database is asked only
// for what the selection's top-level AND terms allow (a StoreQuery: its
// variants, machines and commits); the filter then decides run by run, so
// the query changes how much is read, never what is selected.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/bench_filter.h"
#include "data/results_reader.h"
#include "data/store.h"

namespace gfxstat::data {

struct StoreSelection {
    std::string text;  // as given, for messages
    BenchFilter filter;  // without its last:N
    StoreQuery query;    // what the database is asked for
    // The query decides alone: the filter's terms are all exact variant
    // and machine terms the query holds (no run need be parsed to judge it).
    bool exact = false;
    // Two exact terms on one key with no value in common: nothing matches.
    bool contradictory = false;
    size_t last = 0;  // last:N; 0 when not given
};

// Reads a selection. Throws FilterSyntaxError (bad syntax; last:N not at
// the top level, given twice, or N not a whole number from 1 up).
StoreSelection parse_store_selection(std::string_view text);

// last:N's build order: the builds of the selected runs (as Store::builds
// gives them: by first start, then name) in, the builds to count from,
// oldest first, out; a build it leaves out gets a note in `notes`. Empty:
// the order they come in.
using BuildOrder =
    std::function<std::vector<std::string>(const std::vector<StoredBuild>& builds, std::vector<std::string>& notes)>;

struct SelectedRuns {
    // One results file: its text, or (runs of several stored files) the
    // merged file itself, which a reader of a whole file takes as it is
    // rather than serialized and parsed again (results_text, results_file).
    std::string text;
    std::optional<ResultsFile> merged;
    size_t runs = 0;
    std::vector<std::string> notes;  // e.g. builds last:N left out
};
// The selection as the text of a results file.
std::string results_text(const SelectedRuns& s);
// The selection as a results file (`name` for messages when it is parsed).
ResultsFile results_file(SelectedRuns&& s, const std::string& name, ReadReport* report = nullptr);

// The runs `selection` keeps, as select_stored_runs (data/store.h) gives
// them. `metrics`, when given, is a projection for a reader that reads
// only those metrics (history --metric): a stored file that declares them
// all comes back with only their declarations and values (the runs are
// the same runs); other files come back whole. Throws InputError (no run
// selected), FilterSyntaxError.
SelectedRuns select_runs(Store& store, const StoreSelection& selection, const BuildOrder& order = {},
                         const std::vector<std::string>& metrics = {});

// The store's build key of a run, as a push records it: the environment's
// `commit` tag, else its `build` tag, else the variant.
std::string store_build_of(const ResultsFile& file, const RunRecord& run);

}  // namespace gfxstat::data
