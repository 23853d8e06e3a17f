// SPDX-License-Identifier: MIT
// gfxstat history's reports of the change points found (findings/
// history.h; docs/history.md, "Output"): text, markdown and JSON.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

#include "findings/history.h"

namespace gfxstat::report {

// How the text report is laid out: lines at most `width` columns (a long
// line wrapped under its indent, a bisect command broken between its words
// with shell continuations, "\" at the end of every line but its last), or
// with `full`, today's whole report: one line per segment, change, bisect
// command and note, however long (as the HTML page embeds it).
struct HistoryTextLayout {
    size_t width = 72;
    bool full = false;
};

void print_history_text(FILE* out, const findings::history::Settings& s, const findings::history::History& h,
                        const HistoryTextLayout& layout);
void print_history_markdown(FILE* out, const findings::history::Settings& s, const findings::history::History& h);
// The whole text report (HistoryTextLayout::full), for the HTML page.
std::string history_text(const findings::history::Settings& s, const findings::history::History& h);
// The JSON report (docs/history.md), indented, with a final newline.
std::string history_json(const findings::history::Settings& s, const findings::history::History& h);

}  // namespace gfxstat::report
