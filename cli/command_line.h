// The one way every CLI11-parsed subcommand ends on bad options: CLI11
// prints the message (or the --help text), and gfxstat exits 2 for a usage
// error, 0 after --help.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace gfxstat::cli {

// Parses argv into `app`. Returns the exit status to end with, or nothing
// when the command should go on.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

// An option check (CLI::Option::check) for a number in [lo, hi]: unlike
// CLI::Range it refuses "nan", which compares false with both bounds.
std::function<std::string(const std::string&)> number_in(double lo, double hi);

// For commands that run workloads (run, campaign resume): `handler` gets
// SIGINT, SIGTERM and SIGHUP (it forwards them to the workload), and
// SIGPIPE is ignored, so that a closed pipe on stderr (... 2>&1 | head)
// cannot kill gfxstat between a run and its record; writes just fail.
void install_stop_handler(void (*handler)(int));

}  // namespace gfxstat::cli
