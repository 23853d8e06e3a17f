// SPDX-License-Identifier: MIT
#include "text/shell_quote.h"

#include <string_view>

#include "text/text_width.h"

namespace gfxstat::text {

namespace {

bool plain_shell_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_./-+=:,@%").find(c) != std::string_view::npos;
}

}  // namespace

std::string shell_quote(const std::string& word) {
    // A word that starts with '=' is a command's path in zsh (=ls is
    // /usr/bin/ls): quoted too.
    bool plain = !word.empty() && word[0] != '=';
    for (char c : word) plain &= plain_shell_char(c);
    if (plain) return word;
    std::string q = "'";
    for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::vector<std::string> shell_lines(const std::vector<std::string>& words, size_t width, size_t indent,
                                     size_t continued) {
    std::vector<std::string> lines;
    std::string line(indent, ' ');
    size_t cols = indent;
    bool empty = true, after_and = false;
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        const size_t n = display_width(w);
        // Room for the word and, but after the last, the " \" after it.
        const size_t tail = i + 1 < words.size() ? 2 : 0;
        if (!empty && (after_and || cols + 1 + n + tail > width)) {
            lines.push_back(line + " \\");
            line = std::string(after_and ? indent : continued, ' ');
            cols = line.size();
            empty = true;
        }
        line += (empty ? "" : " ") + w;
        cols += (empty ? 0 : 1) + n;
        empty = false;
        after_and = w == "&&";
    }
    lines.push_back(line);
    return lines;
}

}  // namespace gfxstat::text
