// SPDX-License-Identifier: MIT
// ministat's options, as FreeBSD's and Debian's ministat take them (getopt),
// with gfxstat's --metric, --variant and --filter for results files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/command_describe.h"
#include "cli/sample_inputs.h"
#include "data/bench_filter.h"
#include "report/ministat_text.h"

namespace gfxstat::cli {

// ministat draws at most this many data sets (its plot's symbols).
constexpr int kMinistatMaxSets = 7;

struct MinistatArguments {
    data::ColumnFormat format;
    ResultsChoice choice;
    std::vector<std::string> metrics;  // --metric, in the order given
    std::optional<data::BenchFilter> filter;
    report::MinistatLayout layout;
    std::vector<SampleInput> inputs;  // standard input when no file is named
};

// Fills `args` from argv; an exit status when the command ends here
// (--help: 0; a bad filter or file argument: 2). A usage error exits 2.
std::optional<int> parse_ministat_arguments(int argc, char** argv, const char* prog, MinistatArguments& args);

// A usage error: ministat's whine, then the usage, exit 2. As `ministat`
// (the symlink) the whine is ministat's own line; as `gfxstat ministat` it
// starts with the command's name, as every gfxstat error does.
[[noreturn]] void ministat_usage(const char* prog, const char* whine);

// ministat's options for gfxstat __describe (man page, completion).
CommandDescription ministat_description();

}  // namespace gfxstat::cli
