// SPDX-License-Identifier: MIT
// --from csv with column roles: the long and wide tables of a suite's
// results (formats/csv_suite.h), read row by row into one SuiteBuilder.
#include "formats/csv_suite.h"

#include <algorithm>
#include <stdexcept>

#include "data/input_error.h"
#include "formats/csv_table.h"

namespace gfxstat::formats {

// The results model and the input errors this importer fills.
using namespace gfxstat::data;
using csv::quoted_name;

namespace {

std::string join(const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

std::string run_name(uint64_t run, const std::string& variant) {
    return "run " + std::to_string(run) + " of variant " + quoted_name(variant);
}

}  // namespace

// Roles and their checks ------------------------------------------------------

bool CsvColumnRoles::any() const {
    return !bench.empty() || !variant.empty() || !values.empty() || !variant_cols.empty() || !boot.empty() ||
           !run.empty() || !units.empty();
}

std::string column_roles_problem(const CsvColumnRoles& roles) {
    if (!roles.any()) return {};
    if (roles.bench.empty()) {
        const char* given = !roles.values.empty()         ? "--value-col"
                            : !roles.variant.empty()      ? "--variant-col"
                            : !roles.variant_cols.empty() ? "--variant-cols"
                            : !roles.run.empty()          ? "--run-col"
                            : !roles.boot.empty()         ? "--boot-col"
                                                          : "--unit COL=UNIT";
        return std::string(given) +
               " describes a suite's table and needs --bench-col, the column of benchmark names "
               "(a table of one row per run names its columns variant, boot and run instead)";
    }
    if (!roles.variant_cols.empty() && (!roles.variant.empty() || !roles.values.empty()))
        return "--variant-cols picks the variant columns of a wide table (a row per benchmark); "
               "--variant-col and --value-col describe a long one (a row per observation): use one shape";
    if (!roles.variant.empty() && roles.values.empty())
        return "--variant-col describes a long table (a row per observation) and needs --value-col, "
               "the column of values";
    for (const auto& [column, unit] : roles.units) {
        if (std::find(roles.values.begin(), roles.values.end(), column) == roles.values.end())
            return "--unit " + column + "=" + unit + ": " + quoted_name(column) + " is not a --value-col" +
                   (roles.values.empty() ? " (there is none: give --unit UNIT alone)"
                                         : " (value columns: " + join(roles.values) + ")");
    }
    // One column, one role: a name given twice is a typo, and would make
    // a column both a benchmark and a value.
    std::vector<std::pair<std::string, std::string>> named;  // (column, option)
    const auto note = [&](const std::string& column, const char* option) {
        if (!column.empty()) named.emplace_back(column, option);
    };
    note(roles.bench, "--bench-col");
    note(roles.variant, "--variant-col");
    note(roles.boot, "--boot-col");
    note(roles.run, "--run-col");
    for (const std::string& v : roles.values) {
        if (v.empty()) return "--value-col needs a column name";
        note(v, "--value-col");
    }
    for (const std::string& v : roles.variant_cols) {
        if (v.empty()) return "--variant-cols needs column names, separated by ','";
        note(v, "--variant-cols");
    }
    for (size_t i = 0; i < named.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (named[i].first == named[j].first)
                return "column " + quoted_name(named[i].first) + " is named by " + named[j].second +
                       (named[i].second == named[j].second ? " twice" : " and by " + named[i].second) +
                       ": a column has one role";
    return {};
}

// The builder ---------------------------------------------------------------------

SuiteBuilder::SuiteBuilder(std::string path, std::vector<SuiteQuantity> quantities)
    : path_(std::move(path)), quantities_(std::move(quantities)) {}

size_t SuiteBuilder::variant_index(const std::string& variant) {
    const auto [it, added] = variant_indices_.try_emplace(variant, variants_.size());
    if (added) variants_.push_back(variant);
    return it->second;
}

size_t SuiteBuilder::metric_index(const std::string& name, const std::string& unit) {
    const auto [it, added] = metric_indices_.try_emplace(name, metrics_.size());
    if (added) metrics_.push_back({name, unit, false});
    return it->second;
}

void SuiteBuilder::add(const SuiteCell& cell) {
    if (cell.values.size() != quantities_.size())
        throw std::logic_error("SuiteBuilder::add: one value per quantity expected");
    if (explicit_runs_ && *explicit_runs_ != cell.run.has_value())
        throw std::logic_error("SuiteBuilder::add: every cell gives its run index, or none does");
    explicit_runs_ = cell.run.has_value();

    const size_t variant = variant_index(cell.variant);
    uint64_t index = 0;
    if (cell.run) index = *cell.run;
    else index = repetitions_[{variant, cell.bench}]++;

    // Metrics in order of first appearance, measured or not: an empty cell
    // of a wide table and the same row of a long one keep their place.
    std::vector<size_t> metric_of;
    for (const SuiteQuantity& q : quantities_) {
        const std::string name = q.name.empty() ? cell.bench : cell.bench + "/" + q.name;
        const size_t m = metric_index(name, q.unit);
        if (metrics_[m].unit != q.unit)
            throw input_error(path_, cell.line,
                              "metric " + quoted_name(name) + " is named twice, with units " +
                                  quoted_name(metrics_[m].unit) + " and " + quoted_name(q.unit));
        metric_of.push_back(m);
    }

    const auto [it, fresh] = runs_.try_emplace({variant, index});
    Run& run = it->second;
    if (fresh) {
        run.variant = variant;
        run.index = index;
        run.line = cell.line;
        run.boot = cell.boot;
    } else if (run.boot != cell.boot) {
        throw input_error(path_, cell.line,
                          run_name(index, cell.variant) + " is in boot " + quote_token(cell.boot) +
                              " here but in boot " + quote_token(run.boot) + " on line " +
                              std::to_string(run.line) + ": a run is in one boot");
    }
    const auto [b, first] = run.benches.try_emplace(cell.bench, cell.line);
    if (!first)
        throw input_error(path_, cell.line,
                          "benchmark " + quoted_name(cell.bench) + " of " + run_name(index, cell.variant) +
                              " is recorded twice (also on line " + std::to_string(b->second) + ")");
    for (size_t q = 0; q < quantities_.size(); ++q) {
        if (!cell.values[q]) continue;
        run.values.emplace(metric_of[q], *cell.values[q]);
        metrics_[metric_of[q]].has_value = true;
    }
}

void SuiteBuilder::finish(const ImportOptions& options, ResultsFile& out) const {
    std::vector<bool> kept(metrics_.size());
    for (size_t m = 0; m < metrics_.size(); ++m)
        kept[m] = metrics_[m].has_value && (options.metric.empty() || metrics_[m].name == options.metric);
    if (!options.metric.empty() && std::find(kept.begin(), kept.end(), true) == kept.end()) {
        std::vector<std::string> names;
        for (const Metric& m : metrics_)
            if (m.has_value) names.push_back(m.name);
        throw input_error(path_, 0, "no metric " + quoted_name(options.metric) + "; the file has: " + join(names));
    }

    // The canonical order: run index, then variant by first appearance.
    struct Placed {
        uint64_t index;
        const Run* run;
    };
    std::vector<Placed> placed;
    for (const auto& [key, run] : runs_) {
        const bool any = std::any_of(run.values.begin(), run.values.end(),
                                     [&](const auto& v) { return kept[v.first]; });
        if (!any) continue;  // nothing measured (empty cells), or only metrics --metric leaves out
        const uint64_t base = explicit_runs_.value_or(false) ? 0 : out.next_run_index(variants_[run.variant]);
        if (run.index > kMaxRunIndex - base)
            throw input_error(path_, run.line, "run index beyond " + std::to_string(kMaxRunIndex));
        placed.push_back({base + run.index, &run});
    }
    if (placed.empty()) throw input_error(path_, 0, "every value cell is empty: no runs to import");
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
        return a.index != b.index ? a.index < b.index : a.run->variant < b.run->variant;
    });
    // Checked before anything is added, so that a clash leaves `out` as it was.
    for (const Placed& p : placed)
        if (out.find_run("", variants_[p.run->variant], p.index))
            throw input_error(path_, p.run->line,
                              run_name(p.index, variants_[p.run->variant]) +
                                  " is recorded twice (also in the results file)");

