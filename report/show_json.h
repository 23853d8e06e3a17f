// SPDX-License-Identifier: MIT
// gfxstat show --json: what a results file holds, for machines
// (docs/results-format.md names the fields it repeats).
#pragma once

#include <string>

#include "data/results_model.h"
#include "data/results_reader.h"
#include "findings/show_overview.h"

namespace gfxstat::report {

// The document, indented by 2, invalid UTF-8 replaced, without a final
// newline. `read`: how the file was read (a torn tail).
std::string show_json(const std::string& name, const data::ResultsFile& f, const data::ReadReport& read,
                      const findings::ShowOverview& show);

}  // namespace gfxstat::report
