// SPDX-License-Identifier: MIT
// `--lava auto|on|off`, the option of run, ab and campaign resume that
// turns the LAVA signals of report/ci/lava_report.h on or off.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace gfxstat::cli {

// Registers --lava MODE on `app`, writing into `mode` ("auto" unless given).
void add_lava_option(CLI::App& app, std::string& mode);

}  // namespace gfxstat::cli
