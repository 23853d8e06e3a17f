// SPDX-License-Identifier: MIT
// Reads one column of numbers from a text file the way ministat does:
// trailing white space dropped, fields split on any run of delimiter
// characters, a field starting with '#' ends the line, lines without the
// wanted column skipped. Unlike ministat: lines of any length, line numbers
// that count real lines, and every token that is not a finite number is an
// error naming the file and line.
#pragma once

#include <string>

#include "data/sample.h"

namespace gfxstat::data {

struct ColumnFormat {
    int column = 1;                   // 1-based
    std::string delimiters = " \t";  // any of these separates fields
};

struct ColumnFile {
    Sample sample;
    size_t lines = 0;                    // lines read
    size_t lines_without_column = 0;     // non-empty, non-comment, too few fields
    size_t first_line_without_column = 0;
};

// Reads until end of file from `fd` (not closed). `name` is used in errors.
// `prefix` holds bytes already read from `fd` (to tell a results file from
// a column file). Throws InputError on bad data, and on read errors.
ColumnFile read_column(int fd, const std::string& name, const ColumnFormat& format,
                       std::string_view prefix = {});

// Opens `path` ("-" is standard input) and reads it. Throws InputError when
// it cannot be opened.
ColumnFile read_column_path(const std::string& path, const std::string& name,
                            const ColumnFormat& format);

}  // namespace gfxstat::data
