// SPDX-License-Identifier: MIT
#include "formats/summary_table.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "data/file_read.h"
#include "data/input_error.h"
#include "formats/line_reader.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using data::input_error;
using data::quote_token;

namespace {

using parsing::is_blank;

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

// A mail reply's quoting removed: "> ", ">> ", "> > " (and leading blanks
// before the first '>'). Text that does not start with '>' is kept as is,
// so that ministat's indented table header keeps its shape.
std::string_view unquote(std::string_view line) {
    std::string_view s = line;
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    if (s.empty() || s.front() != '>') return line;
    while (!s.empty() && s.front() == '>') {
        s.remove_prefix(1);
        if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
        // "> > x": blanks between quote marks belong to the quoting.
        size_t k = 0;
        while (k < s.size() && is_blank(s[k])) ++k;
        if (k < s.size() && s[k] == '>') s.remove_prefix(k);
    }
    return s;
}

std::vector<std::string_view> words(std::string_view s) { return parsing::split_fields(s, is_blank); }

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// One cell's text and how messages name its column ("column 'sd'", "Stddev").
struct Cell {
    std::string_view text;
    std::string what;
};

// A finite double written in decimal (or exponent) notation, all of the
// cell; a leading '+' is allowed.
std::optional<double> parse_double(std::string_view t) {
    if (t.starts_with('+')) t.remove_prefix(1);
    if (t.empty() || t.front() == '+') return std::nullopt;
    double v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v, std::chars_format::general);
    if (r.ec == std::errc::result_out_of_range) return std::numeric_limits<double>::infinity();
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) return std::nullopt;
    return v;
}

double finite_number(const Cell& c, const std::string& name, size_t line) {
    const std::optional<double> v = parse_double(c.text);
    if (!v)
        throw input_error(name, line, c.what + ": expected a number, got " + quote_token(c.text));
    if (!std::isfinite(*v))
        throw input_error(name, line, c.what + ": expected a finite number, got " + quote_token(c.text));
    return *v;
}

size_t count_of(const Cell& c, const std::string& name, size_t line) {
    const std::optional<double> v = parse_double(c.text);
    // 2^53: every count up to it is exact in a double, and no sample is larger.
    if (!v || !(*v >= 0) || *v > 9007199254740992.0 || *v != std::floor(*v))
        throw input_error(name, line,
                          c.what + ": expected a whole number of values, got " + quote_token(c.text));
    const size_t n = static_cast<size_t>(*v);
    if (n < 2)
        throw input_error(name, line,
                          c.what + " is " + std::to_string(n) +
                              ": Welch's t needs at least 2 values a side (" +
                              (n == 1 ? "a single value has no standard deviation)" : "this side has none)"));
    return n;
}

double sd_of(const Cell& c, const std::string& name, size_t line) {
    const double sd = finite_number(c, name, line);
    if (sd < 0)
        throw input_error(name, line, c.what + ": a standard deviation is never negative, got " + quote_token(c.text));
    return sd;
}

// Remembers which (benchmark, label) pairs were seen, and where.
class SeenLabels {
public:
    void add(const SummaryRow& r, const std::string& name) {
        const auto [it, fresh] = first_.emplace(std::make_pair(r.bench, r.label), r.line);
        if (!fresh)
            throw input_error(name, r.line,
                              quote_token(r.label) + " appears twice" +
                                  (r.bench.empty() ? std::string() : " for benchmark " + quote_token(r.bench)) +
                                  " (first on line " + std::to_string(it->second) +
                                  "): each data set needs one row");
    }

private:
    std::map<std::pair<std::string, std::string>, size_t> first_;
};

// ---- ministat ---------------------------------------------------------------

constexpr std::string_view kSymbols = "x+*%#@O";

bool is_symbol(std::string_view w) { return w.size() == 1 && kSymbols.find(w[0]) != std::string_view::npos; }

