// SPDX-License-Identifier: MIT
// The suite inputs of `gfxstat compare` on arbitrary bytes (suite_inputs.h).
// After the selector byte:
//
//  - a summary table: the bytes are the pasted text. parse_summary_table
//    either reads rows that obey its header's promises (n >= 2, finite mean
//    and sd >= 0, lines increasing, a benchmark on every row exactly when
//    has_bench) or throws an InputError naming the text; quoted as a mail
//    reply (every line prefixed with "> ") it reads the same, or fails the
//    same way.
//  - a filter: FILTER, then optionally NUL ROW NUL COL (--row and --col).
//    BenchFilter::parse either reads it or throws a FilterSyntaxError whose
//    message names a column within the text; a filter read keeps its text,
//    and `NOT (FILTER)` matches exactly the observations it does not, on
//    every observation of a small fixed results file (with and without
//    their run's environment); a run that may_match_run rules out has no
//    observation matched, one whose negation it rules out has every one
//    matched. Then project_results with that filter and --row/--col either
//    refuses the keys (std::invalid_argument) or gives a results file that
//    counts every observation once (kept + dropped) and survives being
//    written and read back.
//  - a suite's CSV: seven bytes of column roles (below), then the table.
//    import_csv_suite either imports runs, throws an InputError naming the
//    file, or (only when column_roles_problem says why) invalid_argument;
//    what it imports survives being written and read back, and a wide table
//    written again as the long table of the same observations imports to
//    exactly the same results (formats/csv_suite.h promises it).
#include "suite_inputs.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/bench_filter.h"
#include "data/input_error.h"
#include "data/projection.h"
#include "data/results_model.h"
#include "data/results_reader.h"
#include "data/results_writer.h"
#include "data/utf8.h"
#include "formats/csv_suite.h"
#include "formats/csv_table.h"
#include "formats/import_support.h"
#include "formats/summary_table.h"

