// SPDX-License-Identifier: MIT
#include "text/text_escape.h"

#include <cstdint>

namespace gfxstat::text {

size_t utf8_length(std::string_view s) {
    const auto byte = [&](size_t i) { return static_cast<uint8_t>(s[i]); };
    const auto cont = [&](size_t i, uint8_t lo = 0x80, uint8_t hi = 0xbf) {
        return i < s.size() && byte(i) >= lo && byte(i) <= hi;
    };
    const uint8_t b = byte(0);
    if (b < 0x80) return 1;
    if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
    if (b >= 0xe0 && b <= 0xef) {
        const uint8_t lo = b == 0xe0 ? 0xa0 : 0x80, hi = b == 0xed ? 0x9f : 0xbf;
        return cont(1, lo, hi) && cont(2) ? 3 : 0;
    }
    if (b >= 0xf0 && b <= 0xf4) {
        const uint8_t lo = b == 0xf0 ? 0x90 : 0x80, hi = b == 0xf4 ? 0x8f : 0xbf;
        return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
    }
    return 0;
}

namespace {

// Format characters that print as nothing yet change what is around them
// (a 3-byte UTF-8 sequence): zero-width spaces and joiners, the marks and
// overrides of bidirectional text (which can show a name reversed, or make
// two names look alike), the line and paragraph separators (which some
// terminals break lines on) and the byte-order mark.
bool invisible_format(std::string_view seq) {
    const unsigned cp = ((static_cast<uint8_t>(seq[0]) & 0x0fu) << 12) | ((static_cast<uint8_t>(seq[1]) & 0x3fu) << 6) |
                        (static_cast<uint8_t>(seq[2]) & 0x3fu);
    return (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2069) ||
           cp == 0xfeff;
}

void hex_escape(std::string& out, const char* prefix, unsigned v) {
    static const char kDigits[] = "0123456789abcdef";
    out += prefix;
    if (prefix[0] != '\0' && prefix[1] == 'u') out += "00";
    out += kDigits[(v >> 4) & 0xf];
    out += kDigits[v & 0xf];
}

enum class Form { text, message, markdown };

void escape_into(std::string& out, std::string_view s, Form form) {
    out.reserve(out.size() + s.size());
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<uint8_t>(s[i]);
        const size_t len = utf8_length(s.substr(i));
        if (len == 0) {  // not UTF-8: the byte itself, visibly
            hex_escape(out, "\\x", c);
            ++i;
            continue;
        }
        if (len == 2 && c == 0xc2 && static_cast<uint8_t>(s[i + 1]) <= 0x9f) {  // C1 control
            hex_escape(out, "\\u", static_cast<uint8_t>(s[i + 1]));
        } else if (len == 3 && invisible_format(s.substr(i, 3))) {
            const unsigned cp = ((c & 0x0fu) << 12) | ((static_cast<uint8_t>(s[i + 1]) & 0x3fu) << 6) |
                                (static_cast<uint8_t>(s[i + 2]) & 0x3fu);
            out += "\\u";
            hex_escape(out, "", cp >> 8);
            hex_escape(out, "", cp & 0xff);
        } else if (len > 1) {
            out.append(s.substr(i, len));
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c < 0x20 || c == 0x7f) {
            hex_escape(out, "\\x", c);
        } else if (c == '\\' && form != Form::message) {
            out += "\\\\";
        } else if (form == Form::markdown && (c == '|' || c == '*' || c == '[' || c == ']' || c == '<' ||
                                              c == '>' || c == '`' || c == '&')) {
            // Markdown's own characters, backslash-escaped (CommonMark):
            // a name cannot end a cell, emphasise, link, open a code span,
            // or bring HTML or an entity into a merge-request comment.
            out += '\\';
            out += static_cast<char>(c);
        } else {
            out += static_cast<char>(c);
        }
        i += len;
    }
}

}  // namespace

std::string escape_text(std::string_view s) {
    std::string out;
    escape_into(out, s, Form::text);
    return out;
}

std::string escape_message(std::string_view s) {
    std::string out;
    escape_into(out, s, Form::message);
    return out;
}

std::string escape_markdown(std::string_view s) {
    std::string out;
    escape_into(out, s, Form::markdown);
    return out;
}

std::string clip_text(std::string_view s, size_t n) {
    if (s.size() <= n) return std::string(s);
    size_t cut = n > 1 ? n - 1 : 0;
    while (cut > 0 && (static_cast<uint8_t>(s[cut]) & 0xc0) == 0x80) --cut;  // not inside a sequence
    return std::string(s.substr(0, cut)) + "~";
}

}  // namespace gfxstat::text
