// SPDX-License-Identifier: MIT
// What `gfxstat import` says once the results file is written, on one
// line: "3 runs (30 samples, 600 frames within runs) of 1 variant from
// 3 files written to out.json".
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

#include "formats/import_files.h"

namespace gfxstat::report {

// `output` as the user gave it ("-": standard output), escaped here;
// `append` when the runs were added to an existing file.
void print_import_outcome(const std::string& prog, const formats::ImportedRuns& added, size_t files,
                          bool append, const std::string& output, FILE* out);

}  // namespace gfxstat::report