namespace gfxstat::fuzz {

namespace {

using namespace gfxstat::data;

[[noreturn]] void fail(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "\nsuite_inputs.cpp: invariant violated: %s\n", what);
    if (!detail.empty()) std::fprintf(stderr, "  %s\n", detail.c_str());
    std::abort();
}

// "line N, byte B: ...A... | ...B...": where two serialised files first
// differ, with some text around it, for a failure's message.
std::string first_difference(const std::string& a, const std::string& b) {
    size_t at = 0, line = 1;
    while (at < a.size() && at < b.size() && a[at] == b[at]) line += a[at++] == '\n';
    const size_t from = at < 60 ? 0 : at - 60;
    return "line " + std::to_string(line) + ", byte " + std::to_string(at) + ": ..." + a.substr(from, 120) +
           "... | ..." + b.substr(from, 120) + "...";
}

// A token's value as a double: a decimal token correctly rounded.
double as_double(const NumberToken& t) {
    if (t.status == TokenStatus::binary) return t.value;
    const std::string text =
        (t.negative ? "-" : "") + std::to_string(t.significand) + "e" + std::to_string(t.exponent);
    return std::strtod(text.c_str(), nullptr);
}

ResultsFile read_back(const std::string& text, const std::string& what) {
    try {
        return parse_results(text, "written.json");
    } catch (const InputError& e) {
        fail((what + " does not read back").c_str(), e.what());
    }
}

bool same_name(const std::string& written, const std::string& read) {
    return written == read || !gfxstat::data::valid_utf8(written);
}

// What gfxstat writes, it reads back: the same runs of the same metrics
// (names that are not UTF-8 come back with U+FFFD in them), each value the
// same exact decimal or, for a double (more digits than a decimal holds),
// the same double, which its shortest form may bring back as a decimal; and
// from then on writing and reading is a fixed point.
void check_written_and_read(const ResultsFile& f, const std::string& what) {
    const std::string text = serialize_results(f);
    const ResultsFile again = read_back(text, what);
    if (again.runs().size() != f.runs().size() || again.metrics().size() != f.metrics().size())
        fail((what + " reads back with other runs or metrics").c_str(), first_difference(text, serialize_results(again)));
    for (size_t i = 0; i < f.runs().size(); ++i) {
        const RunRecord &a = f.runs()[i], &b = again.runs()[i];
        if (!same_name(a.variant, b.variant) || a.run != b.run || a.metrics.size() != b.metrics.size())
            fail((what + " reads back with another run").c_str(), first_difference(text, serialize_results(again)));
        for (size_t m = 0; m < a.metrics.size(); ++m) {
            const MetricValues &x = a.metrics[m], &y = b.metrics[m];
            if (!same_name(x.name, y.name) || x.values.size() != y.values.size())
                fail((what + " reads back with other metrics in a run").c_str());
            for (size_t k = 0; k < x.values.size(); ++k)
                if (as_double(x.values[k]) != as_double(y.values[k]) ||
                    (x.values[k].status == TokenStatus::decimal && y.values[k].status != TokenStatus::decimal))
                    fail((what + " reads back with another value").c_str(),
                         x.name + ": " + std::to_string(as_double(x.values[k])) + " became " +
                             std::to_string(as_double(y.values[k])));
        }
    }
    const std::string second = serialize_results(again);
    if (const std::string third = serialize_results(read_back(second, what)); third != second)
        fail((what + " is not written the same once read back").c_str(), first_difference(second, third));
}

// ---- summary tables ----------------------------------------------------------------------

// `text` as a mail reply quotes it: "> " before every line.
std::string quoted_reply(std::string_view text) {
    std::string out;
    bool line_start = true;
    for (size_t i = 0; i < text.size(); ++i) {
        if (line_start) out += "> ";
        out += text[i];
        line_start = text[i] == '\n';
    }
    return out;
}

// Rows read, or the message of the InputError thrown.
struct SummaryOutcome {
    std::optional<formats::SummaryTable> table;
    std::string error;
};

SummaryOutcome read_summary(std::string_view text) {
    static const std::string name = "pasted.txt";
    SummaryOutcome o;
    try {
        o.table = formats::parse_summary_table(text, name);
    } catch (const InputError& e) {
        o.error = e.what();
        if (!o.error.starts_with(name)) fail("a summary table's error does not name the text", o.error);
    }
    return o;
}

void check_summary(const formats::SummaryTable& t, std::string_view text) {
    if (t.rows.empty()) fail("a summary table without rows");
    size_t lines = 1;
    for (char c : text) lines += c == '\n';
    size_t previous = 0;
    for (const formats::SummaryRow& r : t.rows) {
        if (r.n < 2) fail("a summary row with n below 2");
        if (!std::isfinite(r.mean) || !std::isfinite(r.sd) || r.sd < 0) fail("a summary row's mean or sd");
        if (r.line <= previous || r.line > lines) fail("summary rows out of the text's order");
        previous = r.line;
        if (t.has_bench == r.bench.empty()) fail("a summary row's benchmark against has_bench");
    }
}

void fuzz_summary(std::string_view text) {
    const SummaryOutcome plain = read_summary(text);
    if (plain.table) check_summary(*plain.table, text);
    const SummaryOutcome quoted = read_summary(quoted_reply(text));
    if (plain.table.has_value() != quoted.table.has_value())
        fail("a summary table reads differently quoted as a reply", plain.error + " | " + quoted.error);
    if (!plain.table) {
        if (plain.error.substr(plain.error.find(':')) != quoted.error.substr(quoted.error.find(':')))
            fail("a summary table fails differently quoted as a reply", plain.error + " | " + quoted.error);
        return;
    }
    const formats::SummaryTable& a = *plain.table;
    const formats::SummaryTable& b = *quoted.table;
    if (a.layout != b.layout || a.has_bench != b.has_bench || a.rows.size() != b.rows.size())
        fail("a summary table reads differently quoted as a reply");
    for (size_t i = 0; i < a.rows.size(); ++i) {
        const formats::SummaryRow &x = a.rows[i], &y = b.rows[i];
        if (x.label != y.label || x.bench != y.bench || x.n != y.n || x.mean != y.mean || x.sd != y.sd ||
            x.line != y.line)
            fail("a summary row reads differently quoted as a reply");
    }
}

// ---- the filter language and projections ----------------------------------------------------

// Two variants over two kernels, a design, a failed run, a warm-up, a run
// without environment, metrics of several units (two of them declared
// differently with one unit, so that a row pooling them is refused), values
// in arrays, names with blanks and slashes, a tag with an empty value.
constexpr std::string_view kResults =
    R"json({"format":"gfxstat-results","version":1,"id":"0000000000000000000000000000f11e","created":"2026-12-03T00:00:00Z","generator":"fuzz"}
{"type":"design","id":"design-0000000000000001","kind":"ab","variants":["baseline","patched"],"order":"random","seed":1,"stopping":"fixed","runs":2,"confidence":0.95,"threshold":0.01}
{"type":"metric","name":"gl_4","unit":"fps","direction":"higher"}
{"type":"metric","name":"gl_manhattan","unit":"fps","direction":"higher"}
{"type":"metric","name":"gl_4/frame_ms","unit":"ms","direction":"lower"}
{"type":"metric","name":"upload 4K","unit":"MiB/s","direction":"higher"}
{"type":"metric","name":"size","unit":"B","direction":"lower","exact":true}
{"type":"metric","name":"idle","unit":"fps","direction":"lower"}
{"type":"environment","id":"env-0000000000000001","kernel_release":"6.8.0","gpu_driver":"i915","gpu_pci_id":"8086:56a0","tags":{"kernel":"6.8","mesa":"24.0"}}
{"type":"environment","id":"env-0000000000000002","kernel_release":"6.9.1","gpu_driver":"xe","tags":{"kernel":"6.9","gpu":"A770","empty":""}}
{"type":"run","variant":"baseline","run":0,"exit":{"class":"ok"},"environment":"env-0000000000000001","metrics":{"gl_4":577,"gl_manhattan":1144,"gl_4/frame_ms":[1.7,1.8],"size":1000},"design":"design-0000000000000001","block":0,"position":0}
{"type":"run","variant":"patched","run":0,"exit":{"class":"ok"},"environment":"env-0000000000000002","metrics":{"gl_4":583,"gl_manhattan":1202,"upload 4K":9000,"idle":3},"design":"design-0000000000000001","block":0,"position":1}
{"type":"run","variant":"patched","run":1,"exit":{"class":"fail","code":1},"environment":"env-0000000000000001","metrics":{"gl_4":12},"design":"design-0000000000000001","block":1,"position":0}
{"type":"run","variant":"baseline","run":1,"exit":{"class":"ok"},"environment":"env-0000000000000002","metrics":{"gl_4":[570,571],"upload 4K":8800,"size":1000},"design":"design-0000000000000001","block":1,"position":1}
{"type":"run","variant":"x:y (2)","run":0,"warmup":true,"exit":{"class":"ok"},"metrics":{"gl_4":500,"idle":2}}
{"type":"run","variant":"x:y (2)","run":1,"exit":{"class":"ok"},"metrics":{"gl_4":501,"gl_manhattan":1100}}
{"type":"run","variant":"baseline","run":2,"exit":{"class":"timeout"},"environment":"env-0000000000000002","metrics":{}}
)json";

