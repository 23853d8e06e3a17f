// SPDX-License-Identifier: MIT
// Words quoted for a POSIX shell, for the command lines gfxstat prints for
// people to paste (an import hint, history's git bisect commands).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gfxstat::text {

// A word quoted for a POSIX shell (and zsh) when it needs it: x.json as it
// is, my file.json as 'my file.json', it's as 'it'\''s', =x as '=x'.
std::string shell_quote(const std::string& word);

// A command line of `words` (each quoted already, as shell_quote gives
// them, and escaped for a terminal; "&&" between commands; a piece of
// several words, such as an option and its value, is kept on one line) in lines of at
// most `width` columns that a shell reads as the one line: every line but
// the last ends in " \", a command after "&&" starts a line at `indent`
// spaces, the rest of a command goes on lines at `continued` spaces. A
// line breaks between words only: a word longer than a line is on a line
// of its own, whole.
std::vector<std::string> shell_lines(const std::vector<std::string>& words, size_t width, size_t indent,
                                     size_t continued);

}  // namespace gfxstat::text
