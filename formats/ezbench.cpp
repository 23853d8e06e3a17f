// SPDX-License-Identifier: MIT
// `ezbench`: the output of EzBench "unified" test runs (tests.d/README in
// the EzBench repository), as a run's output (`run --parser ezbench`) or a
// saved file (`import --from ezbench`), read by one grammar:
//
//   GtkEntry: float(0.09) s
//   Draw calls: int(1200)
//   : str(completed)
//
// `SubTestName: type(value) unit`. The name may hold spaces but no ':'; the
// type is float (EzBench also writes integers there), int, str or img; the
// unit runs to the end of the line. The empty name is the test itself: its
// str() value is the status line, which says how the run ended and closes
// the run. A subtest printed several times is one metric with several
// values; a named str() or img() is a non-numeric result (a test suite's
// pass/fail, a screenshot) and holds no sample.
//
// The two ways in differ only where their input does:
// - a run's stdout may hold the test's own chatter, so lines of another
//   shape are skipped, and so is everything after the status line; a
//   status other than "completed" fails the run.
// - a saved file holds EzBench lines only (anything else is an error naming
//   the line), and is one run per status line: EzBench's logs, and a
//   mailing-list paste of several runs, are runs one after the other, each
//   closed by its status line (a last run without one is a run too). The
//   status gives each run's exit class (completed: ok, skipped: skip,
//   anything else: fail) and its values are kept.
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include "data/file_read.h"
#include "formats/format_list.h"
#include "formats/import_support.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

// One line of the grammar, as views into the line.
struct EzbenchLine {
    std::string_view name, type, value, unit;
};

// Splits `name: type(value) unit`; nullopt when the line has another shape.
std::optional<EzbenchLine> split_line(std::string_view text) {
    const size_t colon = text.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    EzbenchLine l;
    l.name = trim(text.substr(0, colon));
    const std::string_view rest = trim(text.substr(colon + 1));
    const size_t open = rest.find('(');
    const size_t close = rest.find(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
    l.type = rest.substr(0, open);
    l.value = rest.substr(open + 1, close - open - 1);
    const std::string_view after = rest.substr(close + 1);
    if (!after.empty() && !is_blank(after[0])) return std::nullopt;  // `float(1)s`: not the format
    l.unit = trim(after);
    return l;
}

bool is_status(const EzbenchLine& l) { return l.name.empty() && (l.type == "str" || l.type == "img"); }

// EzBench's units say which way is better: times shrink as drivers
// improve, frame and operation rates grow.
Direction unit_direction(std::string_view unit) {
    if (unit == "s" || unit == "ms" || unit == "us" || unit == "\xC2\xB5s" || unit == "ns") return kLower;
    if (unit == "FPS" || unit == "fps" || unit.ends_with("/s")) return kHigher;
    return kUnknown;
}

constexpr std::string_view kValueLine = "'SubTest: float(value) unit'";

struct Series {
    std::string name;
    std::string unit;  // as printed
    size_t first_line = 0;
    std::vector<NumberToken> values;
};

// One run as read: its numeric subtests in order of first appearance, and
// its status line if it has one.
struct EzbenchRun {
    std::vector<Series> series;
    std::optional<std::string> status;
    size_t status_line = 0;
};

struct LineError {
    size_t line;  // counted from the start of the text read
    std::string message;
};

// Reads one run from `text`, up to its status line. `strict`: a line of
// another shape, or of an unknown type, is an error (a saved file) rather
// than a test's chatter (a run's stdout).
std::optional<LineError> read_run(std::string_view text, bool strict, EzbenchRun& run) {
    std::unordered_map<std::string, size_t> index;
    LineReader lines(text);
    std::string_view line;
    while (lines.next(line)) {
        const size_t n = lines.number();
        const std::string_view t = trim(line);
        if (t.empty()) continue;
        const std::optional<EzbenchLine> l = split_line(t);
        if (!l) {
            if (!strict) continue;
            return LineError{n, "expected " + std::string(kValueLine) + " or ': str(status)', found " +
                                    data::quote_token(t)};
        }
        if (l->type == "str" || l->type == "img") {
            if (!is_status(*l)) continue;  // a named non-numeric result
            run.status = std::string(trim(l->value));
            run.status_line = n;
            break;  // the status line closes the run
        }
        if (l->type != "float" && l->type != "int") {
            if (!strict) continue;
            return LineError{n, "expected a value of type float, int, str or img, found " +
                                    data::quote_token(l->type)};
        }
        const std::string_view v = l->value;
        if (l->type == "int") {
            std::string_view d = v;
            if (!d.empty() && (d[0] == '-' || d[0] == '+')) d.remove_prefix(1);
            if (!all_digits(d)) return LineError{n, "expected an integer in int(), found " + data::quote_token(v)};
        }
        const NumberToken tok = data::parse_number_token(v);
        if (tok.status == TokenStatus::malformed)
            return LineError{n, "expected a number in " + std::string(l->type) + "(), found " + data::quote_token(v)};
        if (!usable(tok)) return LineError{n, data::quote_token(v) + " is " + data::describe(tok.status)};

        // EzBench makes the empty name the test's own value; a metric needs a
        // name, and "value" is what `lines` calls its one metric.
        const std::string name = l->name.empty() ? "value" : std::string(l->name);
        auto [it, fresh] = index.try_emplace(name, run.series.size());
        if (fresh) run.series.push_back(Series{name, std::string(l->unit), n, {}});
        Series& s = run.series[it->second];
        if (s.unit != l->unit)
            return LineError{n, "subtest '" + name + "' has unit " + data::quote_token(l->unit) + " here but " +
                                    data::quote_token(s.unit) + " on line " + std::to_string(s.first_line)};
        s.values.push_back(tok);
    }
    return std::nullopt;
}

// ------------------------------------------------------------- sections

// One view per run of a saved file: each ends with its status line (and
// that line's '\n'); what follows the last status line is one more run if
// it holds anything but blank lines. Lines are read as LineReader gives
// them to read_run, so that both agree on which line is a status line.
std::vector<std::string_view> ezbench_sections(std::string_view text) {
    std::vector<std::string_view> sections;
    size_t start = 0;
    bool nonblank = false;
    for (size_t pos = 0; pos < text.size();) {
        const size_t eol = text.find('\n', pos);
        const size_t next = eol == std::string_view::npos ? text.size() : eol + 1;
        LineReader one(text.substr(pos, next - pos));
        std::string_view line;
        one.next(line);
        const std::string_view t = trim(line);
        if (!t.empty()) {
            nonblank = true;
            const std::optional<EzbenchLine> l = split_line(t);
            if (l && is_status(*l)) {
                sections.push_back(text.substr(start, next - start));
                start = next;
                nonblank = false;
            }
        }
        pos = next;
    }
    if (nonblank) sections.push_back(text.substr(start));
    return sections;
}

// ---------------------------------------------------------------- parse

ParseResult parse_ezbench(const RunOutput& o) {
    EzbenchRun run;
    if (const std::optional<LineError> e = read_run(o.out, false, run))
        return failure("line " + std::to_string(e->line) + ": " + e->message);
    if (run.status && *run.status != "completed")
        return failure("line " + std::to_string(run.status_line) + ": the test reports status " +
                       data::quote_token(*run.status));
    if (run.series.empty()) return nothing_found(o, std::string(kValueLine));
    ParseResult r;
    for (Series& s : run.series) {
        ParsedMetric m;
        m.name = std::move(s.name);
        m.direction = unit_direction(s.unit);
        m.unit = std::move(s.unit);
        m.primary = kPrimary;  // every subtest is what the test is run for
        m.values = std::move(s.values);
        r.metrics.push_back(std::move(m));
    }
    return r;
}

std::unique_ptr<OutputParser> make_ezbench(const ParserOptions& o) {
    return parser_without_options(o, "ezbench", {}, parse_ezbench);
}

// --------------------------------------------------------------- import

// How the run ended, from the status line's str() value.
data::ExitClass status_class(std::string_view status) {
    if (status == "completed") return data::ExitClass::ok;
    if (status == "skipped" || status == "skip") return data::ExitClass::skip;
    return data::ExitClass::fail;
}

size_t line_of(std::string_view text, const char* at) {
    return static_cast<size_t>(std::count(text.data(), at, '\n')) + 1;
}

}  // namespace

