// SPDX-License-Identifier: MIT
// `store:SELECTION` where a command takes a results file (docs/store.md):
// compare, ab's baseline, history, bisect's references, report, summary,
// show and ministat read the selected stored runs as one results file,
// named `store:SELECTION` in messages. Which store, and how last:N orders
// builds, is the command line's choice (--store, --order git), set once
// before anything is read.
#pragma once

#include <string>
#include <string_view>

#include "data/store_select.h"

namespace gfxstat::data {

inline constexpr std::string_view kStoreArgumentPrefix = "store:";

// Whether `arg` is a store selection: it starts with "store:" (a file of
// that name is `./store:...`).
bool is_store_argument(std::string_view arg);

struct StoreArguments {
    std::string store_option;  // --store as given ("": GFXSTAT_STORE, else the default store)
    BuildOrder order;          // last:N's order (empty: first run's start)
    // The only metrics the command reads (history --metric), read alone
    // from the store (select_runs' projection); empty: all.
    std::vector<std::string> metrics;
};
// What store: arguments read from, for the rest of the command.
void set_store_arguments(StoreArguments arguments);
const StoreArguments& store_arguments();

// The runs `arg` ("store:SELECTION") selects, from the store of
// set_store_arguments. Throws InputError whose message starts with the
// argument (a bad selection, a store that cannot be opened, no run).
SelectedRuns read_store_argument(std::string_view arg);

}  // namespace gfxstat::data
