// SPDX-License-Identifier: MIT
// ministat's usage text, as Debian's ministat words it, and the lines
// gfxstat adds for its own options (results files, --metric, --variant,
// --filter). The options themselves are parsed in cli/ministat_options.
#pragma once

#include <cstdio>

namespace gfxstat::report {

// "Usage: PROG [-C column] ..." and a line per option.
void print_ministat_usage(FILE* out, const char* prog);

}  // namespace gfxstat::report
