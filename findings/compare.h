// SPDX-License-Identifier: MIT
// compare's pipeline, as benchstat's benchtab builds its tables: the inputs
// read and the analysis settings in, the analysed model out
// (findings/compare_findings.h), ready for a renderer in report/. Nothing
// here prints: what a user should be told on the way (a torn record, runs
// of simulated boots) goes to the caller's NoteSink, in the order it is
// found, so that it comes out before an error that stops the comparison.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/results_model.h"
#include "data/sample.h"
#include "findings/advice_vocabulary.h"
#include "findings/compare_findings.h"
#include "findings/sample_input.h"
#include "findings/volatile_context.h"

namespace gfxstat::findings {

// --metric, --baseline and --variant.
struct CompareChoices {
    std::vector<std::string> metrics;   // empty: all
    std::string baseline;               // empty: the first variant
    std::vector<std::string> variants;  // empty: all others
    bool exact = false;                 // --exact: every metric compared is deterministic
};

// What decides the analysis (defaults as `gfxstat compare`'s); the command's
// settings (cli/compare_command.h) add how it is shown and where.
struct CompareOptions {
    CompareChoices choices;            // --metric, --baseline, --variant, --exact
    double confidence = 0.95;          // --confidence
    bool confidence_given = false;     // else a blocked design's is taken
    double threshold_pct = 1;          // --threshold, in percent
    bool threshold_given = false;
    bool fdr = false;                  // Benjamini-Hochberg instead of Holm
    bool diagnostics = true;           // --no-diagnostics clears it
    bool lower = false, higher = false;  // --lower-is-better, --higher-is-better
    std::vector<std::string> geomean;  // --geomean
    int width = 72;                    // --width: text lines at most this wide
    bool table = false;                // --table: the suite table, whatever the shape
    cli::SuiteLayout layout;           // --sort, --only-changed
    std::string filter;                // --filter EXPR (data/bench_filter.h)
    std::string row, col;              // --row, --col KEYS (data/projection.h); "" for the defaults
    int resamples = 9999;              // --bootstrap
    uint64_t seed = 12345;
    bool drop_outliers = false;
    bool drop_throttled = false;       // --drop-throttled
    cli::AdviceVocabulary advice;      // how the diagnostics' advice names the knobs
    bool note_simulated_boots = true;  // a note for runs of simulated boots
    // Each sample's values kept in run order (CompareReport::keep_run_order):
    // for a KCIDB export or a picture of the runs.
    bool keep_run_order = false;
    // --allow-image-change: images that differ do not fail --gate (the
    // verdicts still say they differ).
    bool allow_image_change = false;
};

// The inputs as read: one column file's sample per input, or one results
// file per input (never both), named as the user gave them.
struct CompareInputs {
    std::vector<cli::SampleInput> inputs;
    std::vector<data::Sample> columns;
    std::vector<data::ResultsFile> results;
};

// What compare found: the analysed report (each sample's run order kept
// when asked), the results files as compared (after --filter and
// --drop-throttled; empty for column files), and the inputs' names.
struct CompareFindings {
    cli::CompareReport report;
    std::vector<data::ResultsFile> files;
    std::vector<std::string> names;
    // The load, temperatures and clocks the compared runs met, and the
    // candidates that met systematically different ones than the baseline.
    VolatileContext context;
};

// kind ("note", "warning") and the text, unescaped names escaped by the
// caller's choice of words: the text is ready to print.
using NoteSink = std::function<void(const char* kind, const std::string& text)>;

// Selects the samples (--filter, --row, --col, --drop-throttled), analyses
// them (a suite measured once a side as pairs), and, when throttled runs
// are kept, the same comparison without them. Throws data::InputError (and
// std::invalid_argument from a statistic refusing its arguments).
CompareFindings compare(CompareInputs in, const CompareOptions& o, const NoteSink& note);

}  // namespace gfxstat::findings
