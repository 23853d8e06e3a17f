// SPDX-License-Identifier: MIT
#pragma once

#include <cstdio>
#include <string>

#include "data/results_model.h"

namespace gfxstat::cli {
// gfxstat show FILE [--json]
int show_main(int argc, char** argv);

// show's text report of a results file read as `name`: variants, metrics,
// runs, boots, environment, diagnostics. Text from data is escaped. Throws
// InputError (as show does: a file without runs) before printing anything.
void render_show_text(const std::string& name, const data::ResultsFile& f, FILE* out);
}  // namespace gfxstat::cli
