// SPDX-License-Identifier: MIT
// A small, strict YAML reader for exactly what LAVA writes: the REST API's
// and lavacli's results exports (PyYAML block style: sequences of
// mappings, nested mappings, PyYAML's indentless sequences, plain, single-
// and double-quoted scalars, long scalars folded over lines) and lava-run's
// log (one flow mapping per line, `- {"dt": ..., "lvl": ..., "msg": ...}`).
// gfxstat links no YAML library; this covers those shapes and refuses the
// rest (anchors, aliases, tags, block scalars, complex keys, directives)
// with an error naming file, line and what was expected.
//
// Scalars are kept as text (with whether they were quoted): the caller
// decides what a value means, as LAVA's own exports are all strings.
// Input of any bytes never crashes it: nesting is limited to 64 levels.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gfxstat::formats {

struct YamlMember;

struct YamlNode {
    enum class Kind { scalar, sequence, mapping };
    Kind kind = Kind::scalar;
    std::string text;     // a scalar's value, escapes resolved, lines folded
    bool quoted = false;  // written in quotes (so "null" is text, not null)
    size_t line = 0;      // where it begins, from 1
    std::vector<YamlNode> items;                           // sequence
    std::vector<YamlMember> members;  // mapping, in order; keys unique

    // The member `key` of a mapping; nullptr when absent (or not a mapping).
    const YamlNode* get(std::string_view key) const;
    // A plain empty, "~" or "null" scalar (YAML's null).
    bool is_null() const;
    bool is_scalar() const { return kind == Kind::scalar; }
};

// A mapping's key and value. A struct, not std::pair: a pair holding the
// node would need YamlNode complete inside its own definition, which
// libc++-style checks (clang, the fuzz build) refuse.
struct YamlMember {
    std::string first;
    YamlNode second;
};

// A whole document. Throws data::InputError "FILE:LINE: expected ...".
YamlNode parse_yaml(std::string_view text, const std::string& file);

// One line of a lava-run log: a flow mapping, or "- " and a flow mapping
// (the server's copy of the log). `line` numbers the error.
YamlNode parse_yaml_flow_line(std::string_view text, const std::string& file, size_t line);

// "a mapping", "a sequence", "a scalar": for messages.
const char* yaml_kind_name(YamlNode::Kind k);

}  // namespace gfxstat::formats
