// SPDX-License-Identifier: MIT
// gfxstat __describe COMMAND [SUB]: every option of a command as JSON, the
// one source the man pages (tools/make_manpages.py) and the shell
// completion (cli/complete_command.h) are made from, so that neither can
// drift from what the command really parses.
//
// How: a process-wide describe request. While it is set, the command's own
// *_main runs as usual up to parse_command_line, which describes the
// CLI::App it was given instead of parsing (cli/command_line.cpp). The
// options are read from the very App that parses them. Commands not parsed
// by CLI11 (ministat's getopt, the campaign and tune dispatchers, campaign
// analyze) give a CommandDescription of their own, from a table kept next
// to what it describes.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "report/describe_json.h"

namespace CLI {
class App;
}

namespace gfxstat::cli {

// The model (report/describe_json.h) under the names the commands use.
using report::CommandDescription;
using report::OptionDescription;
using report::SubcommandSummary;

// Whether a describe request is pending (parse_command_line's test).
bool describe_requested();

// Records the description of `app` for the pending request; returns the
// exit status the command should end with (0).
int describe_app(CLI::App& app);
// The same for a command that describes itself.
int describe_fixed(const CommandDescription& description);

// Runs the command named by `words` ({"compare"}, {"campaign", "init"})
// under a describe request. Nothing when the command gave no description
// (it then said why on stderr).
std::optional<CommandDescription> describe_command(const std::vector<std::string>& words);
// Runs `command` under a describe request: what it described, if anything.
std::optional<CommandDescription> describe_run(const std::function<void()>& command);

// gfxstat __describe [COMMAND [SUB]]: prints the JSON; without a command,
// the command table. argv[0] is "__describe".
int describe_main(int argc, char** argv);

}  // namespace gfxstat::cli
