// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "report/ci/ci_exports.h"
#include "findings/compare.h"
#include "findings/compare_findings.h"
#include "data/column_file.h"
#include "data/results_model.h"

namespace CLI {
class App;
}

namespace gfxstat::cli {
// gfxstat compare [options] BASELINE CANDIDATE...
int compare_main(int argc, char** argv);

// --metric, --baseline and --variant (findings/compare.h).
using findings::CompareChoices;

// Every option of `gfxstat compare`, as parsed (defaults as compare's):
// the analysis's (findings::CompareOptions), and how and where its report
// is shown.
struct CompareSettings : findings::CompareOptions {
    std::string format = "text";       // text, markdown or json
    bool gate = false, strict = false;
    bool brief = false;                // --brief: one line per metric and candidate
    bool full = false;                 // --full: a report per benchmark, even for a suite
    bool summaries = false;            // --summaries: the files hold N, mean and sd per side
    // --junit, --openmetrics, --kcidb, --markdown, --json FILE: reports
    // written beside stdout's (report/ci/ci_exports.h).
    std::vector<ExportRequest> exports;
    std::string kcidb_origin = "gfxstat";  // --kcidb-origin
    data::ColumnFormat column;         // -C, -d (column files)
    std::string program = "gfxstat compare";  // what notes and errors on stderr begin with
    // Run once the command line parsed and before anything is compared, so
    // that a caller (campaign analyze) prints nothing before a usage error:
    // it may replace the positional `files` and change the settings; a
    // value returned is the exit status, and nothing is compared.
    std::function<std::optional<int>(std::vector<std::string>& files, CompareSettings& s)> after_parse;
    // --plot FILE (.svg, or .png through rsvg-convert) and --plot-kind
    // (report/plot_files.h): pictures of the comparison beside the report.
    std::string plot;
    std::string plot_kind = "distributions";
    // --store, --order and --git (store:SELECTION inputs, --store with
    // --baseline SELECTION; docs/store.md): compare's own, not campaign
    // analyze's, whose inputs are the campaign's files.
    bool store_options = true;
};

// compare's command line over settings a caller made (campaign analyze:
// the plan's knobs in the advice, and the simulated boots it explains itself).
int compare_main(int argc, char** argv, const CompareSettings& preset);

// Registers the report options on `app` (format, gate, strict, threshold,
// confidence, fdr, no-diagnostics, width, bootstrap, seed, drop-outliers,
// geomean, drop-throttled, the direction overrides): not --metric, --baseline, --variant
// nor the column-file options, which a caller (`gfxstat ab`) may have its
// own of. They write into `s`, which must outlive the parse.
// `for_runs` (gfxstat ab): the direction flags are left out (they are the
// run options that declare the parsed metrics' direction there) and the
// bootstrap seed is --bootstrap-seed (--seed seeds the order).
void add_report_options(CLI::App& app, CompareSettings& s, bool for_runs = false);
// --plot and --plot-kind (compare's own: `gfxstat ab` has none).
void add_plot_options(CLI::App& app, CompareSettings& s);

// compare's command line parsed into `s` (over a caller's preset) and
// `files`, s.after_parse run, and what does not go together refused
// (--summaries with options about runs, a --metric or --variant given
// twice). A value returned is the exit status (--help, a usage error).
std::optional<int> parse_compare_line(int argc, char** argv, CompareSettings& s, std::vector<std::string>& files);

// 2, with the error on stderr, when a --metric or --variant is given twice.
std::optional<int> refuse_repeated_choices(const CompareSettings& s);

}  // namespace gfxstat::cli
