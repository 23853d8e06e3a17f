// SPDX-License-Identifier: MIT
// Renderings of the measured suite cells (suite_sim.h): a flat text listing,
// one line a cell, and the section "Suites measured once a side, tested as
// pairs" of docs/calibration.md, with its reading guide.
#pragma once

#include <cstdio>
#include <vector>

#include "tests/calibration/markdown.h"
#include "tests/calibration/suite_sim.h"

namespace gfxstat::calibration {

void write_suite_text(std::FILE* out, const std::vector<SuiteCellResult>& results, const RunInfo& info);
void write_suite_markdown(std::FILE* out, const std::vector<SuiteCellResult>& results, const RunInfo& info);

}  // namespace gfxstat::calibration
