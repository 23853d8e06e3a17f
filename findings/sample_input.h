// SPDX-License-Identifier: MIT
// One file argument of a command that reads samples (compare, ministat,
// summary), as parsed (cli/sample_inputs.h): where the data is and what it
// is called. Here, below the command line, because compare's findings name
// their samples after it (findings/compare_inputs.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace gfxstat::cli {

struct SampleInput {
    std::string path;  // "-" for standard input
    std::string name;  // the file's name: errors about the file, and reports when there is no label
    // The name of the data set in reports (benchstat's `old=a.txt`); empty:
    // none. A results file with a label must give one data set (one variant).
    // (Default initialisers: {path, name} stays a complete initialiser.)
    std::string label = {};
    // The column to read (1-based), overriding the command's -C for this
    // file (`a.txt:2`); only for column files.
    std::optional<size_t> column = std::nullopt;
};

}  // namespace gfxstat::cli
