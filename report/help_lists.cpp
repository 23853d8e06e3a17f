// SPDX-License-Identifier: MIT
#include "report/help_lists.h"

#include <algorithm>

namespace gfxstat::report {

namespace {

// Two columns, the names padded to the longest so that the summaries line up.
std::string two_columns(const std::string& title, const std::vector<NameSummary>& rows) {
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

std::string parsers_and_workloads_text(const std::vector<NameSummary>& parsers,
                                       const std::vector<NameSummary>& workloads, bool plan) {
    return two_columns(plan ? "Parsers (the plan's \"workload\": {\"parser\": NAME}; the default is lines):"
                            : "Parsers (--parser NAME; the default is lines):",
                       parsers) +
           "\n" +
           two_columns(plan ? "Workloads (the plan's \"workload\": {\"builtin\": NAME}):" : "Workloads (--workload NAME):",
                       workloads);
}

}  // namespace gfxstat::report
