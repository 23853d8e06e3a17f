// SPDX-License-Identifier: MIT
#include "text/xml_escape.h"

#include <cstdint>

#include "text/text_escape.h"

namespace gfxstat::text {

namespace {

void hex(std::string& out, const char* prefix, unsigned v) {
    static const char kDigits[] = "0123456789abcdef";
    out += prefix;
    out += kDigits[(v >> 4) & 0xf];
    out += kDigits[v & 0xf];
}

}  // namespace

std::string xml_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<uint8_t>(text[i]);
        const size_t len = utf8_length(text.substr(i));
        if (len == 0) {
            hex(out, "\\x", c);
            ++i;
            continue;
        }
        if (len == 1) {
            switch (c) {
                case '&': out += "&amp;"; break;
                case '<': out += "&lt;"; break;
                case '>': out += "&gt;"; break;
                case '"': out += "&quot;"; break;
                case '\'': out += "&apos;"; break;
                default:
                    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) hex(out, "\\x", c);
                    else out += static_cast<char>(c);
            }
        } else if (len == 2 && c == 0xc2 && static_cast<uint8_t>(text[i + 1]) <= 0x9f) {
            hex(out, "\\u00", static_cast<uint8_t>(text[i + 1]));  // a C1 control
        } else if (len == 3 && c == 0xef && static_cast<uint8_t>(text[i + 1]) == 0xbf &&
                   static_cast<uint8_t>(text[i + 2]) >= 0xbe) {
            out += static_cast<uint8_t>(text[i + 2]) == 0xbe ? "\\ufffe" : "\\uffff";  // not characters in XML
        } else {
            out.append(text.substr(i, len));
        }
        i += len;
    }
    return out;
}

std::string xml_text(std::string_view raw) { return xml_escape(escape_text(raw)); }

std::string xml_message(std::string_view raw) {
    std::string text;
    for (size_t start = 0; start <= raw.size();) {
        const size_t nl = raw.find('\n', start);
        text += escape_message(raw.substr(start, nl == std::string_view::npos ? nl : nl - start));
        if (nl == std::string_view::npos) break;
        text += '\n';
        start = nl + 1;
    }
    return xml_escape(text);
}

}  // namespace gfxstat::text
