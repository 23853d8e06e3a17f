// SPDX-License-Identifier: MIT
#include "cli/version_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/command_line.h"
#include "report/json_version.h"
#include "data/gfxstat_version.h"

namespace gfxstat::cli {

int version_main(int argc, char** argv) {
    CLI::App app{"gfxstat's version: from git describe in a checkout, else the release.", "gfxstat version"};
    bool json = false;
    app.add_flag("--json", json, "JSON for machines: {\"gfxstat_version\": \"...\"}");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    if (json) {
        nlohmann::ordered_json doc = nlohmann::ordered_json::object();
        add_gfxstat_version(doc);
        std::printf("%s\n", doc.dump(2).c_str());
    } else {
        std::printf("gfxstat %s\n", data::gfxstat_version());
    }
    return 0;
}

}  // namespace gfxstat::cli
