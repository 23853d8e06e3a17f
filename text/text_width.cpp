// SPDX-License-Identifier: MIT
#include "text/text_width.h"

#include <algorithm>
#include <cstdint>

namespace gfxstat::text {

namespace {

bool continuation(char c) { return (static_cast<uint8_t>(c) & 0xc0) == 0x80; }

// The byte offset after the first `n` columns of `s` (its size when shorter).
size_t offset_of_column(std::string_view s, size_t n) {
    size_t cols = 0, i = 0;
    for (; i < s.size(); ++i) {
        if (continuation(s[i])) continue;
        if (cols == n) return i;
        ++cols;
    }
    return s.size();
}

}  // namespace

size_t display_width(std::string_view s) {
    return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return !continuation(c); }));
}

std::string clip_columns(std::string_view s, size_t n) {
    if (display_width(s) <= n) return std::string(s);
    if (n == 0) return "";
    return std::string(s.substr(0, offset_of_column(s, n - 1))) + "~";
}

std::vector<std::string> split_columns(std::string_view s, size_t n) {
    std::vector<std::string> out;
    if (n == 0) n = 1;
    while (!s.empty()) {
        const size_t cut = offset_of_column(s, n);
        out.emplace_back(s.substr(0, cut));
        s.remove_prefix(cut);
    }
    if (out.empty()) out.emplace_back();
    return out;
}

std::string pad_right(std::string_view s, size_t n) {
    const size_t w = display_width(s);
    return std::string(s) + std::string(w < n ? n - w : 0, ' ');
}

std::string pad_left(std::string_view s, size_t n) {
    const size_t w = display_width(s);
    return std::string(w < n ? n - w : 0, ' ') + std::string(s);
}

std::vector<std::string> wrap_text(std::string_view text, size_t width, size_t first_indent, size_t indent) {
    std::vector<std::string> lines;
    std::string line(first_indent, ' ');
    size_t cols = first_indent;
    bool empty = true;
    const auto flush = [&] {
        lines.push_back(line);
        line = std::string(indent, ' ');
        cols = indent;
        empty = true;
    };
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t next = text.find(' ', pos);
        if (next == std::string_view::npos) next = text.size();
        const std::string_view word = text.substr(pos, next - pos);
        pos = next + 1;
        if (word.empty()) continue;
        const size_t w = display_width(word);
        if (!empty && cols + 1 + w > width) flush();
        if (cols + (empty ? 0 : 1) + w <= width || width <= cols + 1) {
            line += (empty ? "" : " ") + std::string(word);
            cols += (empty ? 0 : 1) + w;
            empty = false;
            continue;
        }
        // Longer than a line: cut, each piece on a line of its own.
        for (const std::string& piece : split_columns(word, width - std::max(cols, indent))) {
            if (!empty) flush();
            line += piece;
            cols += display_width(piece);
            empty = false;
        }
    }
    if (!empty) lines.push_back(line);
    return lines;
}

size_t widest(const std::vector<std::string>& lines) {
    size_t w = 0;
    for (const auto& l : lines) w = std::max(w, display_width(l));
    return w;
}

}  // namespace gfxstat::text