// gfxstat's reports name data sets past ministat's seven symbols "1".."12".
bool is_number_key(std::string_view w) {
    return !w.empty() && w.size() <= 4 && w.find_first_not_of("0123456789") == std::string_view::npos;
}

// The columns of a ministat-style table header: ministat's own ("N Min Max
// Median Avg Stddev"), or gfxstat summary's and compare's ("N Min Q1
// Median Q3 Max Avg Stddev"). N first; Avg and Stddev somewhere.
std::optional<std::vector<std::string_view>> ministat_columns(std::string_view line) {
    static constexpr std::array<std::string_view, 8> kKnown = {"N",  "Min", "Q1",  "Median",
                                                               "Q3", "Max", "Avg", "Stddev"};
    const std::vector<std::string_view> w = words(line);
    if (w.empty() || w[0] != "N") return std::nullopt;
    for (size_t i = 0; i < w.size(); ++i) {
        if (std::find(kKnown.begin(), kKnown.end(), w[i]) == kKnown.end()) return std::nullopt;
        for (size_t j = 0; j < i; ++j)
            if (w[j] == w[i]) return std::nullopt;
    }
    if (std::find(w.begin(), w.end(), "Avg") == w.end() || std::find(w.begin(), w.end(), "Stddev") == w.end())
        return std::nullopt;
    return w;
}

bool is_ministat_header(std::string_view line) { return ministat_columns(line).has_value(); }

// "N   Min   MaxMedian   AvgStddev": ministat's header after a mail archive
// collapsed its runs of spaces (the rows' numbers then run together, as in
// "51810" for 5, 18 and 10), or after a mail client broke the line. What
// the columns were cannot be recovered, so this is an error, not a guess.
bool is_damaged_ministat_header(std::string_view t) {
    if (!t.starts_with("N ") || is_ministat_header(t)) return false;
    for (const std::string_view w : {"Min", "Median", "Avg"})
        if (t.find(w) == std::string_view::npos) return false;
    return true;
}

[[noreturn]] void damaged_header(const std::string& name, size_t line) {
    throw input_error(name, line,
                      "ministat's table header with its spacing or line breaks changed (by a mail archive or "
                      "client): which number is in which column cannot be told; paste the table as ministat "
                      "printed it");
}

// The lines ministat prints after a candidate's row.
bool is_difference_line(std::string_view t) {
    return t.starts_with("Difference at ") || t.starts_with("No difference proven at ") ||
           t.starts_with("(Student's t") || t.find("+/-") != std::string_view::npos;
}

// gfxstat ministat's "== gl_manhattan (fps, higher is better) ==": the
// benchmark's name, without what the parentheses say of it.
std::optional<std::string> heading_bench(std::string_view t) {
    if (t.size() < 7 || !t.starts_with("== ") || !t.ends_with(" ==")) return std::nullopt;
    std::string_view inner = trim(t.substr(3, t.size() - 6));
    if (inner.ends_with(')')) {
        const size_t open = inner.rfind(" (");
        if (open != std::string_view::npos) inner = trim(inner.substr(0, open));
    }
    if (inner.empty()) return std::nullopt;
    return std::string(inner);
}

// "x   9   678.892 ...   361.81264  name": a table row's key, its fields
// (one per column) and the name after them (gfxstat summary prints it
// there when it fits). Empty when the line has too few words.
struct KeyedRow {
    std::string_view key;
    std::vector<std::string_view> fields;
    std::string_view name;
};

std::optional<KeyedRow> keyed_row(std::string_view t, size_t columns) {
    KeyedRow r;
    size_t i = 0;
    const auto next_word = [&] { return parsing::next_field(t, i, is_blank); };
    r.key = next_word();
    for (size_t c = 0; c < columns; ++c) {
        const std::string_view w = next_word();
        if (w.empty()) return std::nullopt;
        r.fields.push_back(w);
    }
    r.name = trim(t.substr(i));
    return r;
}

