// SPDX-License-Identifier: MIT
// A suite's results as CSV (`gfxstat import --from csv --bench-col ...`):
// many benchmarks (GfxBench's tests, an IGT benchmark's subtests) measured
// for a few variants, in either of the two shapes such tables come in.
//
//   long: one row per observation, as pandas' melt() writes it:
//           variant,test,fps
//           before,gl_4,577
//         --variant-col variant --bench-col test --value-col fps
//   wide: one row per benchmark, one column per variant:
//           test,before,after
//           gl_4,577,583
//         --bench-col test   (every other column is a variant,
//                             or those of --variant-cols)
//
// Each benchmark becomes a metric of its name (with several value
// columns, BENCH/COLUMN). Without a run column the k-th row of a
// benchmark (of a variant) is run k of that variant, so that 6 passes of
// 10 tests give 6 runs of 10 metrics per variant, as one GfxBench pass
// reports every test. Both shapes feed one SuiteBuilder, which alone
// decides what is declared and in which order runs are written: the same
// data as long and as wide CSV gives the same results file.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "data/number_token.h"
#include "formats/import_support.h"

namespace gfxstat::formats {

// What the command line says each column of a suite's table holds.
struct CsvColumnRoles {
    std::string bench;                      // --bench-col: the benchmark's name
    std::string variant;                    // --variant-col (long): the variant's label
    std::vector<std::string> values;        // --value-col (long): measured quantities, in order
    std::vector<std::string> variant_cols;  // --variant-cols (wide): the variant columns to read; empty: all
    std::string boot, run;                  // --boot-col, --run-col: optional, either shape
    std::map<std::string, std::string> units;  // --unit COL=U: the unit of value column COL
    // A hint for a column name the header lacks ("; did you mean test?"),
    // or "": the command line passes its did-you-mean. Unset: no hints.
    std::function<std::string(std::string_view typed, const std::vector<std::string>& header)> suggest;

    // Whether any role is given: the table is a suite's, long or wide.
    bool any() const;
    // The wide shape: a column per variant (no --variant-col, no --value-col).
    bool wide() const { return variant.empty() && values.empty(); }
};

// Why `roles` describe neither shape ("--value-col needs --bench-col"),
// or "" when they describe one: checked before any file is read.
std::string column_roles_problem(const CsvColumnRoles& roles);

// Adds the runs of the suite table at `path` to `out` (run indices
// continue from out.next_run_index(variant) without a run column).
// --label names the variant of a long table without --variant-col;
// --metric keeps one metric; --unit and the direction options apply as
// for every format. Throws data::InputError naming file and line, and
// std::invalid_argument when column_roles_problem(roles) is not "".
void import_csv_suite(const std::string& path, const ImportOptions& options, const CsvColumnRoles& roles,
                      data::ResultsFile& out);

// The builder both shapes share ---------------------------------------------

// A measured quantity: a value column of the long shape, or the one
// quantity of the wide shape. `name` "": the metric is the benchmark's
// name; else BENCH/name.
struct SuiteQuantity {
    std::string name;
    std::string unit;  // "": --unit's, if any
};

// One benchmark of one variant, measured once: a row of the long shape,
// a cell of the wide one.
struct SuiteCell {
    std::string variant, bench;
    std::optional<uint64_t> run;  // a run column's index; nullopt: the k-th cell of (variant, bench) is run k
    std::string boot;
    size_t line = 0;
    std::vector<std::optional<data::NumberToken>> values;  // one per quantity; nullopt: not measured
};

class SuiteBuilder {
public:
    SuiteBuilder(std::string path, std::vector<SuiteQuantity> quantities);

    // Throws data::InputError naming the cell's line for a benchmark given
    // twice in one run, or a run whose cells name different boots.
    void add(const SuiteCell& cell);

    // Declares the metrics that have values, in order of first appearance,
    // and adds the runs in one canonical order: by run index, then variant
    // in order of first appearance (interleaved, as the passes ran), each
    // run's metrics in declaration order. A run without values is left
    // out. Throws data::InputError for --metric naming no metric, a run
    // `out` already holds, or no value at all.
    void finish(const ImportOptions& options, data::ResultsFile& out) const;

private:
    struct Run {
        size_t variant = 0;  // index into variants_
        uint64_t index = 0;  // relative to out.next_run_index(variant) unless explicit_runs_
        size_t line = 0;     // of its first cell
        std::string boot;
        std::map<std::string, size_t> benches;             // bench -> line, to refuse a second
        std::map<size_t, data::NumberToken> values;        // metric index -> value
    };
    struct Metric {
        std::string name, unit;
        bool has_value = false;
    };

    size_t variant_index(const std::string& variant);
    size_t metric_index(const std::string& name, const std::string& unit);

    std::string path_;
    std::vector<SuiteQuantity> quantities_;
    std::vector<std::string> variants_;
    std::map<std::string, size_t> variant_indices_;
    std::vector<Metric> metrics_;
    std::map<std::string, size_t> metric_indices_;
    std::map<std::pair<size_t, std::string>, uint64_t> repetitions_;  // (variant, bench) -> cells so far
    std::map<std::pair<size_t, uint64_t>, Run> runs_;                 // (variant, index)
    std::optional<bool> explicit_runs_;
};

}  // namespace gfxstat::formats
