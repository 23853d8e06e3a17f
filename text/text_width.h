// SPDX-License-Identifier: MIT
// Widths of text for people, in display columns, so that a report fits
// the 72 columns of a mail reply (or --width N). Text reaching here is
// already escaped (text/text_escape.h): ASCII, or valid UTF-8 from a
// label ("é", "–"). A column is a code point: escape_text leaves no
// control character, and the labels of our data are Latin text; East
// Asian wide characters would take two columns and are counted as one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::text {

// The width of a text line people are given by default: a mail reply's.
constexpr int kDefaultWidth = 72;
// What --width accepts: narrower than 40 no table fits, wider than 1000
// no terminal is.
constexpr int kMinWidth = 40;
constexpr int kMaxWidth = 1000;

// Display columns of `s`: its code points (bytes that do not start a UTF-8
// sequence are not counted).
size_t display_width(std::string_view s);

// `s` cut to at most `n` columns, never inside a code point, with "~" as
// its last column when something was cut (a visible marker: the reader
// knows the text goes on, and where to find it whole).
std::string clip_columns(std::string_view s, size_t n);

// `s` in pieces of at most `n` columns (n >= 1), cut between code points:
// a label too long for any line, shown whole over several.
std::vector<std::string> split_columns(std::string_view s, size_t n);

// `s` padded with spaces to `n` columns: text after them (left-aligned)
// or before them (right-aligned). Longer text is returned as it is.
std::string pad_right(std::string_view s, size_t n);
std::string pad_left(std::string_view s, size_t n);

// `text` wrapped at spaces into lines of at most `width` columns: the
// first line starts with `first_indent` spaces, the others with `indent`.
// A word longer than a whole line is cut over several (split_columns), so
// that no line is wider than `width` (when width > indent).
std::vector<std::string> wrap_text(std::string_view text, size_t width, size_t first_indent, size_t indent);

// The widest line of `lines`, in columns.
size_t widest(const std::vector<std::string>& lines);

}  // namespace gfxstat::text
