// SPDX-License-Identifier: MIT
// What the JSON formats (hyperfine, gbench) share besides the parse
// (formats/json_document.h): type words for messages, and numbers turned
// back into exact decimals. Included only by those formats' .cpp files
// (nlohmann_json is a heavy header). `path` is the file read, or what a
// run's output is called in messages ("stdout").
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "data/number_token.h"

namespace gfxstat::formats {

// "a number", "an object", ... for "expected X, found Y" messages.
const char* json_kind(const nlohmann::json& v);

// Throws InputError "PATH: WHERE: expected WHAT, found <kind of found>".
[[noreturn]] void json_expected(const std::string& path, const std::string& where,
                                const std::string& what, const nlohmann::json& found);

// The array a tool's JSON file holds under `key` at its top level. Throws
// InputError when doc is not an object ("expected an object (TOOL)"), lacks
// key ("KEY: missing (HINT)") or holds no array there.
const nlohmann::json& json_top_array(const std::string& path, const nlohmann::json& doc, const std::string& tool,
                                     const std::string& key, const std::string& hint);

// nlohmann keeps a JSON number as a double (or an integer), not as the text
// written. The text is recovered with std::to_chars, which writes the
// shortest decimal that reads back as the same double. hyperfine (serde_json)
// writes exactly that text; Google Benchmark writes 17 significant digits
// ("1.2345000000000000e+03"), a longer spelling of the same double, so the
// shorter text is the one a person would have written and nothing the file
// held is lost. Integers are exact as they are.
std::string json_number_text(const std::string& path, const std::string& where,
                             const nlohmann::json& v);
data::NumberToken json_number(const std::string& path, const std::string& where, const nlohmann::json& v);

}  // namespace gfxstat::formats
