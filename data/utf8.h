// SPDX-License-Identifier: MIT
// Whether text is UTF-8. Results files hold names as JSON strings, which
// are Unicode: a name that is not UTF-8 would be written with U+FFFD in
// place of its bad bytes, and two names that differ only there would come
// back as one. Importers refuse such names instead (formats/import_support).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gfxstat::data {

// The offset of the first byte that does not begin or continue a valid
// UTF-8 sequence (overlong forms, surrogates and code points past U+10FFFF
// are invalid), or s.size() when all of `s` is UTF-8.
size_t first_invalid_utf8(std::string_view s);

inline bool valid_utf8(std::string_view s) { return first_invalid_utf8(s) == s.size(); }

// Appends code point `cp` (at most U+10FFFF; the caller has checked it) as
// UTF-8: the XML and YAML readers' character references and escapes.
void append_utf8(std::string& out, uint32_t cp);

}  // namespace gfxstat::data
