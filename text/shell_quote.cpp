// SPDX-License-Identifier: MIT
#include "text/shell_quote.h"

#include <string_view>

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

}  // namespace gfxstat::text
