// SPDX-License-Identifier: MIT
// Reading a CSV table (RFC 4180) for `import --from csv`: rows of cells,
// each knowing the line it starts on, and the cell readers every shape of
// table shares (a header's names, a number, a run index), with errors that
// name file, line and column. Internal to formats/: formats/csv.cpp reads
// the one-row-per-run shape with it, formats/csv_suite.cpp the suite
// shapes (long and wide).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "data/number_token.h"

namespace gfxstat::formats::csv {

struct Cell {
    std::string text;
    size_t line = 0;  // where the cell starts: a quoted cell may span lines
};

struct Row {
    std::vector<Cell> cells;
    size_t line = 0;
};

// Splits the text into rows of cells (`,` between cells, CRLF or LF
// between rows, `"..."` quoting with `""` for a quote, a UTF-8 byte order
// mark skipped). Blank lines are dropped; unquoted cells lose the spaces
// around them. Throws data::InputError naming `path` and the line.
std::vector<Row> split_rows(std::string_view text, const std::string& path);

// The header's column names, in order. Throws data::InputError for a
// column without a name or a name given twice: either would make a column
// impossible to name on the command line.
std::vector<std::string> header_names(const Row& header, const std::string& path);

// Throws data::InputError unless `row` has `width` cells, as the header has.
void check_width(const Row& row, size_t width, const std::string& path);

// "'fps'": a column name as error messages quote it.
std::string quoted_name(const std::string& name);

// The number in `cell`, exactly as written; throws data::InputError naming
// the cell's line and `column` for anything else ("sixty", "inf", "1e999").
data::NumberToken parse_value(const Cell& cell, const std::string& column, const std::string& path);

// A run index: a whole number >= 0 in `column`; throws data::InputError.
uint64_t parse_run_index(const Cell& cell, const std::string& column, const std::string& path);

}  // namespace gfxstat::formats::csv
