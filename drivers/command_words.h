// SPDX-License-Identifier: MIT
// `gfxstat ab --command VARIANT:'glmark2 -b build'`: a variant's command is
// one string on gfxstat's command line, split into argv the way a shell
// splits words (blanks; '...' and "..." quote; a backslash escapes the
// next character outside single quotes), with no expansion of any kind:
// no variables, globs or substitutions. The command then runs without a
// shell, as the shared COMMAND after -- does; `sh -c '...'` gives a shell.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::drivers {

// Throws std::invalid_argument for an unterminated quote or a trailing
// backslash; an empty or blank string gives no words.
std::vector<std::string> split_command_words(std::string_view text);

}  // namespace gfxstat::drivers
