// SPDX-License-Identifier: MIT
// Summary statistics as mailing-list threads paste them: N, mean and
// standard deviation per data set, without the values behind them, for
// `gfxstat compare --summaries` (cli/summary_compare.h). Two layouts:
//
//  - a ministat report (FreeBSD ministat's, or `gfxstat ministat`'s): the
//    legend lines `x NAME`, `+ NAME`, ... give the labels, the table rows
//    `x   9   678.892   1921.855   1711.088   1614.5434   361.81264`
//    (symbol, N, Min, Max, Median, Avg, Stddev) the numbers; the plot box
//    and the "Difference at 95.0% confidence" blocks are skipped. Several
//    reports in one text are told apart by gfxstat ministat's headings
//    (`== NAME (unit, direction) ==`), which name their benchmark.
//  - a table (CSV, a markdown table, or columns separated by tabs or
//    spaces) whose header names its columns, case-insensitively: the label
//    (`label`, `name`, `variant`; optional), the benchmark (`bench`,
//    `benchmark`, `test`, `metric`; optional: several benchmarks, one row
//    each per variant), `n` (`count`, `runs`), the mean (`mean`, `avg`,
//    `average`) and the standard deviation (`sd`, `stddev`, `std`,
//    `stdev`). Other columns (min, max, median) are ignored.
//
// Either may be quoted in a mail reply: `> ` prefixes, nested or not, are
// removed before anything is read. A text holding the ministat table
// header (`N Min Max Median Avg Stddev`) is read as ministat's; any other
// as a table.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::formats {

struct SummaryRow {
    // The data set's name: the legend's, or the label column's. A ministat
    // table without its legend names each set by its symbol ("x", "+");
    // a table without a label column leaves it empty (the caller names it).
    std::string label;
    std::string bench;  // "" without a benchmark column or heading
    size_t n = 0;       // >= 2
    double mean = 0;    // finite
    double sd = 0;      // finite, >= 0
    size_t line = 0;    // where the row is in the text, 1-based
};

enum class SummaryLayout { ministat, table };

struct SummaryTable {
    SummaryLayout layout = SummaryLayout::table;
    // Whether the rows name benchmarks (a benchmark column, or ministat
    // headings): then every row has a non-empty bench.
    bool has_bench = false;
    std::vector<SummaryRow> rows;  // in the order of the text; at least one
};

// Reads the summaries in `text`, which came from `name` (for messages).
// Throws data::InputError naming `name`, the line and what was expected:
// no table at all, a header without n, mean or sd, a row with too few
// cells, a number that is not one, n below 2 (Welch's t needs two values a
// side: with one there is no standard deviation), a negative or non-finite
// standard deviation, a label given twice for one benchmark.
SummaryTable parse_summary_table(std::string_view text, const std::string& name);

// The same from the file `path` ("-": standard input).
SummaryTable read_summary_table(const std::string& path);

}  // namespace gfxstat::formats