const ResultsFile& fixed_results() {
    static const ResultsFile file = parse_results(kResults, "fixed.json");
    return file;
}

// Every observation of the fixed file, and each again without its run's
// environment (tags and fields null).
struct RunObservations {
    Observation run;  // o.name and o.unit empty
    std::vector<Observation> metrics;
};

std::vector<RunObservations> observations() {
    std::vector<RunObservations> out;
    const ResultsFile& f = fixed_results();
    for (bool with_environment : {true, false}) {
        for (const RunRecord& r : f.runs()) {
            const Environment* env = with_environment && !r.environment.empty() ? f.find_environment(r.environment)
                                                                                : nullptr;
            RunObservations ro;
            ro.run.variant = r.variant;
            ro.run.tags = env ? &env->tags : nullptr;
            ro.run.fields = env ? &env->fields : nullptr;
            for (const MetricValues& mv : r.metrics) {
                Observation o = ro.run;
                o.name = mv.name;
                o.unit = f.find_metric(mv.name)->unit;
                ro.metrics.push_back(o);
            }
            out.push_back(std::move(ro));
        }
    }
    return out;
}

std::optional<BenchFilter> read_filter(std::string_view text) {
    try {
        return BenchFilter::parse(text);
    } catch (const FilterSyntaxError& e) {
        const std::string m = e.what();
        const std::string head = "--filter: at column ";
        if (!m.starts_with(head)) fail("a filter error without its column", m);
        const size_t column = std::strtoul(m.c_str() + head.size(), nullptr, 10);
        if (column < 1 || column > text.size() + 1) fail("a filter error's column is outside the text", m);
        return std::nullopt;
    }
}

