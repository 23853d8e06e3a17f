// SPDX-License-Identifier: MIT
#include "data/store_argument.h"

#include "data/input_error.h"

namespace gfxstat::data {

namespace {

StoreArguments& settings() {
    static StoreArguments s;
    return s;
}

// The parser's messages start with "--filter: "; a selection is no --filter.
std::string without_filter_prefix(const std::string& what) {
    constexpr std::string_view prefix = "--filter: ";
    return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
}

}  // namespace

bool is_store_argument(std::string_view arg) { return arg.substr(0, kStoreArgumentPrefix.size()) == kStoreArgumentPrefix; }

void set_store_arguments(StoreArguments arguments) { settings() = std::move(arguments); }

const StoreArguments& store_arguments() { return settings(); }

SelectedRuns read_store_argument(std::string_view arg) {
    const std::string name(arg);
    const std::string_view text = arg.substr(kStoreArgumentPrefix.size());
    StoreSelection selection;
    try {
        selection = parse_store_selection(text);
    } catch (const FilterSyntaxError& e) {
        throw InputError(name + ": " + without_filter_prefix(e.what()));
    }
    try {
        const auto store = open_store(parse_store_url(store_url_from(settings().store_option)), StoreOpen::existing);
        return select_runs(*store, selection, settings().order, settings().metrics);
    } catch (const InputError& e) {
        throw InputError(name + ": " + e.what());
    }
}

}  // namespace gfxstat::data
