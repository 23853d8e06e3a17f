// SPDX-License-Identifier: MIT
// What `gfxstat history`'s options must agree on before any file is read:
// --order git and --git DIR go together, and the permutations are enough
// for a p below --alpha.
#pragma once

#include "findings/history.h"

namespace gfxstat::findings::history {

// Throws InputError with the sentence that says which options disagree.
void check_settings(const Settings& s);

}  // namespace gfxstat::findings::history
