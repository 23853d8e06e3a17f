// SPDX-License-Identifier: MIT
// gfxstat __describe's JSON: every option of a command, the one source the
// man pages (tools/make_manpages.py) and the shell completion are made
// from. The model is filled by cli/command_describe.h from the CLI::App
// that parses the command.
#pragma once

#include <string>
#include <vector>

namespace gfxstat::report {

struct OptionDescription {
    std::vector<std::string> names;  // "-C", "--column"; a positional: its name ("files")
    bool positional = false;
    std::string type;          // CLI11's type text ("INT", "TEXT:{a,b}"); "" for a flag
    int expected_min = 0;      // values per use: 0 for a flag
    int expected_max = 0;      // -1: any number
    bool required = false;
    std::string default_text;  // only a default the command declares; "" otherwise
    std::string group = "Options";
    std::string description;
    std::vector<std::string> choices;  // the only values accepted, when there is such a list
};

struct SubcommandSummary {
    std::string name;
    std::string summary;
};

struct CommandDescription {
    std::string name;  // "gfxstat compare", "gfxstat campaign init"
    std::string description;
    std::string footer;
    std::vector<OptionDescription> options;      // in definition order, hidden ones left out
    std::vector<SubcommandSummary> subcommands;  // campaign, tune: SUB names
    // Commands whose options this one takes too (campaign analyze passes
    // its options on to compare): words for describe_command.
    std::vector<std::vector<std::string>> options_from;
};

// A command's description, indented by 2, without a final newline.
std::string description_json(const CommandDescription& description);

// The command table: {"name": "gfxstat", "version": ..., "commands":
// [{"name", "summary"}...]}, indented by 2, without a final newline.
std::string command_list_json(const std::vector<SubcommandSummary>& commands);

}  // namespace gfxstat::report
