// SPDX-License-Identifier: MIT
// --from gotest: the Go benchmark format, as `go test -bench` prints it and
// benchstat reads it (golang.org/design/14313-benchmark-format):
//
//   goos: linux
//   cpu: Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz
//   BenchmarkDecode-8   1000   1234 ns/op   56 B/op   3 allocs/op
//
// go test runs every benchmark of a package in one process, and -count=N
// repeats the result lines, so the whole file is one run: each (benchmark,
// unit) pair is a metric holding every value printed for it, in file order.
// The same grammar reads a run's stdout (`run --parser gotest -- go test
// -bench . -count 5`): one gfxstat run is one `go test` process.
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "formats/format_list.h"
#include "formats/import_support.h"
#include "formats/parser_support.h"
#include "data/input_error.h"

namespace gfxstat::formats {

// The results model and the input errors this importer fills.
using namespace gfxstat::data;

namespace {

// Go splits result lines with strings.Fields (unicode.IsSpace); the format
// is ASCII in practice.
bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// Go's rule (testing.isTest): "Benchmark" then the end of the name or a
// character that is not a lower-case letter, so BenchmarkFoo and Benchmark_x
// are benchmarks and Benchmarking is a word in a log line.
bool is_benchmark_name(std::string_view field) {
    constexpr std::string_view kPrefix = "Benchmark";
    if (!field.starts_with(kPrefix)) return false;
    return field.size() == kPrefix.size() || !(field[kPrefix.size()] >= 'a' && field[kPrefix.size()] <= 'z');
}

// `key: value`, where the key starts with a lower-case letter and holds no
// space or upper-case letter, and space or tab follows the colon (or the
// line ends: an empty value, which unsets the key).
std::optional<std::pair<std::string, std::string>> config_line(std::string_view line) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;
    const std::string_view key = line.substr(0, colon);
    if (!(key[0] >= 'a' && key[0] <= 'z')) return std::nullopt;
    for (char c : key)
        if (is_space(c) || (c >= 'A' && c <= 'Z')) return std::nullopt;
    std::string_view value = line.substr(colon + 1);
    if (!value.empty() && value[0] != ' ' && value[0] != '\t') return std::nullopt;
    while (!value.empty() && is_space(value.front())) value.remove_prefix(1);
    while (!value.empty() && is_space(value.back())) value.remove_suffix(1);
    return std::pair{std::string(key), std::string(value)};
}

// Go's units say which way is better: per-operation costs (ns/op, B/op,
// allocs/op) shrink as code improves, rates (MB/s) grow.
Direction unit_direction(std::string_view unit) {
    if (unit.ends_with("/op")) return Direction::lower_is_better;
    if (unit.ends_with("/s")) return Direction::higher_is_better;
    return Direction::unknown;
}

struct Series {
    MetricInfo info;
    std::vector<NumberToken> values;
};

// The metrics of a file, in order of first appearance.
class SeriesSet {
public:
    Series& at(const std::string& benchmark, std::string_view unit) {
        const std::string name = benchmark + ":" + std::string(unit);
        auto [it, fresh] = index_.try_emplace(name, series_.size());
        if (fresh) {
            Series s;
            s.info.name = name;
            s.info.unit = std::string(unit);
            s.info.direction = unit_direction(unit);
            // ns/op is what a Go benchmark measures; B/op, allocs/op and
            // custom units are by-products.
            s.info.primary = unit == "ns/op";
            series_.push_back(std::move(s));
        }
        return series_[it->second];
    }
    std::vector<Series>& all() { return series_; }

private:
    std::vector<Series> series_;
    std::unordered_map<std::string, size_t> index_;
};

void read_result_line(const std::vector<std::string_view>& fields, const std::string& path, size_t line,
                      SeriesSet& series) {
    // `BenchmarkX-8 1000 1234 ns/op ...`: the name, the iteration count,
    // then value-unit pairs, so an even number of fields and at least four.
    if (fields.size() < 4 || fields.size() % 2 != 0)
        throw input_error(path, line,
                          "expected the iteration count, then value-unit pairs, after " + quote_token(fields[0]) +
                              "; found " + std::to_string(fields.size() - 1) + " fields");
    if (!all_digits(fields[1]))
        throw input_error(path, line, "expected an iteration count after " + quote_token(fields[0]) + ", found " +
                                          quote_token(fields[1]));
    const std::string name(fields[0]);
    for (size_t i = 2; i < fields.size(); i += 2) {
        const std::string_view text = fields[i], unit = fields[i + 1];
        const NumberToken t = parse_number_token(text);
        if (t.status == TokenStatus::malformed)
            throw input_error(path, line, "expected a number before unit " + quote_token(unit) + ", found " +
                                              quote_token(text));
        if (t.status != TokenStatus::decimal && t.status != TokenStatus::binary)
            throw input_error(path, line, quote_token(text) + " (in " + quote_token(unit) + ") is " +
                                              describe(t.status));
        series.at(name, unit).values.push_back(t);
    }
}

// What one `go test` process printed: its metrics and the configuration
// in effect at its first result line, as environment fields.
struct GotestRun {
    std::vector<Series> series;
    std::map<std::string, std::string> fields;
};

// The grammar, for both ways in: `source` names the input in errors (the
// file, or "stdout"). Throws InputError naming the line.
GotestRun read_gotest(const std::string& source, std::string_view text) {
    const std::string& path = source;
    SeriesSet series;
    std::map<std::string, std::string> config;
    // The run has one environment, yet a log of several packages changes
    // `pkg:` (and could change any key) part-way. The configuration in
    // effect at the first result line stands for the run: it is what the
    // machine was when measuring began.
    std::optional<std::map<std::string, std::string>> run_config;

    size_t line_no = 0;
    for (size_t pos = 0; pos < text.size();) {
        const size_t eol = text.find('\n', pos);
        std::string_view line = text.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
        if (line.ends_with('\r')) line.remove_suffix(1);  // saved on Windows
        pos = eol == std::string::npos ? text.size() : eol + 1;
        ++line_no;

        const std::vector<std::string_view> fields = parsing::split_fields(line, is_space);
        if (fields.empty()) continue;
        if (is_benchmark_name(fields[0])) {
            // `go test -v` prints a benchmark's bare name before its log
            // output, and the result line after it.
            if (fields.size() == 1) continue;
            read_result_line(fields, path, line_no, series);
            if (!run_config) run_config = config;
        } else if (auto kv = config_line(line)) {
            if (kv->second.empty()) config.erase(kv->first);
            else config[kv->first] = kv->second;
        }
        // Anything else (PASS, ok, FAIL, --- BENCH:, log output) says nothing
        // about the numbers.
    }
    if (!run_config)
        throw input_error(path, 0, "no benchmark result lines (BenchmarkName  N  value unit ...)");
    GotestRun run;
    run.series = std::move(series.all());
    for (const auto& [key, value] : *run_config) run.fields[key == "cpu" ? "cpu_model" : "go_" + key] = value;
    return run;
}

// run --parser gotest: `go test -bench . -count N` prints the lines a saved
// file holds; one gfxstat run is one `go test` process, and -count's
// repetitions are the values of the run's metrics.
ParseResult parse_gotest(const RunOutput& o) {
    ParseResult r;
    try {
        GotestRun run = read_gotest("stdout", o.out);
        for (Series& s : run.series)
            r.metrics.push_back(parsing::parsed_metric(std::move(s.info.name), std::move(s.info.unit),
                                                       s.info.direction, s.info.primary, std::move(s.values)));
        r.environment = std::move(run.fields);
    } catch (const InputError& e) {
        r = parsing::stdout_failure(e.what(), o.out);
    }
    return r;
}

std::unique_ptr<OutputParser> make_gotest(const ParserOptions& o) {
    // Metric names come from the benchmarks' names and units.
    return parsing::parser_without_options(o, "gotest", {}, parse_gotest);
}

}  // namespace

void import_gotest(const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::string text = read_whole_file(path);
    GotestRun parsed = read_gotest(path, text);

    std::vector<Series*> kept;
    for (Series& s : parsed.series)
        if (options.metric.empty() || s.info.name == options.metric) kept.push_back(&s);
    if (kept.empty()) {
        std::string have;
        for (const Series& s : parsed.series) have += (have.empty() ? "" : ", ") + s.info.name;
        throw input_error(path, 0, "no metric '" + options.metric + "'; the file has: " + have);
    }

    RunRecord run;
    run.variant = options.label.empty() ? default_label(path) : options.label;
    run.run = out.next_run_index(run.variant);
    run.source = path;
    for (Series* s : kept) {
        import_declare_metric(out, path, s->info, options);
        MetricValues values;
        values.name = s->info.name;
        values.values = std::move(s->values);
        values.array = true;
        run.metrics.push_back(std::move(values));
    }
    run.environment = import_environment(out, std::move(parsed.fields), options);
    import_add_run(out, path, 0, std::move(run));
}

const Format& gotest_format() {
    static const Format f{"gotest", "go test -bench output: ns/op and the other units per line", make_gotest,
                          import_gotest};
    return f;
}

}  // namespace gfxstat::formats