SummaryTable parse_ministat(std::string_view text, const std::string& name) {
    SummaryTable out;
    out.layout = SummaryLayout::ministat;
    std::map<std::string, std::string> legend;  // key -> name
    std::string last_key;                       // of the legend line read last, while legend_open
    bool legend_open = false;                   // the last line read was a legend line
    std::vector<std::string_view> columns;      // of the table being read; empty outside one
    std::string bench;
    bool heading_pending = false;  // a heading since the last table
    size_t tables = 0, unnamed_tables = 0, first_table_line = 0, table_line = 0;
    std::map<std::string, size_t> keys_in_table;
    SeenLabels seen;
    LineReader reader(text);
    std::string_view raw;
    while (reader.next(raw)) {
        const size_t line = reader.number();
        const std::string_view unquoted = unquote(raw);
        const std::string_view t = trim(unquoted);
        if (!columns.empty()) {
            const std::vector<std::string_view> w = words(t);
            const bool symbol = !w.empty() && is_symbol(w[0]) && !is_difference_line(t);
            std::optional<KeyedRow> k;
            if (symbol || (!w.empty() && is_number_key(w[0]))) k = keyed_row(t, columns.size());
            // A number key is a row only when its fields are numbers.
            if (k && !symbol)
                for (const std::string_view f : k->fields)
                    if (!parse_double(f)) {
                        k.reset();  // ends k's fields: stop reading them
                        break;
                    }
            if (symbol && !k) {
                std::string head;
                for (const std::string_view c : columns) head += (head.empty() ? "" : " ") + std::string(c);
                throw input_error(name, line,
                                  "expected a table row: its key and " + std::to_string(columns.size()) +
                                      " numbers, one per column of the header on line " + std::to_string(table_line) +
                                      " (" + head + "), got " + std::to_string(w.size() - 1));
            }
            if (k) {
                const auto field = [&](std::string_view col) -> std::optional<Cell> {
                    const auto it = std::find(columns.begin(), columns.end(), col);
                    if (it == columns.end()) return std::nullopt;
                    return Cell{k->fields[static_cast<size_t>(it - columns.begin())], std::string(col)};
                };
                SummaryRow r;
                // N first: with one value the sd is not a number, and N says why.
                r.n = count_of(*field("N"), name, line);
                for (size_t c = 0; c < columns.size(); ++c)
                    finite_number({k->fields[c], std::string(columns[c])}, name, line);
                r.mean = finite_number(*field("Avg"), name, line);
                r.sd = sd_of(*field("Stddev"), name, line);
                // Rounding to the printed digits is monotone: a mean outside
                // the range means the columns are not what the header says.
                const auto lo = field("Min"), hi = field("Max");
                if (lo && hi && (r.mean < finite_number(*lo, name, line) || r.mean > finite_number(*hi, name, line)))
                    throw input_error(name, line,
                                      "Avg " + std::string(field("Avg")->text) + " lies outside Min " +
                                          std::string(lo->text) + " .. Max " + std::string(hi->text) +
                                          ": expected the columns the header names");
                const std::string key(k->key);
                if (const auto it = keys_in_table.find(key); it != keys_in_table.end())
                    throw input_error(name, line,
                                      "a second row of '" + key + "' in one table (first on line " +
                                          std::to_string(it->second) + ")");
                keys_in_table.emplace(key, line);
                const auto l = legend.find(key);
                r.label = !k->name.empty() ? std::string(k->name) : l != legend.end() ? l->second : key;
                r.bench = bench;
                r.line = line;
                seen.add(r, name);
                out.rows.push_back(std::move(r));
                continue;
            }
            if (!w.empty() && is_difference_line(t)) continue;
            // Anything else ends the table; its legend goes with it.
            columns.clear();
            legend.clear();
            legend_open = false;
        }
        if (t.empty()) continue;
        if (is_damaged_ministat_header(t)) damaged_header(name, line);
        if (const auto head = ministat_columns(t)) {
            ++tables;
            if (!heading_pending) ++unnamed_tables;
            if (tables == 1) first_table_line = line;
            if (tables > 1 && unnamed_tables > 0)
                throw input_error(name, line,
                                  "a second ministat table (the first is on line " + std::to_string(first_table_line) +
                                      "), and not each under a '== NAME ==' heading: which benchmark is which? "
                                      "Give each report its own file, or keep gfxstat ministat's headings");
            heading_pending = false;
            table_line = line;
            columns = *head;
            keys_in_table.clear();
            continue;
        }
        if (const auto h = heading_bench(t)) {
            bench = *h;
            heading_pending = true;
            legend.clear();
            legend_open = false;
            continue;
        }
        // "x NAME": the legend ministat prints first, one line per data set
        // ("12 NAME" past seven); a name too long for a line goes on under it.
        const size_t space = t.find(' ');
        if (space != std::string_view::npos && space + 1 < t.size() &&
            (is_symbol(t.substr(0, space)) || is_number_key(t.substr(0, space)))) {
            if (!legend_open) legend.clear();
            last_key = std::string(t.substr(0, space));
            legend[last_key] = std::string(trim(t.substr(space + 1)));
            legend_open = true;
            continue;
        }
        if (legend_open && !unquoted.empty() && is_blank(unquoted.front()) && t.find(' ') == std::string_view::npos) {
            legend[last_key] += std::string(t);
            continue;
        }
        legend_open = false;  // the plot box, or prose around the report
    }
    if (tables == 0)
        throw input_error(name, 0, "no ministat table (the line 'N Min Max Median Avg Stddev') found");
    if (out.rows.empty())
        throw input_error(name, first_table_line,
                          "the ministat table has no rows: expected lines such as "
                          "'x   9   678.892   1921.855   1711.088   1614.5434   361.81264' under it");
    out.has_bench = unnamed_tables == 0;
    return out;
}

