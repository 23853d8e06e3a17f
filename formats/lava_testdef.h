// SPDX-License-Identifier: MIT
// LAVA's YAML files, written by `gfxstat lava testdef` (cli/lava_command.cpp):
// a test definition ("Lava-Test Test Definition 1.0": metadata, then
// run: steps:) that runs a gfxstat command in a LAVA test shell, and a job
// around it whose test action a user pastes into a job of their own.
// Written by hand, as gfxstat links no YAML library: every scalar that
// holds text is double-quoted with YAML's escapes, so no value can be
// read as anything else (a number, a null, a key, a comment). The tests
// validate both with the schemas of Debian's lava-common.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::formats {

// `s` as a YAML double-quoted scalar: '"' and '\' escaped, and every code
// point that YAML (and PyYAML's reader) takes as unprintable written as an
// escape. Throws std::invalid_argument for text that is not UTF-8 (a YAML
// document is Unicode: a stray byte has no spelling).
std::string yaml_quoted(std::string_view s);

// `word` for a POSIX shell: as it is when it holds only characters no
// shell treats specially, else in single quotes ("it's" -> 'it'\''s').
std::string shell_quoted(std::string_view word);

// True when `name` is a test definition name LAVA accepts: [-_a-zA-Z0-9.]+.
bool lava_definition_name(std::string_view name);

struct LavaTestdef {
    std::string name;         // lava_definition_name
    std::string description;
    std::vector<std::string> steps;  // shell lines
};

struct LavaJob {
    std::string job_name;
    std::string device_type;
    int test_minutes = 60;     // the test action's timeout
    std::string repository;    // "": the definition inline
    std::string path;          // with a repository: the definition's path in it
};

// The test definition, a whole YAML document.
std::string render_lava_testdef(const LavaTestdef& t);
// A job whose one action is the test (inline, or from a git repository).
std::string render_lava_job(const LavaTestdef& t, const LavaJob& j);

}  // namespace gfxstat::formats
