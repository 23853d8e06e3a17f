// --from csv: a table with one row per run and one column per metric, as a
// spreadsheet or a pandas script writes it (RFC 4180). Columns named
// `variant`, `boot` and `run` say which run a row is; every other column is
// a metric holding one value per run.
//
// Import only, no `run --parser csv`: a CSV table is many runs (one per row,
// of several variants), written after the fact by a spreadsheet or a
// script; no program prints one as the output of a single run, which is
// what `run --parser` reads.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "formats/format_list.h"
#include "formats/import_support.h"
#include "data/input_error.h"

namespace gfxstat::formats {

// The results model and the input errors this importer fills.
using namespace gfxstat::data;

namespace {

struct Cell {
    std::string text;
    size_t line = 0;  // where the cell starts: a quoted cell may span lines
};

struct Row {
    std::vector<Cell> cells;
    size_t line = 0;
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Spaces around a cell are padding in hand-written tables (`a, b`), never
// data, so unquoted cells lose them; a quoted cell keeps what it quotes.
std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

// Splits the text into rows of cells (RFC 4180: `,` between cells, CRLF or
// LF between rows, `"..."` quoting with `""` for a quote). Blank lines are
// dropped. A bare `"` inside an unquoted cell is taken literally (as most
// readers do: it cannot be mistaken for quoting); anything but `,` or the
// end of the row after a closing quote is an error, since the writer meant
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

std::string quoted_name(const std::string& name) { return "'" + name + "'"; }

NumberToken parse_value(const Cell& cell, const std::string& column, const std::string& path) {
    const NumberToken t = parse_number_token(cell.text);
    if (t.status == TokenStatus::decimal || t.status == TokenStatus::binary) return t;
    const std::string where = "column " + quoted_name(column);
    if (t.status == TokenStatus::malformed)
        throw input_error(path, cell.line, "expected a number in " + where + ", found " + quote_token(cell.text));
    throw input_error(path, cell.line, quote_token(cell.text) + " in " + where + " is " + describe(t.status));
}

uint64_t parse_run_index(const Cell& cell, const std::string& path) {
    const auto bad = [&] {
        return input_error(path, cell.line,
                           "expected a whole number >= 0 in column 'run', found " + quote_token(cell.text));
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

// What the header says each column is.
struct Layout {
    std::optional<size_t> variant, boot, run;
    std::vector<size_t> metrics;  // columns kept as metrics, in header order
    std::vector<std::string> names;
};

Layout read_header(const Row& header, const std::string& path, const ImportOptions& options) {
    Layout layout;
    std::vector<size_t> all_metrics;
    std::set<std::string> seen;
    for (size_t j = 0; j < header.cells.size(); ++j) {
        const std::string& name = header.cells[j].text;
        if (name.empty())
            throw input_error(path, header.line, "column " + std::to_string(j + 1) + " of the header has no name");
        if (!seen.insert(name).second)
            throw input_error(path, header.line, "column name " + quoted_name(name) + " appears twice in the header");
        layout.names.push_back(name);
        if (name == "variant") layout.variant = j;
        else if (name == "boot") layout.boot = j;
        else if (name == "run") layout.run = j;
        else all_metrics.push_back(j);
    }
    if (all_metrics.empty())
        throw input_error(path, header.line, "the header names no metric columns (only variant, boot or run)");
    if (layout.variant && !options.label.empty())
        throw input_error(path, header.line,
                          "the file has a 'variant' column and --label also names the variant; use one or the other");
    if (options.metric.empty()) {
        layout.metrics = std::move(all_metrics);
        return layout;
    }
    for (size_t j : all_metrics)
        if (layout.names[j] == options.metric) layout.metrics.push_back(j);
    if (layout.metrics.empty()) {
        std::string have;
        for (size_t j : all_metrics) have += (have.empty() ? "" : ", ") + layout.names[j];
        throw input_error(path, 0, "no metric column " + quoted_name(options.metric) + "; the file has: " + have);
    }
    return layout;
}

}  // namespace

void import_csv(const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::vector<Row> rows = split_rows(read_whole_file(path), path);
    if (rows.empty()) throw input_error(path, 0, "empty file: expected a header row");
    const Layout layout = read_header(rows[0], path, options);
    if (rows.size() == 1) throw input_error(path, rows[0].line, "a header and no rows: no runs to import");

    const std::string fixed_label = options.label.empty() ? default_label(path) : options.label;
    const size_t width = layout.names.size();

    // Every row is checked before anything is added to `out`, so that a bad
    // row late in the file does not leave half of the file's runs behind.
    std::vector<std::pair<size_t, RunRecord>> runs;  // (line, run)
    std::map<std::string, uint64_t> next_index;      // variant -> next free run index
    std::map<std::pair<std::string, uint64_t>, size_t> seen;  // (variant, run) -> line
    for (size_t r = 1; r < rows.size(); ++r) {
        const Row& row = rows[r];
        if (row.cells.size() != width)
            throw input_error(path, row.line,
                              "expected " + std::to_string(width) + " cells, as the header has, found " +
                                  std::to_string(row.cells.size()));
        RunRecord run;
        if (layout.variant) {
            run.variant = row.cells[*layout.variant].text;
            if (run.variant.empty()) throw input_error(path, row.line, "empty cell in column 'variant'");
        } else {
            run.variant = fixed_label;
        }
        if (layout.boot) run.boot = row.cells[*layout.boot].text;
        if (layout.run) {
            run.run = parse_run_index(row.cells[*layout.run], path);
        } else {
            auto it = next_index.try_emplace(run.variant, out.next_run_index(run.variant)).first;
            run.run = it->second++;
        }
        for (size_t j : layout.metrics) {
            const Cell& cell = row.cells[j];
            if (cell.text.empty()) continue;  // this run did not report the metric
            MetricValues values;
            values.name = layout.names[j];
            values.values.push_back(parse_value(cell, values.name, path));
            run.metrics.push_back(std::move(values));
        }
        const auto [it, fresh] = seen.try_emplace({run.variant, run.run}, row.line);
        if (!fresh || out.find_run("", run.variant, run.run))
            throw input_error(path, row.line,
                              "run " + std::to_string(run.run) + " of variant " + quoted_name(run.variant) +
                                  " is recorded twice" +
                                  (fresh ? std::string(" (also in the results file)")
                                         : " (also on line " + std::to_string(it->second) + ")"));
        run.source = path + ":" + std::to_string(row.line);
        runs.emplace_back(row.line, std::move(run));
    }

    for (size_t j : layout.metrics) {
        MetricInfo metric;
        metric.name = layout.names[j];
        import_declare_metric(out, path, metric, options);
    }
    const std::string environment = import_environment(out, {}, options);
    for (auto& [line, run] : runs) {
        run.environment = environment;
        import_add_run(out, path, line, std::move(run));
    }
}

const Format& csv_format() {
    static const Format f{"csv", "a CSV table: a column per metric, or label and value columns", nullptr, import_csv};
    return f;
}

}  // namespace gfxstat::formats
