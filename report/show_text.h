// SPDX-License-Identifier: MIT
// gfxstat show's text report of a results file: variants, metrics, runs,
// boots, environment, diagnostics (findings/show_overview.h).
#pragma once

#include <cstdio>
#include <string>

#include "data/results_model.h"
#include "findings/show_overview.h"

namespace gfxstat::report {

// Lines at most `width` columns. Text from data is escaped.
void print_show_text(FILE* out, size_t width, const std::string& name, const data::ResultsFile& f,
                     const findings::ShowOverview& show);

}  // namespace gfxstat::report
