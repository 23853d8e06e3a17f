// SPDX-License-Identifier: MIT
#include "cli/help_lists.h"

#include <vector>

#include "drivers/workload_setup.h"
#include "formats/registry.h"
#include "report/help_lists.h"

namespace gfxstat::cli {

std::string parsers_and_workloads_help(NamesFor where) {
    std::vector<report::NameSummary> parsers, workloads;
    for (const formats::Format* f : formats::all_formats())
        if (f->parser) parsers.emplace_back(f->name, f->summary);
    for (const BuiltinWorkload& w : builtin_workloads()) workloads.emplace_back(w.name, w.summary);
    return report::parsers_and_workloads_text(parsers, workloads, where == NamesFor::plan);
}

}  // namespace gfxstat::cli
