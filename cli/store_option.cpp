// SPDX-License-Identifier: MIT
#include "cli/store_option.h"

#include <CLI/CLI.hpp>

#include "data/store_argument.h"
#include "findings/git_order.h"
#include "formats/import_hint.h"

namespace gfxstat::cli {

const char* const kStoreOptionHelp =
    "the results store that store:SELECTION arguments read: sqlite:PATH (default: GFXSTAT_STORE, else "
    "sqlite:$XDG_DATA_HOME/gfxstat/results.sqlite)";

CLI::Option* add_store_option(CLI::App& app, std::string& store) {
    return app.add_option("--store", store, kStoreOptionHelp)->type_name("URL");
}

void use_store_option(const std::string& store, const std::string& git_dir, const std::vector<std::string>& metrics) {
    data::StoreArguments a;
    a.store_option = store;
    a.metrics = metrics;
    if (!git_dir.empty()) a.order = findings::git_build_order(git_dir);
    data::set_store_arguments(std::move(a));
}

data::ResultsFile read_results_argument(const std::string& path, const std::string& name, data::ReadReport* report,
                                        std::vector<std::string>& notes) {
    if (!data::is_store_argument(path)) return formats::read_results_path_hinted(path, name, report);
    data::SelectedRuns selected = data::read_store_argument(path);
    notes.insert(notes.end(), selected.notes.begin(), selected.notes.end());
    return data::results_file(std::move(selected), name, report);
}

}  // namespace gfxstat::cli