void fuzz_filter(std::string_view rest) {
    const size_t nul = rest.find('\0');
    const std::string_view text = rest.substr(0, nul);
    const std::optional<BenchFilter> filter = read_filter(text);
    if (!filter) return;
    if (filter->text() != text) fail("a filter does not keep its text");

    static const std::vector<RunObservations> all = observations();
    std::optional<BenchFilter> negated;
    if (!filter->empty()) {
        const std::string wrapped = "NOT (" + std::string(text) + ")";
        try {
            negated = BenchFilter::parse(wrapped);
        } catch (const FilterSyntaxError& e) {
            // Two levels more than the filter had may pass the limit.
            if (std::string(e.what()).find("nested deeper") == std::string::npos)
                fail("a filter that reads does not read inside NOT ( )", e.what());
        }
    }
    for (const RunObservations& ro : all) {
        const bool may = filter->may_match_run(ro.run);
        const bool may_not = !negated || negated->may_match_run(ro.run);
        if (negated && !may && !may_not) fail("a run ruled out by a filter and by its negation");
        for (const Observation& o : ro.metrics) {
            const bool m = filter->matches(o);
            if (negated && negated->matches(o) == m) fail("NOT (filter) does not match the other observations");
            if (m && !may) fail("an observation matched of a run that may_match_run ruled out");
            if (!m && negated && !may_not) fail("an observation not matched of a run whose negation was ruled out");
        }
    }
    if (filter->empty())
        for (const RunObservations& ro : all)
            for (const Observation& o : ro.metrics)
                if (!filter->matches(o)) fail("an empty filter that does not match everything");

    // --row and --col, when the input goes on past the filter.
    Projection row = Projection::rows(), col = Projection::columns();
    if (nul != std::string_view::npos) {
        std::string_view keys = rest.substr(nul + 1);
        const size_t second = keys.find('\0');
        try {
            row = Projection::parse(keys.substr(0, second), "--row");
            if (second != std::string_view::npos) col = Projection::parse(keys.substr(second + 1), "--col");
        } catch (const std::invalid_argument& e) {
            const std::string m = e.what();
            if (!m.starts_with("--row: ") && !m.starts_with("--col: ")) fail("a key list's error without its option", m);
            return;
        }
    }
    const ResultsFile& in = fixed_results();
    ProjectedResults p;
    try {
        p = project_results(in, *filter, row, col);
    } catch (const std::invalid_argument& e) {
        if (!std::string(e.what()).starts_with("--row: ")) fail("a projection's error without its option", e.what());
        return;
    }
    size_t observed = 0;
    for (const RunRecord& r : in.runs()) observed += r.metrics.size();
    if (p.kept + p.dropped != observed) fail("a projection does not count every observation once");
    if (p.file.runs().empty() && p.kept > 0 && p.notes.empty())
        fail("a projection that kept observations and gave nothing, without a note");
    check_written_and_read(p.file, "a projected file");
}

