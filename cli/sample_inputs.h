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

namespace gfxstat::cli {

struct SampleInput {
    std::string path;  // "-" for standard input
    std::string name;  // shown in reports and errors
};

// What to take from results files: --metric and --variant.
struct ResultsChoice {
    std::string metric;                 // empty: the file's only metric
    std::vector<std::string> variants;  // empty: all, in order of appearance
};

struct LoadedSample {
    data::Sample sample;
    bool from_results = false;
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
    std::string error;
    // The input could not be opened (errno; 0 otherwise): ministat exits 1
    // there, as Debian's does (err(1, "Cannot open %s")), not 2.
    int open_errno = 0;
    std::vector<std::string> notes;  // e.g. a torn last record that was ignored
};

// `then(input, k, sample)`, if given, runs on the input's thread for each of
// its samples right after it was read: statistics are computed in parallel.
// A results file's samples are named after their variants, prefixed with
// "NAME:" when there are several inputs.
std::vector<InputOutcome> read_inputs_parallel(
    const std::vector<SampleInput>& inputs, const data::ColumnFormat& format,
    const ResultsChoice& choice,
    const std::function<void(size_t, size_t, LoadedSample&)>& then = {});

// A selection's samples, one per variant, named as read_inputs_parallel
// names them (`qualify`: "NAME:variant").
std::vector<LoadedSample> loaded_samples(data::MetricSelection&& sel, const std::string& name, bool qualify);

// data::select_metric, a --metric the file lacks answered with the nearest
// names it holds ("did you mean latency?", cli/nearest_word.h).
data::MetricSelection select_metric_suggesting(const data::ResultsFile& file, const std::string& name,
                                               std::string_view metric, const std::vector<std::string>& variants);

// One input read whole, whichever kind it is: a column file's sample, or a
// parsed results file (for commands that need every metric of it).
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
