// SPDX-License-Identifier: MIT
// Importers: turn the files other tools write (a column of numbers, CSV,
// hyperfine / Google Benchmark / Go / EzBench / Phoronix Test Suite output)
// into runs of a results file. Each format's importer lives in its file of
// formats/ beside its parser, if it has one; this header is what they share
// (and formats/saved_output.cpp, which imports saved program outputs).
// Every importer names file and line (or, for JSON input, the JSON path) in
// the InputError it throws for bad input.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/column_file.h"
#include "data/file_read.h"
#include "data/results_model.h"

namespace gfxstat::formats {

using data::ColumnFormat;
using data::Direction;
using data::MetricInfo;
using data::ResultsFile;
using data::RunRecord;

struct ImportOptions {
    // --label: the variant label for this file's runs; empty when not given
    // (each format then has its own default, documented per function).
    std::string label;
    // --metric: the metric's name for formats that do not name it (lines);
    // for formats that hold several metrics, keep only this one.
    std::string metric;
    std::string unit;                     // --unit, where the format has none
    std::optional<Direction> direction;   // --lower-is-better / --higher-is-better
    ColumnFormat column;                  // -C / -d, for lines
    std::map<std::string, std::string> tags;  // --tag key=value, on every run's environment
};

// Adds the runs read from `path` to `out` (which may already hold runs,
// from other files or from an existing results file). Run indices continue
// from out.next_run_index(variant). Throws InputError.
using Importer = void (*)(const std::string& path, const ImportOptions& options, ResultsFile& out);

void import_lines(const std::string& path, const ImportOptions& options, ResultsFile& out);
void import_csv(const std::string& path, const ImportOptions& options, ResultsFile& out);
void import_hyperfine(const std::string& path, const ImportOptions& options, ResultsFile& out);
void import_gbench(const std::string& path, const ImportOptions& options, ResultsFile& out);
void import_gotest(const std::string& path, const ImportOptions& options, ResultsFile& out);
void import_ezbench(const std::string& path, const ImportOptions& options, ResultsFile& out);
void import_pts(const std::string& path, const ImportOptions& options, ResultsFile& out);

// Shared helpers for importers (and saved outputs) ------------------------------------------

// "results/a.txt" -> "a": the default variant label for a file.
std::string default_label(const std::string& path);
// The environment every imported run of `path` gets: the --tag pairs plus
// `fields` the format itself knows (hostname, cpu_model, ...). Adds it to
// `out` and returns its id, or "" when there is nothing to record.
std::string import_environment(ResultsFile& out, std::map<std::string, std::string> fields,
                               const ImportOptions& options);
// Declares the metric, applying --unit / --lower-is-better where the format
// itself says nothing; throws InputError (naming `path`) on a conflict with
// an earlier declaration of the same name.
void import_declare_metric(ResultsFile& out, const std::string& path, MetricInfo metric,
                           const ImportOptions& options);
// True when `s` is one or more ASCII digits (an iteration count, an int()).
bool all_digits(std::string_view s);
// Adds a run, throwing InputError (naming `path` and `line`) on a conflict.
void import_add_run(ResultsFile& out, const std::string& path, size_t line, RunRecord run);

}  // namespace gfxstat::formats
