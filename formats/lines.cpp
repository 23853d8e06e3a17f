// SPDX-License-Identifier: MIT
// `lines`: one number per line of a run's output (IGT's benchmarks/
// gem_exec_nop, gem_create, gem_syslatency -f 0/1/2, gem_latency -f 1..4,
// or any program that prints its measurements so). Blank lines and IGT's
// harness lines (IGT-Version:, Starting subtest:, Subtest ...:) are
// skipped; any other line is an error. The metric is `value` unless
// --metric-name names it; its unit and direction are unknown.
// import --from lines reads a column file instead (data/column_file.h,
// with ministat's -C and -d, '#' comments), exactly as `gfxstat ministat`
// reads it: a saved output of this parser is such a file, and so is any
// column a script wrote.
#include <algorithm>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "data/column_file.h"
#include "formats/import_support.h"

#include "formats/format_list.h"
#include "formats/recognise.h"
#include "formats/registry.h"
#include "formats/parser_support.h"
#include "formats/time_hint.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

// ------------------------------------------------------------------ lines

bool igt_harness_line(std::string_view t) {
    return t.starts_with("IGT-Version:") || t.starts_with("Starting subtest:") ||
           t.starts_with("Starting dynamic subtest:") || t.starts_with("Subtest ") ||
           t.starts_with("Dynamic subtest ");
}

// A program whose output another parser reads (glmark2 run without
// --parser glmark2): "; this looks like glmark2 output: --parser glmark2".
std::string parser_hint(std::string_view out) {
    const auto guess = recognise_import(out.substr(0, std::min(out.size(), kSniffBytes + 1)));
    if (!guess) return "";
    const Format* f = find_format(guess->format);
    if (!f || !f->parser || f->name == "lines") return "";
    return "; this looks like " + std::string(guess->what) + ": --parser " + std::string(f->name);
}

ParseResult parse_lines(const RunOutput& o, const std::string& metric) {
    ParsedMetric m;
    m.name = metric;
    m.direction = kUnknown;
    m.primary = kPrimary;  // the one number the user asked for
    // One value per line at most, reserved once: ten million values are
    // not copied through growing buffers (a 1.5x to 3x peak), and the
    // pages reserved for blank or harness lines are never touched.
    // Packed when the caller takes them so: 8 bytes a value, not 16.
    const size_t most = static_cast<size_t>(std::count(o.out.begin(), o.out.end(), '\n')) + 1;
    if (o.packed_values) m.packed.reserve(most);
    else m.values.reserve(most);
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        const std::string_view t = trim(line);
        if (t.empty() || igt_harness_line(t)) continue;
        const NumberToken tok = data::parse_number_token(t);
        if (!usable(tok)) {
            const std::string where = "line " + std::to_string(lines.number()) + ": ";
            if (tok.status == TokenStatus::malformed) {
                const std::string reason = igt_skip_reason(o.out);
                return failure(where + "expected one number, found " + data::quote_token(t) +
                               (reason.empty() ? "" : " (the program skipped: " + data::quote_token(reason) + ")") +
                               parser_hint(o.out));
            }
            return failure(where + data::quote_token(t) + " is " + data::describe(tok.status));
        }
        if (o.packed_values) m.packed.push_back(tok);
        else m.values.push_back(tok);
    }
    if (m.values.empty() && m.packed.empty()) {
        std::string e = "no numbers in the output: expected one number per line";
        if (first_nonblank_line(o.out).empty()) {
            const std::string err = first_nonblank_line(o.err);
            e += err.empty() ? " (stdout is empty)" : " (stdout is empty; stderr: " + data::quote_token(err) + ")";
        }
        // `run -- true` meant to time the command: say how.
        return failure(e + "; " + std::string(kTimeHintRun));
    }
    ParseResult r;
    r.metrics.push_back(std::move(m));
    return r;
}

std::unique_ptr<OutputParser> make_lines(const ParserOptions& o) {
    const std::string metric = o.metric_name.empty() ? "value" : o.metric_name;
    if (!valid_metric_name(metric))
        throw std::invalid_argument("invalid metric name " + data::quote_token(metric) +
                                    ": use letters, digits, '_', '.' and '-'");
    return std::make_unique<FunctionParser>(std::vector<MetricInfo>{info(metric, "", kUnknown, kPrimary)},
                                            [metric](const RunOutput& out) { return parse_lines(out, metric); });
}

}  // namespace

bool valid_metric_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), is_name_char);
}

// --from lines. A column file does not say which values came from which
// run, so the values are kept as the repetitions of one run; every value is
// a sample all the same.
void import_lines(const std::string& path, const ImportOptions& options, data::ResultsFile& out) {
    const std::string label = options.label.empty() ? default_label(path) : options.label;
    data::ColumnFile col = data::read_column_path(path, path, options.column);
    if (col.sample.size() == 0)
        throw data::input_error(path, 0, "no numbers in column " + std::to_string(options.column.column));

    MetricInfo metric;
    metric.name = options.metric.empty() ? "value" : options.metric;
    metric.primary = kPrimary;  // as the parser declares it: the one number asked for
    import_declare_metric(out, path, metric, options);

    data::RunRecord run;
    run.variant = label;
    run.run = out.next_run_index(label);
    run.environment = import_environment(out, {}, options);
    run.source = path;
    data::MetricValues values;
    values.name = metric.name;
    values.array = true;
    values.values.reserve(col.sample.size());
    const data::Sample& s = col.sample;
    std::visit(
        [&](const auto& vec) {
            using T = typename std::decay_t<decltype(vec)>::value_type;
            for (T v : vec) {
                NumberToken t;
                if constexpr (std::is_same_v<T, double>) {
                    t.status = TokenStatus::binary;
                    t.value = v;
                } else {
                    t.status = TokenStatus::decimal;
                    t.negative = v < 0;
                    // |INT64_MIN| does not fit int64; it does fit uint64.
                    t.significand = v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
                    t.exponent = s.exponent;
                }
                values.values.push_back(t);
            }
        },
        s.values);
    run.metrics.push_back(std::move(values));
    import_add_run(out, path, 0, std::move(run));
}

const Format& lines_format() {
    static const Format f{"lines", "one number per line (a column file for import, as ministat reads it)",
                          make_lines, import_lines};
    return f;
}

}  // namespace gfxstat::formats
