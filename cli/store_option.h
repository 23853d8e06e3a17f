// SPDX-License-Identifier: MIT
// --store URL on every command that reads results files (compare, ab,
// history, bisect, report, summary, show, ministat, and gfxstat store
// itself): one option, one help text. Where such a command takes a results
// file it takes `store:SELECTION` too (data/store_argument.h,
// docs/store.md).
#pragma once

#include <string>
#include <vector>

#include "data/results_model.h"
#include "data/results_reader.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace gfxstat::cli {

extern const char* const kStoreOptionHelp;

// Adds --store URL to `app`, into `store`.
CLI::Option* add_store_option(CLI::App& app, std::string& store);

// Before anything is read: store: arguments read from `store` (--store;
// "": GFXSTAT_STORE, else the default store), and last:N orders builds in
// git's commit order of `git_dir`'s HEAD when it is given (--order git
// --git DIR), else by their first run's start.
// `metrics`: the only metrics the command reads (history --metric), read
// alone from the store.
void use_store_option(const std::string& store, const std::string& git_dir = "",
                      const std::vector<std::string>& metrics = {});

// A results file argument read whole: a path as formats::
// read_results_path_hinted reads it, or store:SELECTION (what reading the
// store noted goes to `notes`).
data::ResultsFile read_results_argument(const std::string& path, const std::string& name, data::ReadReport* report,
                                        std::vector<std::string>& notes);

}  // namespace gfxstat::cli
