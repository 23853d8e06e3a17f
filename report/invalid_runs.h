// SPDX-License-Identifier: MIT
// The runs a comparison left out because the kernel reported GPU trouble
// during them (exit class invalid), named in every format with the
// kernel's line: a reviewer asks first whether the GPU hung.
#pragma once

#include <string>
#include <vector>

#include "findings/compare_findings.h"

namespace gfxstat::cli {

// "LABEL run N: kernel: ..." for each invalid run of the report's samples,
// each run once however many metrics left it out; raw (the renderer escapes).
std::vector<std::string> invalid_run_lines(const CompareReport& r);

// The heading those lines go under in the text and markdown reports.
inline constexpr const char* kInvalidRunsHeading =
    "invalid runs (the kernel reported trouble during them; left out of every metric)";

}  // namespace gfxstat::cli
