// SPDX-License-Identifier: MIT
#include "formats/csv_table.h"

#include <set>

#include "data/input_error.h"

namespace gfxstat::formats::csv {

using data::input_error;
using data::NumberToken;
using data::quote_token;
using data::TokenStatus;

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Spaces around a cell are padding in hand-written tables (`a, b`), never
// data, so unquoted cells lose them; a quoted cell keeps what it quotes.
std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

}  // namespace

// A bare `"` inside an unquoted cell is taken literally (as most readers
// do: it cannot be mistaken for quoting); anything but `,` or the end of
// the row after a closing quote is an error, since the writer meant
// something this reader cannot guess.
std::vector<Row> split_rows(std::string_view text, const std::string& path) {
    std::vector<Row> rows;
    size_t i = 0, line = 1;
    // Excel writes a UTF-8 byte order mark; it is not part of the first name.
    if (text.starts_with("\xEF\xBB\xBF")) i = 3;
    const auto at_row_end = [&](size_t k) {
        return k >= text.size() || text[k] == '\n' ||
               (text[k] == '\r' && (k + 1 >= text.size() || text[k + 1] == '\n'));
    };
    while (i < text.size()) {
        Row row;
        row.line = line;
        bool blank_row = true;
        for (;;) {
            Cell cell;
            cell.line = line;
            size_t k = i;
            while (k < text.size() && is_blank(text[k])) ++k;
            if (k < text.size() && text[k] == '"') {
                blank_row = false;
                i = k + 1;
                const size_t open_line = line;
                for (;;) {
                    if (i >= text.size())
                        throw input_error(path, open_line, "quoted cell is never closed");
                    const char c = text[i++];
                    if (c == '"') {
                        if (i < text.size() && text[i] == '"') {
                            cell.text += '"';
                            ++i;
                            continue;
                        }
                        break;
                    }
                    if (c == '\n') ++line;
                    cell.text += c;
                }
                while (i < text.size() && is_blank(text[i])) ++i;
                if (!at_row_end(i) && text[i] != ',') {
                    const size_t end = text.find_first_of(",\r\n", i);  // npos: substr takes the rest
                    throw input_error(path, line,
                                      "expected ',' or the end of the row after a closing quote, found " +
                                          quote_token(text.substr(i, end - i)));
                }
            } else {
                const size_t start = i;
                while (!at_row_end(i) && text[i] != ',') ++i;
                cell.text = std::string(trim(text.substr(start, i - start)));
                if (!cell.text.empty() || (i < text.size() && text[i] == ',')) blank_row = false;
            }
            row.cells.push_back(std::move(cell));
            if (i < text.size() && text[i] == ',') {
                ++i;
                continue;
            }
            if (i < text.size() && text[i] == '\r') ++i;
            if (i < text.size() && text[i] == '\n') ++i, ++line;
            break;
        }
        if (!blank_row) rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<std::string> header_names(const Row& header, const std::string& path) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (size_t j = 0; j < header.cells.size(); ++j) {
        const std::string& name = header.cells[j].text;
        if (name.empty())
            throw input_error(path, header.line, "column " + std::to_string(j + 1) + " of the header has no name");
        if (!seen.insert(name).second)
            throw input_error(path, header.line, "column name " + quoted_name(name) + " appears twice in the header");
        names.push_back(name);
    }
    return names;
}

void check_width(const Row& row, size_t width, const std::string& path) {
    if (row.cells.size() != width)
        throw input_error(path, row.line,
                          "expected " + std::to_string(width) + " cells, as the header has, found " +
                              std::to_string(row.cells.size()));
}

std::string quoted_name(const std::string& name) { return "'" + name + "'"; }

NumberToken parse_value(const Cell& cell, const std::string& column, const std::string& path) {
    const NumberToken t = data::parse_number_token(cell.text);
    if (t.status == TokenStatus::decimal || t.status == TokenStatus::binary) return t;
    const std::string where = "column " + quoted_name(column);
    if (t.status == TokenStatus::malformed)
        throw input_error(path, cell.line, "expected a number in " + where + ", found " + quote_token(cell.text));
    throw input_error(path, cell.line, quote_token(cell.text) + " in " + where + " is " + describe(t.status));
}

uint64_t parse_run_index(const Cell& cell, const std::string& column, const std::string& path) {
    const auto bad = [&] {
        return input_error(path, cell.line,
                           "expected a whole number >= 0 in column " + quoted_name(column) + ", found " +
                               quote_token(cell.text));
    };
    if (cell.text.empty()) throw bad();
    uint64_t n = 0;
    for (char c : cell.text) {
        if (c < '0' || c > '9') throw bad();
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (n > (UINT64_MAX - digit) / 10) throw bad();
        n = n * 10 + digit;
    }
    return n;
}

}  // namespace gfxstat::formats::csv
