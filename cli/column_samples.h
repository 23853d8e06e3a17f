// Reads several column files at once, one thread per file (two cores read
// two files in the time of one), and reports the first error in argument
// order so that messages do not depend on thread timing.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/column_file.h"

namespace gfxstat::cli {

struct ColumnInput {
    std::string path;  // "-" for standard input
    std::string name;  // shown in reports and errors
};

struct ColumnReadOutcome {
    std::optional<data::ColumnFile> file;
    std::string error;  // set when file is empty
};

// `then(i, file)`, if given, runs on file i's thread right after it was read
// successfully: statistics of each file are computed in parallel too.
std::vector<ColumnReadOutcome> read_columns_parallel(
    const std::vector<ColumnInput>& inputs, const data::ColumnFormat& format,
    const std::function<void(size_t, data::ColumnFile&)>& then = {});

// Prints a warning on stderr when lines were skipped for lacking the column.
void warn_skipped_lines(const char* prog, const data::ColumnFile& file,
                        const data::ColumnFormat& format);

}  // namespace gfxstat::cli
