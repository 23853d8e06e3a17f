// SPDX-License-Identifier: MIT
// Reads the inputs of the commands that take numbers (ministat, summary):
// column files, or results files (told apart by their first byte), several
// at once, one thread per file (two cores read two files in the time of
// one). A results file gives one sample per selected variant of one metric.
// Errors are reported in argument order so that messages do not depend on
// thread timing.
#pragma once

#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/column_file.h"
#include "data/results_model.h"
#include "data/results_select.h"
#include "findings/metric_selection.h"
#include "findings/sample_input.h"

namespace gfxstat::cli {

// One command-line file argument, as benchstat and ministat users write it:
//   - an existing path, or "-", is that path, whatever it holds ('=', ':');
//   - else LABEL=PATH, when PATH (after the first '=') exists or is "-";
//   - else PATH:N (N digits, 1 to 1000000, after the last ':') when PATH
//     exists or is "-": column N of that column file; `old=a.txt:2` is both;
//   - else the path as given (opening it then fails with its name).
// `name` is the path. Throws data::InputError naming the argument for a
// label that is empty or holds a control character (labels are printed in
// reports).
SampleInput parse_sample_argument(const std::string& arg);

// An input that could not be opened (read_input, read_inputs_parallel):
// ministat exits 1 there, as Debian's does, not 2.
struct InputOpenError : data::InputError {
    InputOpenError(const std::string& path, int e);
    int err;
};

// What to take from results files: --metric and --variant.
struct ResultsChoice {
    std::string metric;                 // empty: the file's only metric
    std::vector<std::string> variants;  // empty: all, in order of appearance
    // Results files are kept whole (InputOutcome::results) instead of
    // selected: `always`, or `when_several` per-run metrics are declared
    // and `metric` is empty (one report per metric; ministat).
    enum class Whole { never, when_several, always };
    Whole whole = Whole::never;
};

struct LoadedSample {
    data::Sample sample;  // named after the data set: label, file name or variant
    bool from_results = false;
    std::string source;   // the file's name, for messages about the file
    int column = 0;       // column files: the column read
    // Column files: lines skipped for lacking the column.
    size_t lines_without_column = 0;
    size_t first_line_without_column = 0;
    // Results files: the metric, and the runs left out.
    data::MetricInfo metric;
    data::SelectionCounts counts;
    data::BootLayout layout;  // boot ids, when the runs carry them
};

struct InputOutcome {
    std::vector<LoadedSample> samples;  // empty when error is set
    // A results file kept whole (ResultsChoice::whole): then no samples.
    std::optional<data::ResultsFile> results;
    std::string error;
    // The input could not be opened (errno; 0 otherwise): ministat exits 1
    // there, as Debian's does (err(1, "Cannot open %s")), not 2.
    int open_errno = 0;
    std::vector<std::string> notes;  // e.g. a torn last record that was ignored
};

// `then(input, k, sample)`, if given, runs on the input's thread for each of
// its samples right after it was read: statistics are computed in parallel.
// A results file's samples are named after their variants, prefixed with
// "NAME:" when there are several inputs, or by the input's label. Each
// input is read with its own column when it has one.
std::vector<InputOutcome> read_inputs_parallel(
    const std::vector<SampleInput>& inputs, const data::ColumnFormat& format,
    const ResultsChoice& choice,
    const std::function<void(size_t, size_t, LoadedSample&)>& then = {});

// A selection's samples, one per variant, named as read_inputs_parallel
// names them (`qualify`: "NAME:variant").
std::vector<LoadedSample> loaded_samples(data::MetricSelection&& sel, const std::string& name, bool qualify);

// loaded_samples for input `in`: named by its label when it has one (then
// the selection must hold one variant; throws data::InputError otherwise).
std::vector<LoadedSample> input_samples(data::MetricSelection&& sel, const SampleInput& in, bool qualify);

// One input read whole, whichever kind it is: a column file's sample (the
// input's column, named by its label when it has one), or a parsed results
// file (for commands that need every metric of it; its label is the
// caller's to apply). Throws InputOpenError, or data::InputError.
struct RawInput {
    std::optional<data::ColumnFile> column;
    std::optional<data::ResultsFile> results;
    std::vector<std::string> notes;  // e.g. a torn last record that was ignored
};
RawInput read_input(const SampleInput& in, const data::ColumnFormat& format);

// Prints to `err` what reading left out: lines without the column, runs
// that failed or were warm-ups, a torn last record (names escaped).
void warn_left_out(const char* prog, const InputOutcome& outcome, const data::ColumnFormat& format,
                   FILE* err = stderr);

}  // namespace gfxstat::cli