// ---- tables ---------------------------------------------------------------

enum class Role { label, bench, n, mean, sd };

struct RoleNames {
    Role role;
    const char* what;  // for messages
    std::vector<std::string_view> names;
};

const std::vector<RoleNames>& role_names() {
    static const std::vector<RoleNames> r = {
        {Role::label, "label", {"label", "name", "variant"}},
        {Role::bench, "benchmark", {"bench", "benchmark", "test", "metric"}},
        {Role::n, "n", {"n", "count", "runs"}},
        {Role::mean, "mean", {"mean", "avg", "average"}},
        {Role::sd, "sd", {"sd", "stddev", "std", "stdev", "std dev", "std. dev.", "standard deviation"}},
    };
    return r;
}

// "Mean (ms)", "sd [fps]", "STDDEV": a column's role, from its name with
// any unit in brackets left out.
std::optional<Role> role_of(std::string_view header_cell) {
    std::string s = lower(header_cell);
    if (const size_t cut = s.find_first_of("(["); cut != std::string::npos) s.erase(cut);
    const std::string_view name = trim(s);
    for (const RoleNames& r : role_names())
        if (std::find(r.names.begin(), r.names.end(), name) != r.names.end()) return r.role;
    return std::nullopt;
}

enum class Split { markdown, comma, tab, blanks };

// A separator row of a markdown table: "|---|:---:|".
bool is_rule(const std::vector<std::string>& cells) {
    if (cells.empty()) return false;
    for (const std::string& c : cells) {
        std::string_view t = trim(c);
        if (t.starts_with(':')) t.remove_prefix(1);
        if (t.ends_with(':')) t.remove_suffix(1);
        if (t.empty() || t.find_first_not_of('-') != std::string_view::npos) return false;
    }
    return true;
}

