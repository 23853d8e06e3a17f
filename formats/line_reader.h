// SPDX-License-Identifier: MIT
// Output split into lines the way every parser reads it (formats/output_parser.h):
// '\n' ends a line, a trailing '\r' and ANSI colour and OSC sequences are removed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gfxstat::formats {

// Reads text line by line ('\n'), without the trailing '\r' and with ANSI
// escape sequences (CSI: ESC '[' parameters final byte; OSC: ESC ']' text
// up to BEL or ESC '\\', as terminals write titles and hyperlinks; any other
// ESC is dropped alone) removed. Linear in the text; copies only lines with ESC.
class LineReader {
public:
    explicit LineReader(std::string_view text) : rest_(text) {}
    bool next(std::string_view& line) {
        if (rest_.empty()) return false;
        const size_t eol = rest_.find('\n');
        std::string_view raw = rest_.substr(0, eol);
        rest_ = eol == std::string_view::npos ? std::string_view() : rest_.substr(eol + 1);
        ++number_;
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
        if (raw.find('\x1b') == std::string_view::npos) {
            line = raw;
            return true;
        }
        buf_.clear();
        bool osc_unterminated = false;
        for (size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] != '\x1b') {
                buf_ += raw[i];
                continue;
            }
            if (i + 1 < raw.size() && raw[i + 1] == '[') {
                size_t j = i + 2;
                while (j < raw.size() && static_cast<unsigned char>(raw[j]) >= 0x20 &&
                       static_cast<unsigned char>(raw[j]) <= 0x3f)
                    ++j;
                if (j < raw.size() && static_cast<unsigned char>(raw[j]) >= 0x40 &&
                    static_cast<unsigned char>(raw[j]) <= 0x7e)
                    i = j;  // the whole sequence
                // else: a broken sequence; drop the ESC only
            } else if (i + 1 < raw.size() && raw[i + 1] == ']' && !osc_unterminated) {
                // OSC (a window title, a hyperlink: ESC ']' ... BEL or ESC '\\')
                osc_unterminated = true;  // unless its end is found: then no later one ends either
                for (size_t j = i + 2; j < raw.size(); ++j) {
                    if (raw[j] == '\a' || (raw[j] == '\x1b' && j + 1 < raw.size() && raw[j + 1] == '\\')) {
                        i = raw[j] == '\a' ? j : j + 1;
                        osc_unterminated = false;
                        break;
                    }
                }
                // unterminated on its line: drop the ESC only
            }
        }
        line = buf_;
        return true;
    }
    size_t number() const { return number_; }

private:
    std::string_view rest_;
    size_t number_ = 0;
    std::string buf_;
};

}  // namespace gfxstat::formats
