// SPDX-License-Identifier: MIT
// The words `gfxstat __complete` offers a shell (cli/complete_command.h),
// read from the commands' descriptions (report/describe_json.h) as
// __describe renders them in JSON: option names, the values an option
// takes, and what kind of value it is where a description cannot say
// (CLI11 only knows TEXT: a file, a directory, a variant, a metric...).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "report/describe_json.h"

namespace gfxstat::report {

// The command words at the start of a completion's arguments ({COMMAND}
// or {COMMAND, SUB}) and their descriptions: the command's own first, then
// those whose options it takes too. `used` is how many arguments were
// command words.
struct DescribedCommand {
    std::vector<std::string> words;
    std::vector<CommandDescription> descriptions;
    size_t used = 0;
};

// Every option name of the command, positionals left out.
std::vector<std::string> completion_options(const DescribedCommand& d);

// The option called `name`, or with "@" the command's positional
// argument; nullptr when there is none.
const OptionDescription* find_option(const DescribedCommand& d, const std::string& name);

// The values `o` takes when they are a list: its choices, or the words it
// takes besides a number (tune apply --gpu-freq rp0).
std::vector<std::string> completion_values(const DescribedCommand& d, const OptionDescription& o);

// One word of: flag choice file dir variant metric command text.
std::string completion_kind(const DescribedCommand& d, const OptionDescription& o);

// Each word once, one a line, leaving out a word the shell cannot take as
// one completion (empty, or holding a control character).
void print_completion_words(const std::vector<std::string>& words, FILE* out);

}  // namespace gfxstat::report
