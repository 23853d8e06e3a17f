// SPDX-License-Identifier: MIT
#include "cli/help_lists.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "drivers/workload_setup.h"
#include "formats/registry.h"

namespace gfxstat::cli {

namespace {

// Two columns, the names padded to the longest so that the summaries line up.
std::string two_columns(const std::string& title, const std::vector<std::pair<std::string_view, std::string_view>>& rows) {
    size_t width = 0;
    for (const auto& [name, summary] : rows) width = std::max(width, name.size());
    std::string out = title + "\n";
    for (const auto& [name, summary] : rows) {
        out += "  ";
        out += name;
        out.append(width - name.size() + 2, ' ');
        out += summary;
        out += "\n";
    }
    return out;
}

}  // namespace

std::string parsers_and_workloads_help(NamesFor where) {
    std::vector<std::pair<std::string_view, std::string_view>> parsers, workloads;
    for (const formats::Format* f : formats::all_formats())
        if (f->parser) parsers.emplace_back(f->name, f->summary);
    for (const BuiltinWorkload& w : builtin_workloads()) workloads.emplace_back(w.name, w.summary);
    const bool plan = where == NamesFor::plan;
    return two_columns(plan ? "Parsers (the plan's \"workload\": {\"parser\": NAME}; the default is lines):"
                            : "Parsers (--parser NAME; the default is lines):",
                       parsers) +
           "\n" +
           two_columns(plan ? "Workloads (the plan's \"workload\": {\"builtin\": NAME}):" : "Workloads (--workload NAME):",
                       workloads);
}

}  // namespace gfxstat::cli
