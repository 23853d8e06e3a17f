// SPDX-License-Identifier: MIT
#include "cli/lava_option.h"

#include <CLI/CLI.hpp>

namespace gfxstat::cli {

void add_lava_option(CLI::App& app, std::string& mode) {
    app.add_option("--lava", mode,
                   "LAVA signals (test sets and cases, the results file in the log): auto (default: inside a LAVA "
                   "test shell), on, off")
        ->check(CLI::IsMember({"auto", "on", "off"}));
}

}  // namespace gfxstat::cli
