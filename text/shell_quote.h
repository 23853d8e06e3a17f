// SPDX-License-Identifier: MIT
// Words quoted for a POSIX shell, for the command lines gfxstat prints for
// people to paste (an import hint, history's git bisect commands).
#pragma once

#include <string>

namespace gfxstat::text {

// A word quoted for a POSIX shell (and zsh) when it needs it: x.json as it
// is, my file.json as 'my file.json', it's as 'it'\''s', =x as '=x'.
std::string shell_quote(const std::string& word);

}  // namespace gfxstat::text
