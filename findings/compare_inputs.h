// SPDX-License-Identifier: MIT
// compare's inputs (findings/compare_inputs.cpp): the samples of each metric
// from results files, after --filter, --row and --col.
#pragma once

#include <string>
#include <vector>

#include "data/results_model.h"
#include "findings/compare.h"
#include "findings/compare_findings.h"
#include "findings/sample_input.h"

namespace gfxstat::cli {

using findings::CompareChoices;

// The files' names, for messages.
std::vector<std::string> input_names(const std::vector<SampleInput>& inputs);

// One results file holding several variants, compared within itself: the
// samples of each metric, baseline and candidates (throws InputError).
std::vector<MetricReport> within_one_file(const std::string& name, const data::ResultsFile& file,
                                          const CompareChoices& ch);

// The metrics of results files: one file compared within itself
// (within_one_file), or one variant a file, BASELINE's metrics against each
// candidate file's, for the metrics they all hold. A label (LABEL=FILE)
// names a file's one variant. Throws InputError.
std::vector<MetricReport> results_metrics(const std::vector<SampleInput>& inputs,
                                          const std::vector<data::ResultsFile>& files, const CompareChoices& ch);

// --filter, --row and --col: each results file's observations filtered and
// relabelled (data/projection.h) before anything is selected, so that the
// multiplicity family is the benchmarks asked about; what was pooled goes
// into `notes`. With several files (one variant each) the columns are the
// files: only the rows may be projected. Throws InputError, and
// std::invalid_argument for a bad --row or --col.
void select_benchmarks(const findings::CompareOptions& s, const std::vector<SampleInput>& inputs,
                       std::vector<data::ResultsFile>& files, std::vector<std::string>& notes);

// After --row or --col a run holds only the observations of its column, so
// every row's sample misses the runs of the others: "runs without the
// metric" would be noise in the notes, and are not counted.
void forget_split_runs(const findings::CompareOptions& s, std::vector<MetricReport>& metrics);

}  // namespace gfxstat::cli
