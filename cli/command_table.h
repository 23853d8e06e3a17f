// SPDX-License-Identifier: MIT
// gfxstat's commands as data: name, one-line summary, entry point. usage()
// prints it, `gfxstat __describe` and `gfxstat __complete commands` read it,
// and the man pages are made from __describe: one table, so the command
// list cannot differ between them.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace gfxstat::cli {

struct CommandEntry {
    const char* name;
    // What the command does, as usage() words it; '\n' where usage() breaks
    // the line (the continuation is indented under the first line's text).
    const char* summary;
    int (*main)(int argc, char** argv);  // argv[0] is the command's name
};

// In the order usage() lists them.
std::span<const CommandEntry> command_table();
const CommandEntry* find_command(std::string_view name);

// The summary on one line: the usage() line breaks turned into spaces.
std::string one_line_summary(const CommandEntry& c);

// The "commands:" part of `gfxstat --help`, from the table.
std::string command_list_text();

}  // namespace gfxstat::cli
