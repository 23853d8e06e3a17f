// SPDX-License-Identifier: MIT
// Text that comes from data (labels, metric names, units, boot ids,
// environment values, file names, other programs' output, error messages
// quoting any of these), made safe to print for people. A results file or
// an imported export can hold any Unicode text; printed raw, an escape
// sequence in a label retitles or clears the reader's terminal, and a
// newline in it splits a table row. Every renderer passes such text
// through here, once, just before printing it; JSON output keeps the text
// verbatim (its own escaping is JSON's).
//
// The visible form (docs/results-format.md, "Labels and names"):
//   \n \t \r        newline, tab, carriage return
//   \xNN            any other C0 control (\x1b is ESC), DEL (\x7f), and each
//                   byte that is not part of valid UTF-8
//   \u0080..\u009f  the C1 controls (valid UTF-8 for U+0080..U+009F)
//   \u200b..\u200f, \u2028..\u202e, \u2060..\u2069, \ufeff
//                   the invisible format characters: zero-width spaces and
//                   joiners, bidirectional marks, embeddings, overrides and
//                   isolates, line and paragraph separators, the BOM
//   \\              a backslash, so that a label that really reads "\x1b"
//                   is never mistaken for an escaped ESC
// Everything else, including valid multibyte UTF-8 ("é", "–"), is kept.
// Messages (escape_message) keep a backslash as it is.
#pragma once

#include <string>
#include <string_view>

namespace gfxstat::text {

// `s` as one line of terminal text: no control byte, valid UTF-8.
std::string escape_text(std::string_view s);

// `s`, a message that gfxstat composed (an error, a warning, a note, a
// progress line) and that may quote names and file contents: as
// escape_text, except that a backslash is kept. The layers that compose
// messages quote the tokens they cite from files (data::quote_token: a
// backslash as "\\", a byte outside printable ASCII as "\xNN"); doubling
// those backslashes again would garble every quoted token.
std::string escape_message(std::string_view s);

// `s` for a markdown table cell or list item: escape_text, and each of
// | * [ ] < > ` & with a backslash before it (CommonMark's escapes), so that
// text from data cannot end a cell, emphasise, link, open a code span or
// carry HTML; rendered, the text reads as it was.
std::string escape_markdown(std::string_view s);

// `s` cut to at most `n` bytes, never inside a UTF-8 sequence (so that an
// escaped text stays valid UTF-8), with "~" in place of what was cut. For
// text already escaped.
std::string clip_text(std::string_view s, size_t n);

// Length of the valid UTF-8 sequence at the start of `s` (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0 if the
// first byte does not start one. `s` is not empty.
size_t utf8_length(std::string_view s);

}  // namespace gfxstat::text
