// SPDX-License-Identifier: MIT
// gfxstat report: compare's analysis of the inputs, as compare makes it
// (the same options, the same statistics), drawn into one HTML page
// (report/report_page.h). Exit statuses: 0 written, 2 usage or input
// errors.
#include "cli/report_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>

#include "cli/command_line.h"
#include "cli/compare_command.h"
#include "cli/compare_output.h"
#include "cli/compare_reading.h"
#include "data/input_error.h"
#include "cli/store_option.h"
#include "data/safe_files.h"
#include "cli/sample_inputs.h"
#include "findings/compare_diagnostics.h"
#include "findings/frame_pictures.h"
#include "findings/show_overview.h"
#include "report/html_report.h"
#include "report/report_page.h"

namespace gfxstat::cli {

namespace {

// Each results file as `gfxstat show` describes it (nullopt for a file
// show refuses: no runs), for the page's environment section; its
// diagnostics only when compare's run too, and compare's where it made
// them, so that each sample is diagnosed once.
std::vector<std::optional<findings::ShowOverview>> show_overviews(const findings::CompareFindings& found,
                                                                  bool diagnostics) {
    std::vector<std::optional<findings::ShowOverview>> shows;
    const findings::KnownDiagnostics known = findings::compare_diagnostics(found);
    for (size_t i = 0; i < found.files.size() && i < found.names.size(); ++i) {
        try {
            shows.push_back(findings::show_overview(found.files[i], found.names[i], diagnostics, known));
        } catch (const data::InputError&) {
            shows.push_back(std::nullopt);
        }
    }
    return shows;
}

// The image checks of the files, with the kept images of differing frames
// (their `kept` directories are relative to each file's directory);
// nullopt when the files hold none.
std::optional<findings::ImageCheckPictures> image_pictures(const findings::CompareFindings& found,
                                                           const std::vector<std::string>& files) {
    std::vector<std::string> dirs;
    for (const std::string& f : files) {
        const std::string path = parse_sample_argument(f).path;
        dirs.push_back(path == "-" ? "." : data::directory_of(path));
    }
    const MetricReport& first = found.report.metrics.front();
    std::vector<std::string> candidates;
    for (const auto& c : first.candidates) candidates.push_back(c.label);
    return findings::image_check_pictures(found.files, dirs, first.baseline.label, candidates);
}

}  // namespace

int report_main(int argc, char** argv) {
    CLI::App app{"Draw compare's analysis of results files into one self-contained HTML page: per metric the "
                 "distributions, the runs in order and the boot means with compare's report; a suite's forest "
                 "plot; the environment differences.",
                 "gfxstat report"};
    std::vector<std::string> files;
    std::string output, title;
    CompareSettings s;
    s.program = "gfxstat report";
    CompareChoices& ch = s.choices;
    app.add_option("files", files,
                   "RESULTS... (one results file with several variants, or one per variant; store:SELECTION reads "
                   "stored runs, docs/store.md)")
        ->required();
    std::string store;
    add_store_option(app, store);
    app.add_option("-o,--output", output, "the HTML file to write (replaced atomically)")
        ->required()
        ->type_name("FILE");
    app.add_option("--title", title, "the page's title (default: CANDIDATES against BASELINE)");
    app.add_option("--metric", ch.metrics, "metrics to draw (default: all shared)")->allow_extra_args(false);
    app.add_option("--baseline", ch.baseline, "baseline variant of a single results file (default: the first)");
    app.add_option("--variant", ch.variants, "candidate variants of a single results file (default: all others)")
        ->allow_extra_args(false);
    app.add_flag("--exact", ch.exact, "the metrics are deterministic: any difference is a change");
    app.add_option("--filter", s.filter, "benchmarks and runs to draw (compare's --filter, docs/filter-language.md)");
    add_report_options(app, s);
    // compare's options about its output on stdout and its exit status mean
    // nothing for a page.
    for (const char* name : {"--format", "--gate", "--strict", "--brief", "--table", "--full", "--sort",
                             "--only-changed", "--junit", "--openmetrics", "--kcidb", "--kcidb-origin", "--markdown",
                             "--json", "--allow-image-change"})
        if (CLI::Option* opt = app.get_option_no_throw(name)) app.remove_option(opt);
    // A page has no gate: the threshold is the margin the verdicts and the
    // forest plot's band use.
    app.get_option("--threshold")
        ->description("percent: the equivalence margin of the verdicts and the forest plot's band (default 1, or "
                      "a blocked design's)");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    if (output.empty()) {
        std::fprintf(stderr, "gfxstat report: -o: give the HTML file to write\n");
        return 2;
    }
    if (const auto refused = refuse_repeated_choices(s)) return *refused;
    use_store_option(store);
    return with_compare_errors(s.program, [&] {
        findings::CompareOptions options = analysis_options(s);
        options.keep_run_order = true;  // the page draws the runs in the order they ran
        const findings::CompareFindings found =
            findings::compare(read_compare_inputs(files, s), options, compare_notes(s.program));
        // compare's notes on stderr, as compare says them; its text goes
        // into the page.
        const bool table = suite_table_shown(found.report, s);
        print_compare_notes(found.report, s, table);
        if (found.report.metrics.empty()) throw data::InputError("nothing to draw: no metric was compared");
        const auto images = image_pictures(found, files);
        const auto page = report::report_page(found, table, title, show_overviews(found, s.diagnostics),
                                              images ? &*images : nullptr);
        data::write_file_atomically(output, report::render_html(page), 0644, true);
        return 0;
    });
}

}  // namespace gfxstat::cli