// ---- a suite's CSV ------------------------------------------------------------------------------

// A file for the table, made once: the importer reads a path. libFuzzer
// ends with exit(), so the file goes with the process.
char scratch_name[] = "/tmp/gfxstat_fuzz_suite_XXXXXX";

const std::string& scratch_path() {
    static const std::string path = [] {
        const int fd = mkstemp(scratch_name);
        if (fd < 0) std::abort();
        close(fd);
        std::atexit([] { unlink(scratch_name); });
        return std::string(scratch_name);
    }();
    return path;
}

void write_scratch(std::string_view text) {
    FILE* out = std::fopen(scratch_path().c_str(), "wb");
    if (!out) std::abort();
    if (!text.empty() && std::fwrite(text.data(), 1, text.size(), out) != text.size()) std::abort();
    std::fclose(out);
}

ResultsFile empty_results() {
    ResultsFile f;
    f.header.id = "0000000000000000000000000000c5f0";
    f.header.created = "2026-12-03T00:00:00Z";
    f.header.generator = "fuzz";
    return f;
}

// The roles, from seven bytes: flags, then the columns of --bench-col,
// --variant-col, the first and second --value-col (or --variant-cols),
// --run-col and --boot-col, each an index into the header's names (one
// past them: a column the header lacks). Flags: 1 wide, 2 a run column,
// 4 a boot column, 8 --label, 16 --metric gl_4, 32 --unit for the first
// value column (and --unit fps for all), 64 a second value column (long)
// or --variant-cols (wide), 128 --lower-is-better.
struct Roles {
    formats::CsvColumnRoles roles;
    formats::ImportOptions options;
};

Roles roles_of(std::string_view bytes, const std::vector<std::string>& names) {
    const auto name = [&](size_t i) {
        const size_t k = static_cast<uint8_t>(bytes[i]) % (names.size() + 1);
        return k < names.size() ? names[k] : std::string("no such column");
    };
    const uint8_t flags = static_cast<uint8_t>(bytes[0]);
    Roles r;
    r.roles.bench = name(1);
    if (flags & 1) {
        if (flags & 64) r.roles.variant_cols = {name(3), name(4)};
    } else {
        r.roles.variant = name(2);
        r.roles.values = {name(3)};
        if (flags & 64) r.roles.values.push_back(name(4));
        if (flags & 32) r.roles.units[name(3)] = "ms";
    }
    if (flags & 2) r.roles.run = name(5);
    if (flags & 4) r.roles.boot = name(6);
    if (flags & 8) r.options.label = "patched";
    if (flags & 16) r.options.metric = "gl_4";
    if (flags & 32) r.options.unit = "fps";
    if (flags & 128) r.options.direction = Direction::lower_is_better;
    return r;
}

// One CSV cell, quoted: its text comes back exactly.
std::string csv_cell(std::string_view text) {
    std::string s = "\"";
    for (char c : text) s += c == '"' ? std::string("\"\"") : std::string(1, c);
    return s + "\"";
}

