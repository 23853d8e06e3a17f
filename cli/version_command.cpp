// SPDX-License-Identifier: MIT
#include "cli/version_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command_line.h"
#include "report/version_json.h"
#include "data/gfxstat_version.h"

namespace gfxstat::cli {

int version_main(int argc, char** argv) {
    CLI::App app{"gfxstat's version: from git describe in a checkout, else the release.", "gfxstat version"};
    bool json = false;
    app.add_flag("--json", json, "JSON for machines: {\"gfxstat_version\": \"...\"}");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    if (json) {
        std::printf("%s\n", report::version_json().c_str());
    } else {
        std::printf("gfxstat %s\n", data::gfxstat_version());
    }
    return 0;
}

}  // namespace gfxstat::cli
