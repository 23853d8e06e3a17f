// SPDX-License-Identifier: MIT
// --from csv: a table with one row per run and one column per metric, as a
// spreadsheet or a pandas script writes it (RFC 4180). Columns named
// `variant`, `boot` and `run` say which run a row is; every other column is
// a metric holding one value per run. Suites' tables, a row per
// observation (long) or per benchmark (wide), are read by
// formats/csv_suite.cpp when the command line names the columns' roles.
//
// Import only, no `run --parser csv`: a CSV table is many runs (one per row,
// of several variants), written after the fact by a spreadsheet or a
// script; no program prints one as the output of a single run, which is
// what `run --parser` reads.
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "formats/csv_table.h"
#include "formats/format_list.h"
#include "formats/import_support.h"
#include "data/input_error.h"

namespace gfxstat::formats {

// The results model and the input errors this importer fills.
using namespace gfxstat::data;

namespace {

using csv::Cell;
using csv::Row;
using csv::quoted_name;

// What the header says each column is.
struct Layout {
    std::optional<size_t> variant, boot, run;
    std::vector<size_t> metrics;  // columns kept as metrics, in header order
    std::vector<std::string> names;
};

Layout read_header(const Row& header, const std::string& path, const ImportOptions& options) {
    Layout layout;
    std::vector<size_t> all_metrics;
    layout.names = csv::header_names(header, path);
    for (size_t j = 0; j < layout.names.size(); ++j) {
        const std::string& name = layout.names[j];
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
    const std::vector<Row> rows = csv::split_rows(read_whole_file(path), path);
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
        csv::check_width(row, width, path);
        RunRecord run;
        if (layout.variant) {
            run.variant = row.cells[*layout.variant].text;
            if (run.variant.empty()) throw input_error(path, row.line, "empty cell in column 'variant'");
        } else {
            run.variant = fixed_label;
        }
        if (layout.boot) run.boot = row.cells[*layout.boot].text;
        if (layout.run) {
            run.run = csv::parse_run_index(row.cells[*layout.run], "run", path);
        } else {
            auto it = next_index.try_emplace(run.variant, out.next_run_index(run.variant)).first;
            run.run = it->second++;
        }
        for (size_t j : layout.metrics) {
            const Cell& cell = row.cells[j];
            if (cell.text.empty()) continue;  // this run did not report the metric
            MetricValues values;
            values.name = layout.names[j];
            values.values.push_back(csv::parse_value(cell, values.name, path));
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
