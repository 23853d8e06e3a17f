// SPDX-License-Identifier: MIT
#include "data/input_error.h"

#include <cstdio>

namespace gfxstat::data {

InputError input_error(const std::string& file, size_t line, const std::string& what) {
    std::string msg = file;
    if (line > 0) msg += ":" + std::to_string(line);
    return InputError(msg + ": " + what);
}

std::string quote_token(std::string_view token) {
    constexpr size_t kMax = 40;
    std::string out = "\"";
    for (size_t i = 0; i < token.size() && i < kMax; ++i) {
        const unsigned char c = static_cast<unsigned char>(token[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    if (token.size() > kMax) out += "...";
    return out + "\"";
}

}  // namespace gfxstat::data
