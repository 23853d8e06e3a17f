// SPDX-License-Identifier: MIT
// The lists some `--help` texts end with (cli/help_lists.h gathers the
// names from their registries): the parsers and the built-in workloads,
// a line each, the summaries lined up.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gfxstat::report {

// A name and its one-line summary.
using NameSummary = std::pair<std::string_view, std::string_view>;

// "Parsers (--parser NAME; the default is lines):\n  lines  one number per
// line ...\n..." then "Workloads (--workload NAME):\n  ..."; with `plan`
// the headings name a campaign plan's workload members instead.
std::string parsers_and_workloads_text(const std::vector<NameSummary>& parsers,
                                       const std::vector<NameSummary>& workloads, bool plan);

}  // namespace gfxstat::report
