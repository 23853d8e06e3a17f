#include "cli/command_line.h"

#include <CLI/CLI.hpp>

namespace gfxstat::cli {

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    return std::nullopt;
}

}  // namespace gfxstat::cli