// The cells of one line. CSV cells may be quoted ("a, b" with "" for a
// quote); markdown cells may hold "\|". Cells lose the blanks around them.
std::vector<std::string> cells_of(std::string_view t, Split how, const std::string& name, size_t line) {
    std::vector<std::string> out;
    switch (how) {
        case Split::blanks:
            for (std::string_view w : words(t)) out.emplace_back(w);
            return out;
        case Split::tab: {
            size_t start = 0;
            for (;;) {
                const size_t tab = t.find('\t', start);
                out.emplace_back(trim(t.substr(start, tab == std::string_view::npos ? tab : tab - start)));
                if (tab == std::string_view::npos) return out;
                start = tab + 1;
            }
        }
        case Split::markdown: {
            std::string_view s = t;
            if (s.starts_with('|')) s.remove_prefix(1);
            std::string cell;
            bool closed = false;  // the last '|' ended the line
            for (size_t i = 0; i < s.size(); ++i) {
                if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '|') {
                    cell += '|';
                    ++i;
                    continue;
                }
                if (s[i] == '|') {
                    out.emplace_back(trim(cell));
                    cell.clear();
                    closed = i + 1 == s.size();
                    continue;
                }
                cell += s[i];
            }
            // "| a | b |": the last '|' closes the row; without it the
            // text after the last '|' is a cell.
            if (!closed || !trim(cell).empty()) out.emplace_back(trim(cell));
            return out;
        }
        case Split::comma: {
            std::string cell;
            size_t i = 0;
            for (;;) {
                while (i < t.size() && is_blank(t[i])) ++i;
                if (i < t.size() && t[i] == '"') {
                    ++i;
                    for (;;) {
                        if (i >= t.size()) throw input_error(name, line, "a quoted cell is never closed");
                        if (t[i] == '"') {
                            if (i + 1 < t.size() && t[i + 1] == '"') {
                                cell += '"';
                                i += 2;
                                continue;
                            }
                            ++i;
                            break;
                        }
                        cell += t[i++];
                    }
                    while (i < t.size() && is_blank(t[i])) ++i;
                    if (i < t.size() && t[i] != ',')
                        throw input_error(name, line, "expected ',' after a quoted cell, got " + quote_token(t.substr(i)));
                    out.push_back(cell);
                } else {
                    const size_t comma = t.find(',', i);
                    out.emplace_back(trim(t.substr(i, comma == std::string_view::npos ? comma : comma - i)));
                    i = comma == std::string_view::npos ? t.size() : comma;
                }
                cell.clear();
                if (i >= t.size()) return out;
                ++i;  // the ','
            }
        }
    }
    return out;
}

Split split_of(std::string_view header) {
    if (header.starts_with('|')) return Split::markdown;
    if (header.find(',') != std::string_view::npos) return Split::comma;
    if (header.find('\t') != std::string_view::npos) return Split::tab;
    return Split::blanks;
}

// The column of each role in a header, or why the line is not one.
struct HeaderColumns {
    std::map<Role, size_t> at;
    std::vector<std::string> names;
    std::string missing;  // "" when n, mean and sd are all there
    bool names_any = false;
};

HeaderColumns header_columns(std::string_view t, const std::string& name, size_t line) {
    HeaderColumns h;
    h.names = cells_of(t, split_of(t), name, line);
    for (size_t i = 0; i < h.names.size(); ++i) {
        const std::optional<Role> r = role_of(h.names[i]);
        if (!r) continue;
        h.names_any = true;
        if (const auto it = h.at.find(*r); it != h.at.end()) {
            // Two columns of one role: which one is meant cannot be guessed.
            h.missing = "two columns of one kind: '" + h.names[it->second] + "' and '" + h.names[i] + "'";
            return h;
        }
        h.at.emplace(*r, i);
    }
    for (const RoleNames& r : role_names()) {
        if (r.role == Role::label || r.role == Role::bench || h.at.count(r.role)) continue;
        std::string alternatives;
        for (size_t k = 0; k < r.names.size(); ++k)
            alternatives += std::string(k ? (k + 1 == r.names.size() ? " or " : ", ") : "") + "'" +
                            std::string(r.names[k]) + "'";
        h.missing += std::string(h.missing.empty() ? "" : "; ") + "no " + r.what + " column (" + alternatives + ")";
    }
    return h;
}

