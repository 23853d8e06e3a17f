// SPDX-License-Identifier: MIT
// The lists that `gfxstat run --help` and `gfxstat ab --help` end with
// (and `gfxstat campaign init --help`, for a plan's workload): the parsers
// (--parser NAME) and the built-in workloads (--workload NAME), one line
// each, built from their registries (formats/registry.h,
// drivers/workload_setup.h) when help is asked for, so that a format or a
// workload added there is listed at once (the text: report/help_lists.h).
#pragma once

#include <string>

namespace gfxstat::cli {

// Where the names go: a command's options (run, ab), or a campaign plan's
// workload members (campaign init).
enum class NamesFor { options, plan };

// "Parsers (--parser NAME; the default is lines):\n  lines  one number per
// line ...\n..." then "Workloads (--workload NAME):\n  ...", for
// CLI::App::footer.
std::string parsers_and_workloads_help(NamesFor where = NamesFor::options);

}  // namespace gfxstat::cli