void import_ezbench(const std::string& path, const ImportOptions& options, data::ResultsFile& out) {
    const std::string text = data::read_whole_file(path);
    const std::string_view all(text);
    const std::vector<std::string_view> sections = ezbench_sections(all);
    if (sections.empty()) throw data::input_error(path, 0, "empty file: expected " + std::string(kValueLine) + " lines");

    // Everything is read before anything is added, so that a bad run leaves
    // `out` as it was.
    std::vector<std::pair<size_t, EzbenchRun>> runs;  // first line, run
    std::vector<std::string> have;                   // every subtest's name, for --metric's error
    for (const std::string_view section : sections) {
        const size_t first_line = line_of(all, section.data());
        EzbenchRun run;
        if (const std::optional<LineError> e = read_run(section, true, run))
            throw data::input_error(path, first_line + e->line - 1, e->message);
        for (const Series& s : run.series)
            if (std::find(have.begin(), have.end(), s.name) == have.end()) have.push_back(s.name);
        runs.emplace_back(first_line, std::move(run));
    }
    if (!options.metric.empty() && std::find(have.begin(), have.end(), options.metric) == have.end()) {
        std::string names;
        for (const std::string& n : have) names += (names.empty() ? "" : ", ") + n;
        throw data::input_error(path, 0,
                                "no subtest '" + options.metric + "'; the file has: " + (names.empty() ? "none" : names));
    }

    const std::string label = options.label.empty() ? default_label(path) : options.label;
    for (auto& [first_line, parsed] : runs) {
        data::RunRecord run;
        run.variant = label;
        run.run = out.next_run_index(label);
        run.source = runs.size() > 1 ? path + ":" + std::to_string(first_line) : path;
        // No status line: EzBench would rerun such a test, but the values
        // it printed are measurements all the same.
        run.exit_class = parsed.status ? status_class(*parsed.status) : data::ExitClass::ok;
        for (Series& s : parsed.series) {
            if (!options.metric.empty() && s.name != options.metric) continue;
            MetricInfo info;
            info.name = s.name;
            info.unit = s.unit.empty() ? options.unit : s.unit;
            info.direction = unit_direction(info.unit);
            info.primary = kPrimary;  // as the parser declares it
            import_declare_metric(out, path, info, options);
            data::MetricValues values;
            values.name = s.name;
            values.values = std::move(s.values);
            // One value prints as a scalar; a repeated subtest is an array.
            values.array = values.values.size() > 1;
            run.metrics.push_back(std::move(values));
        }
        run.environment = import_environment(out, {}, options);
        import_add_run(out, path, runs.size() > 1 ? first_line : 0, std::move(run));
    }
}

const Format& ezbench_format() {
    static const Format f{"ezbench", "EzBench unified test output: SubTest: float(value) unit", make_ezbench,
                          import_ezbench, ezbench_sections};
    return f;
}

}  // namespace gfxstat::formats