    for (size_t m = 0; m < metrics_.size(); ++m) {
        if (!kept[m]) continue;
        MetricInfo info;
        info.name = metrics_[m].name;
        info.unit = metrics_[m].unit;
        import_declare_metric(out, path_, info, options);
    }
    const std::string environment = import_environment(out, {}, options);
    for (const Placed& p : placed) {
        RunRecord run;
        run.variant = variants_[p.run->variant];
        run.run = p.index;
        run.boot = p.run->boot;
        run.environment = environment;
        // A run gathers many rows (a long table's) or cells of many rows (a
        // wide table's): no one line is where it was found.
        run.source = path_;
        for (const auto& [m, value] : p.run->values)  // metric index order: declaration order
            if (kept[m]) run.metrics.push_back(MetricValues{SharedString(metrics_[m].name), {value}, false});
        import_add_run(out, path_, p.run->line, std::move(run));
    }
}

// The two shapes --------------------------------------------------------------------

namespace {

struct Table {
    std::vector<csv::Row> rows;
    std::vector<std::string> names;  // the header's
};

Table read_table(const std::string& path) {
    Table t;
    t.rows = csv::split_rows(read_whole_file(path), path);
    if (t.rows.empty()) throw input_error(path, 0, "empty file: expected a header row");
    t.names = csv::header_names(t.rows[0], path);
    if (t.rows.size() == 1) throw input_error(path, t.rows[0].line, "a header and no rows: no runs to import");
    return t;
}

// The index of the column `name` that `option` names.
size_t column(const Table& t, const std::string& name, const char* option, const CsvColumnRoles& roles,
              const std::string& path) {
    const auto it = std::find(t.names.begin(), t.names.end(), name);
    if (it != t.names.end()) return static_cast<size_t>(it - t.names.begin());
    const std::string hint = roles.suggest ? roles.suggest(name, t.names) : std::string();
    throw input_error(path, t.rows[0].line,
                      "no column " + quoted_name(name) + " for " + option + " (the header has: " + join(t.names) +
                          ")" + hint);
}

std::optional<size_t> optional_column(const Table& t, const std::string& name, const char* option,
                                      const CsvColumnRoles& roles, const std::string& path) {
    if (name.empty()) return std::nullopt;
    return column(t, name, option, roles, path);
}

// The benchmark's name, the run index and the boot of a row, as both shapes read them.
struct RowKeys {
    size_t bench = 0;
    std::optional<size_t> run, boot;
};

void fill_keys(SuiteCell& cell, const csv::Row& row, const RowKeys& keys, const Table& t, const std::string& path) {
    cell.line = row.line;
    cell.bench = row.cells[keys.bench].text;
    if (cell.bench.empty())
        throw input_error(path, row.line,
                          "empty cell in column " + quoted_name(t.names[keys.bench]) +
                              " (--bench-col): expected the benchmark's name");
    if (keys.run) cell.run = csv::parse_run_index(row.cells[*keys.run], t.names[*keys.run], path);
    if (keys.boot) cell.boot = row.cells[*keys.boot].text;
}

std::optional<NumberToken> value_of(const csv::Cell& cell, const std::string& column, const std::string& path) {
    if (cell.text.empty()) return std::nullopt;  // not measured
    return csv::parse_value(cell, column, path);
}

void read_long(const Table& t, const std::string& path, const ImportOptions& options, const CsvColumnRoles& roles,
               SuiteBuilder& builder) {
    RowKeys keys;
    keys.bench = column(t, roles.bench, "--bench-col", roles, path);
    const std::optional<size_t> variant = optional_column(t, roles.variant, "--variant-col", roles, path);
    std::vector<size_t> values;
    for (const std::string& v : roles.values) values.push_back(column(t, v, "--value-col", roles, path));
    keys.run = optional_column(t, roles.run, "--run-col", roles, path);
    keys.boot = optional_column(t, roles.boot, "--boot-col", roles, path);
    if (variant && !options.label.empty())
        throw input_error(path, t.rows[0].line,
                          "--variant-col names the column " + quoted_name(t.names[*variant]) +
                              " and --label also names the variant; use one or the other");
    const std::string fixed_label = options.label.empty() ? default_label(path) : options.label;

    for (size_t r = 1; r < t.rows.size(); ++r) {
        const csv::Row& row = t.rows[r];
        csv::check_width(row, t.names.size(), path);
        SuiteCell cell;
        fill_keys(cell, row, keys, t, path);
        if (variant) {
            cell.variant = row.cells[*variant].text;
            if (cell.variant.empty())
                throw input_error(path, row.line,
                                  "empty cell in column " + quoted_name(t.names[*variant]) +
                                      " (--variant-col): expected the variant's label");
        } else {
            cell.variant = fixed_label;
        }
        for (size_t j : values) cell.values.push_back(value_of(row.cells[j], t.names[j], path));
        builder.add(cell);
    }
}

void read_wide(const Table& t, const std::string& path, const ImportOptions& options, const CsvColumnRoles& roles,
               SuiteBuilder& builder) {
    RowKeys keys;
    keys.bench = column(t, roles.bench, "--bench-col", roles, path);
    keys.run = optional_column(t, roles.run, "--run-col", roles, path);
    keys.boot = optional_column(t, roles.boot, "--boot-col", roles, path);
    // The variant columns, in the header's order: the order variants
    // first appear in, as a long table of the same data would have them.
    std::vector<size_t> variants;
    if (!roles.variant_cols.empty()) {
        for (const std::string& v : roles.variant_cols) variants.push_back(column(t, v, "--variant-cols", roles, path));
        std::sort(variants.begin(), variants.end());
    } else {
        for (size_t j = 0; j < t.names.size(); ++j)
            if (j != keys.bench && j != keys.run && j != keys.boot) variants.push_back(j);
    }
    if (variants.empty())
        throw input_error(path, t.rows[0].line,
                          "no variant columns: in a wide table (--bench-col without --value-col) every column but "
                          "the benchmark's, the run's and the boot's is a variant, and the header has only " +
                              join(t.names));
    if (!options.label.empty()) {
        std::vector<std::string> labels;
        for (size_t j : variants) labels.push_back(t.names[j]);
        throw input_error(path, t.rows[0].line,
                          "--label names one variant, but in a wide table each variant column is a variant (" +
                              join(labels) + ")");
    }

    for (size_t r = 1; r < t.rows.size(); ++r) {
        const csv::Row& row = t.rows[r];
        csv::check_width(row, t.names.size(), path);
        SuiteCell cell;
        fill_keys(cell, row, keys, t, path);
        for (size_t j : variants) {
            cell.variant = t.names[j];
            cell.values = {value_of(row.cells[j], t.names[j], path)};
            builder.add(cell);
        }
    }
}

}  // namespace

void import_csv_suite(const std::string& path, const ImportOptions& options, const CsvColumnRoles& roles,
                      ResultsFile& out) {
    if (const std::string problem = column_roles_problem(roles); !problem.empty() || !roles.any())
        throw std::invalid_argument(problem.empty() ? "a suite table needs --bench-col" : problem);
    const Table table = read_table(path);
    if (roles.wide()) {
        SuiteBuilder builder(path, {SuiteQuantity{}});
        read_wide(table, path, options, roles, builder);
        builder.finish(options, out);
        return;
    }
    // One value column: the metric is the benchmark; several: BENCH/COLUMN.
    std::vector<SuiteQuantity> quantities;
    for (const std::string& v : roles.values) {
        const auto unit = roles.units.find(v);
        quantities.push_back({roles.values.size() == 1 ? std::string() : v,
                              unit == roles.units.end() ? std::string() : unit->second});
    }
    SuiteBuilder builder(path, std::move(quantities));
    read_long(table, path, options, roles, builder);
    builder.finish(options, out);
}

}  // namespace gfxstat::formats
