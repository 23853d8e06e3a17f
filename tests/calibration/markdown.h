// SPDX-License-Identifier: MIT
// Renderings of the measured cells: a flat text listing (one line a cell,
// for diffs and grep) and the markdown page docs/calibration.md, with the
// reading guide for users.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/calibration/cells.h"

namespace gfxstat::calibration {

struct RunInfo {
    uint64_t seed = 20261201;
    size_t reps = 0;
    size_t suite_reps = 0;  // suites a cell, when the suite section follows (0: none)
    bool quick = false;
    std::string label;  // e.g. the commit measured
    std::string date;   // UTC
    double seconds = 0;
};

void write_text(std::FILE* out, const std::vector<CellResult>& results, const RunInfo& info);
void write_markdown(std::FILE* out, const std::vector<CellResult>& results, const RunInfo& info);

}  // namespace gfxstat::calibration
