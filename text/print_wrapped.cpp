// SPDX-License-Identifier: MIT
#include "text/print_wrapped.h"

#include "text/text_width.h"

namespace gfxstat::text {

void print_wrapped(FILE* out, const std::string& escaped, size_t width, size_t first_indent, size_t indent) {
    for (const std::string& line : wrap_text(escaped, width, first_indent, indent))
        std::fprintf(out, "%s\n", line.c_str());
}

}  // namespace gfxstat::text