SummaryTable parse_table(std::string_view text, const std::string& name) {
    SummaryTable out;
    out.layout = SummaryLayout::table;
    LineReader reader(text);
    std::string_view raw;
    std::optional<HeaderColumns> head;
    Split how = Split::blanks;
    size_t head_line = 0;
    // The first line that looked like a header but lacked a column.
    std::string near_miss;
    SeenLabels seen;
    while (reader.next(raw)) {
        const size_t line = reader.number();
        std::string_view t = trim(unquote(raw));
        if (line == 1 && t.starts_with("\xEF\xBB\xBF")) t = trim(t.substr(3));  // a byte order mark
        if (t.empty() || t.starts_with('#')) continue;
        if (!head) {
            HeaderColumns h = header_columns(t, name, line);
            if (h.names_any && h.missing.empty()) {
                head = std::move(h);
                how = split_of(t);
                head_line = line;
                out.has_bench = head->at.count(Role::bench) > 0;
            } else if (h.names_any && near_miss.empty()) {
                near_miss = name + ":" + std::to_string(line) + ": a header with " + h.missing;
            }
            continue;  // prose before the table
        }
        const std::vector<std::string> cells = cells_of(t, how, name, line);
        if (how == Split::markdown && is_rule(cells)) continue;
        if (cells.size() != head->names.size())
            throw input_error(name, line,
                              std::to_string(cells.size()) + (cells.size() == 1 ? " cell" : " cells") +
                                  ", but the header (line " + std::to_string(head_line) + ") has " +
                                  std::to_string(head->names.size()) +
                                  (how == Split::blanks ? " (a label with spaces needs commas or tabs between "
                                                          "the columns)"
                                                        : ""));
        const auto cell = [&](Role r) -> Cell {
            const size_t i = head->at.at(r);
            return {cells[i], "column '" + head->names[i] + "'"};
        };
        SummaryRow r;
        r.line = line;
        if (head->at.count(Role::label)) {
            r.label = cells[head->at.at(Role::label)];
            if (r.label.empty()) throw input_error(name, line, cell(Role::label).what + ": the label is empty");
        }
        if (out.has_bench) {
            r.bench = cells[head->at.at(Role::bench)];
            if (r.bench.empty()) throw input_error(name, line, cell(Role::bench).what + ": the benchmark is empty");
        }
        r.n = count_of(cell(Role::n), name, line);
        r.mean = finite_number(cell(Role::mean), name, line);
        r.sd = sd_of(cell(Role::sd), name, line);
        if (!r.label.empty()) seen.add(r, name);
        out.rows.push_back(std::move(r));
    }
    if (!head) {
        if (!near_miss.empty()) throw data::InputError(near_miss);
        throw input_error(name, 0,
                          "expected summary statistics: a ministat table (its line 'N Min Max Median Avg Stddev' "
                          "and the rows under it) or a table whose header names n, mean and sd columns "
                          "(such as 'label,n,mean,sd')");
    }
    if (out.rows.empty())
        throw input_error(name, head_line, "the table has a header but no rows of summary statistics");
    return out;
}

}  // namespace

SummaryTable parse_summary_table(std::string_view text, const std::string& name) {
    LineReader reader(text);
    std::string_view raw;
    while (reader.next(raw))
        if (is_ministat_header(trim(unquote(raw)))) return parse_ministat(text, name);
    LineReader again(text);
    while (again.next(raw))
        if (is_damaged_ministat_header(trim(unquote(raw)))) damaged_header(name, again.number());
    return parse_table(text, name);
}

SummaryTable read_summary_table(const std::string& path) {
    return parse_summary_table(data::read_whole_file(path), path == "-" ? "<stdin>" : path);
}

}  // namespace gfxstat::formats
