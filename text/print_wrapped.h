// SPDX-License-Identifier: MIT
// Printing a paragraph wrapped to a width in display columns (wrap_text in
// text/text_width.h), the way every text report prints its prose lines.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace gfxstat::text {

// `escaped` (already escaped for a terminal) wrapped to `width` columns,
// its first line indented by `first_indent`, the rest by `indent`; each
// line ends in "\n".
void print_wrapped(FILE* out, const std::string& escaped, size_t width, size_t first_indent, size_t indent);

}  // namespace gfxstat::text
