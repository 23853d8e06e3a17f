// SPDX-License-Identifier: MIT
// Cutting a saved output that holds several runs into one text per run
// (Format::sections), for the formats whose runs have a recognisable first
// line (glmark2's banner) or last line (a replayer's FPS summary). Lines
// are the raw '\n'-separated lines of the file, with a trailing '\r'
// removed before the predicate sees them; the views returned are
// substrings of the text, so that import can name the line a run starts on.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace gfxstat::formats::sections {

struct RawLine {
    std::string_view text;  // without '\n' and a trailing '\r'
    size_t begin = 0;       // offset of the line in the whole text
    size_t end = 0;         // offset just past its '\n' (or the text's end)
};

inline std::vector<RawLine> raw_lines(std::string_view text) {
    std::vector<RawLine> lines;
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t eol = text.find('\n', pos);
        const size_t stop = eol == std::string_view::npos ? text.size() : eol;
        RawLine l;
        l.text = text.substr(pos, stop - pos);
        if (!l.text.empty() && l.text.back() == '\r') l.text.remove_suffix(1);
        l.begin = pos;
        l.end = eol == std::string_view::npos ? text.size() : eol + 1;
        lines.push_back(l);
        pos = l.end;
    }
    return lines;
}

// One section per line for which `ends_run` holds, from just after the
// previous such line. What follows the last one is a section only when
// `belongs` holds for one of its lines (a run cut short: its parser then
// says what is missing); otherwise it is trailing chatter, left out, as
// is everything when no line ends a run (then the whole text is returned,
// so that the parser names what it expected).
template <class EndsRun, class Belongs>
std::vector<std::string_view> split_after(std::string_view text, EndsRun ends_run, Belongs belongs) {
    std::vector<std::string_view> out;
    size_t start = 0;
    bool tail_belongs = false;
    for (const RawLine& l : raw_lines(text)) {
        if (ends_run(l.text)) {
            out.push_back(text.substr(start, l.end - start));
            start = l.end;
            tail_belongs = false;
        } else if (belongs(l.text)) {
            tail_belongs = true;
        }
    }
    if (out.empty()) return {text};
    if (tail_belongs) out.push_back(text.substr(start));
    return out;
}

}  // namespace gfxstat::formats::sections
