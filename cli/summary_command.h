// SPDX-License-Identifier: MIT
#pragma once

#include <cstdio>
#include <vector>

#include "cli/sample_inputs.h"

namespace gfxstat::cli {

// `gfxstat summary [--json] [-C column] [-d delimiters] FILE...`
int summary_main(int argc, char** argv);

// The text report of samples as read (none of them empty): the table, then
// diagnostics in words (`diagnose`). Text from data is escaped. Samples are
// reordered by the quantiles.
void render_summary_text(std::vector<LoadedSample>& samples, bool diagnose, FILE* out);

}  // namespace gfxstat::cli
