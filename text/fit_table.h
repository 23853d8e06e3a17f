// SPDX-License-Identifier: MIT
// A table of text for people that fits a width: as a plain table when it
// does; else with its per-variant columns headed by short keys and the
// labels in a legend above it; else stacked, one row after the other with
// each cell on its own "head: value" line. Nothing is cut: every label and
// value is shown whole (a value longer than a line is wrapped).
// Cells are already escaped (text/text_escape.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gfxstat::text {

struct TextTable {
    std::vector<std::string> head;
    std::vector<std::vector<std::string>> rows;  // each as long as head
    // Columns from this one on are one per variant (their heads are
    // labels): when too wide, they are headed by keys[i - keyed_from]
    // and a legend "key label" comes first. Past head.size(): none.
    size_t keyed_from = static_cast<size_t>(-1);
    std::vector<std::string> keys;
};

// The lines of `t`, each starting with `indent` spaces, at most `width`
// columns wide (when a cell's head and indent leave room for anything).
// Columns of numbers are right-aligned, the others left-aligned.
std::vector<std::string> fit_table(const TextTable& t, size_t width, size_t indent = 2);

// A table of numbers whose first column keys its rows: the numbers
// right-aligned; when too wide, the columns after the key go into as many
// tables as needed (a blank line apart), each led by the key column, so
// that a narrow report moves columns rather than cutting them.
std::vector<std::string> fit_columns(const TextTable& t, size_t width, size_t indent = 0);

}  // namespace gfxstat::text