// The long table of a wide one's observations, row by row and, within a
// row, in the order of the variant columns (the order the wide importer
// reads them), empty cells included: the same cells in the same order.
std::string as_long_table(const std::vector<formats::csv::Row>& rows, const std::vector<std::string>& names,
                          const formats::CsvColumnRoles& roles, formats::CsvColumnRoles& long_roles) {
    const auto index = [&](const std::string& n) -> std::optional<size_t> {
        for (size_t j = 0; j < names.size(); ++j)
            if (names[j] == n) return j;
        return std::nullopt;
    };
    const size_t bench = *index(roles.bench);
    const std::optional<size_t> run = roles.run.empty() ? std::nullopt : index(roles.run);
    const std::optional<size_t> boot = roles.boot.empty() ? std::nullopt : index(roles.boot);
    std::vector<size_t> variants;
    for (size_t j = 0; j < names.size(); ++j) {
        const bool listed = roles.variant_cols.empty()
                                ? j != bench && j != run && j != boot
                                : std::find(roles.variant_cols.begin(), roles.variant_cols.end(), names[j]) !=
                                      roles.variant_cols.end();
        if (listed) variants.push_back(j);
    }
    long_roles.bench = "bench";
    long_roles.variant = "variant";
    long_roles.values = {"value"};
    if (run) long_roles.run = "run";
    if (boot) long_roles.boot = "boot";
    std::string text = std::string("variant,bench,value") + (run ? ",run" : "") + (boot ? ",boot" : "") + "\n";
    for (size_t r = 1; r < rows.size(); ++r) {
        const auto& cells = rows[r].cells;
        for (size_t j : variants) {
            text += csv_cell(names[j]) + "," + csv_cell(cells[bench].text) + "," + csv_cell(cells[j].text);
            if (run) text += "," + csv_cell(cells[*run].text);
            if (boot) text += "," + csv_cell(cells[*boot].text);
            text += "\n";
        }
    }
    return text;
}

void fuzz_csv_suite(std::string_view rest) {
    constexpr size_t kRoleBytes = 7;
    if (rest.size() < kRoleBytes) return;
    const std::string_view text = rest.substr(kRoleBytes);
    const std::string& path = scratch_path();
    std::vector<formats::csv::Row> rows;
    std::vector<std::string> names;
    try {
        rows = formats::csv::split_rows(text, path);
        if (!rows.empty()) names = formats::csv::header_names(rows[0], path);
    } catch (const InputError&) {
        // The importer meets the same error; the roles name columns it lacks.
    }
    const Roles r = roles_of(rest.substr(0, kRoleBytes), names);
    write_scratch(text);
    const std::string problem = formats::column_roles_problem(r.roles);
    ResultsFile out = empty_results();
    try {
        formats::import_csv_suite(path, r.options, r.roles, out);
    } catch (const std::invalid_argument& e) {
        if (problem.empty()) fail("import_csv_suite refused roles that column_roles_problem accepts", e.what());
        return;
    } catch (const InputError& e) {
        if (!problem.empty()) fail("import_csv_suite read a file with roles it refuses", problem);
        if (!std::string(e.what()).starts_with(path)) fail("a suite's error does not name its file", e.what());
        return;
    }
    if (!problem.empty()) fail("import_csv_suite imported with roles it refuses", problem);
    if (out.runs().empty()) fail("a suite imported without runs");
    check_written_and_read(out, "an imported suite");

    if (!r.roles.wide()) return;
    formats::CsvColumnRoles long_roles;
    const std::string long_text = as_long_table(rows, names, r.roles, long_roles);
    write_scratch(long_text);
    ResultsFile from_long = empty_results();
    try {
        formats::import_csv_suite(path, r.options, long_roles, from_long);
    } catch (const std::exception& e) {
        fail("a wide table imports, the same observations as a long one do not", e.what());
    }
    if (const std::string a = serialize_results(out), b = serialize_results(from_long); a != b)
        fail("a wide table and the long table of the same observations import differently", first_difference(a, b));
}

}  // namespace

void fuzz_suite_input(uint8_t selector, std::string_view rest) {
    switch ((selector - kSuiteSelector) % 3) {
        case 0: fuzz_summary(rest); break;
        case 1: fuzz_filter(rest); break;
        default: fuzz_csv_suite(rest); break;
    }
}

}  // namespace gfxstat::fuzz
