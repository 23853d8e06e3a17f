// --from ezbench: the output of one EzBench "unified" test run (tests.d/README
// in the EzBench repository):
//
//   GtkEntry: float(0.09) s
//   Draw calls: int(1200)
//   : str(completed)
//
// `SubTestName: type(value) unit`. The name may hold spaces but no ':'; the
// type is float (EzBench also writes integers there), int, str or img; the
// unit runs to the end of the line. The empty name is the test itself: its
// str() value says how the run ended. One file is one run; a subtest printed
// several times is one metric with several values.
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "data/ezbench_line.h"
#include "data/importers.h"
#include "data/input_error.h"

namespace gfxstat::data {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}


// How the run ended, from the status line's str() value.
ExitClass status_class(std::string_view status) {
    if (status == "completed") return ExitClass::ok;
    if (status == "skipped" || status == "skip") return ExitClass::skip;
    return ExitClass::fail;
}

bool is_integer(std::string_view s) {
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
    return all_digits(s);
}

struct Series {
    MetricInfo info;
    std::string line_unit;  // as printed; info.unit falls back to --unit
    size_t first_line = 0;
    std::vector<NumberToken> values;
};

}  // namespace

void import_ezbench(const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::string text = read_whole_file(path);
    std::vector<Series> series;  // in order of first appearance
    std::unordered_map<std::string, size_t> index;
    std::optional<ExitClass> status;
    size_t status_line = 0;
    bool any_line = false;

    size_t line_no = 0;
    for (size_t pos = 0; pos < text.size();) {
        const size_t eol = text.find('\n', pos);
        const std::string_view raw =
            std::string_view(text).substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
        pos = eol == std::string::npos ? text.size() : eol + 1;
        ++line_no;
        if (trim(raw).empty()) continue;
        any_line = true;

        // The status line closes the run: anything after it is output of
        // something else (two runs pasted together), not this run.
        if (status)
            throw input_error(path, line_no,
                              "expected nothing after the status line (line " + std::to_string(status_line) +
                                  "), found " + quote_token(trim(raw)));
        const std::optional<EzbenchLine> l = split_ezbench_line(raw);
        if (!l)
            throw input_error(path, line_no,
                              "expected 'SubTest: float(value) unit' or ': str(status)', found " +
                                  quote_token(trim(raw)));
        if (l->type == "str" || l->type == "img") {
            // A named str() or img() is a subtest's non-numeric result (a
            // test suite's pass/fail, a screenshot): EzBench output, but no
            // sample to keep.
            if (l->name.empty()) {
                status = status_class(trim(l->value));
                status_line = line_no;
            }
            continue;
        }
        if (l->type != "float" && l->type != "int")
            throw input_error(path, line_no,
                              "expected a value of type float, int, str or img, found " + quote_token(l->type));
        if (l->type == "int" && !is_integer(l->value))
            throw input_error(path, line_no, "expected an integer in int(), found " + quote_token(l->value));
        const NumberToken t = parse_number_token(l->value);
        if (t.status == TokenStatus::malformed)
            throw input_error(path, line_no,
                              "expected a number in " + std::string(l->type) + "(), found " + quote_token(l->value));
        if (t.status != TokenStatus::decimal && t.status != TokenStatus::binary)
            throw input_error(path, line_no, quote_token(l->value) + " is " + describe(t.status));

        // EzBench makes the empty name the test's own value; a metric needs a
        // name, and "value" is what `--from lines` calls a file's one metric.
        const std::string name = l->name.empty() ? "value" : std::string(l->name);
        auto [it, fresh] = index.try_emplace(name, series.size());
        if (fresh) {
            Series s;
            s.info.name = name;
            s.line_unit = std::string(l->unit);
            s.info.unit = l->unit.empty() ? options.unit : s.line_unit;
            s.info.direction = ezbench_unit_direction(s.info.unit);
            s.first_line = line_no;
            series.push_back(std::move(s));
        }
        Series& s = series[it->second];
        if (s.line_unit != l->unit)
            throw input_error(path, line_no,
                              "subtest '" + name + "' has unit " + quote_token(l->unit) + " here but " +
                                  quote_token(s.line_unit) + " on line " + std::to_string(s.first_line));
        s.values.push_back(t);
    }
    if (!any_line) throw input_error(path, 0, "empty file: expected 'SubTest: float(value) unit' lines");

    std::vector<Series*> kept;
    for (Series& s : series)
        if (options.metric.empty() || s.info.name == options.metric) kept.push_back(&s);
    if (!options.metric.empty() && kept.empty()) {
        std::string have;
        for (const Series& s : series) have += (have.empty() ? "" : ", ") + s.info.name;
        throw input_error(path, 0,
                          "no subtest '" + options.metric + "'; the file has: " + (have.empty() ? "none" : have));
    }

    RunRecord run;
    run.variant = options.label.empty() ? default_label(path) : options.label;
    run.run = out.next_run_index(run.variant);
    run.source = path;
    // No status line: EzBench would rerun such a test, but the values it
    // printed are measurements all the same.
    run.exit_class = status.value_or(ExitClass::ok);
    for (Series* s : kept) {
        import_declare_metric(out, path, s->info, options);
        MetricValues values;
        values.name = s->info.name;
        values.values = std::move(s->values);
        // One value prints as a scalar; a repeated subtest is an array.
        values.array = values.values.size() > 1;
        run.metrics.push_back(std::move(values));
    }
    run.environment = import_environment(out, {}, options);
    import_add_run(out, path, 0, std::move(run));
}

// Splits `name: type(value) unit`; nullopt when the line has another shape.
std::optional<EzbenchLine> split_ezbench_line(std::string_view text) {
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
    if (!after.empty() && !is_space(after[0])) return std::nullopt;  // `float(1)s`: not the format
    l.unit = trim(after);
    return l;
}

// EzBench's units say which way is better: times shrink as drivers
// improve, frame and operation rates grow.
Direction ezbench_unit_direction(std::string_view unit) {
    if (unit == "s" || unit == "ms" || unit == "us" || unit == "\xC2\xB5s" || unit == "ns")
        return Direction::lower_is_better;
    if (unit == "FPS" || unit == "fps" || unit.ends_with("/s")) return Direction::higher_is_better;
    return Direction::unknown;
}

}  // namespace gfxstat::data
