// SPDX-License-Identifier: MIT
// gfxstat compare: candidates against a baseline, metric by metric, with a
// verdict per metric and an exit status CI can gate on.
//
// Inputs: column files (one sample each), one results file holding several
// variants (compared within itself), or several results files holding one
// variant each. Exit statuses: 0 no regression; 1 a regression beyond the
// threshold (with --gate); 3 something inconclusive (with --gate --strict);
// 2 usage or input errors, always.
//
// The command reads its inputs, hands them to compare's pipeline
// (findings/compare.h), prints what it found with one renderer of report/
// and writes the exports and pictures asked for.
#include "cli/command_line.h"
#include "cli/compare_command.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <string_view>

#include "cli/compare_output.h"
#include "cli/compare_reading.h"
#include "cli/summary_compare.h"
#include "cli/store_option.h"
#include "data/store_argument.h"
#include "findings/compare.h"
#include "report/plot_files.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

int compare_main(int argc, char** argv) { return compare_main(argc, argv, CompareSettings{}); }

std::optional<int> parse_compare_line(int argc, char** argv, CompareSettings& s, std::vector<std::string>& files) {
    CLI::App app{"Compare candidates with a baseline: tests, effect sizes, equivalence and a "
                 "verdict per metric. Inputs are column files, one results file with several "
                 "variants, or results files with one variant each.",
                 "gfxstat compare"};
    // gfxstat campaign analyze runs compare under its own name.
    if (argc > 0 && std::string_view(argv[0]).starts_with("gfxstat ")) s.program = argv[0];
    app.name(s.program);
    CompareChoices& ch = s.choices;
    app.add_option("files", files,
                   "BASELINE CANDIDATE... (or one results file; store:SELECTION reads stored runs, docs/store.md)")
        ->required();
    app.add_option("--metric", ch.metrics, "metrics to compare (default: all shared)")
        ->allow_extra_args(false);
    app.add_option("--baseline", ch.baseline,
                   "baseline variant of a single results file (default: the first); with --store, or written "
                   "store:SELECTION, a store selection that is the baseline and the files are the candidates");
    app.add_option("--variant", ch.variants, "candidate variants of a single results file (default: all others)")
        ->allow_extra_args(false);
    std::string store, order = "start", git_dir;
    if (s.store_options) {
        add_store_option(app, store);
        app.add_option("--order", order,
                       "last:N in a store selection counts builds by their first run's start (start, the default) "
                       "or in git's commit order (git, with --git)")
            ->check(CLI::IsMember({"start", "git"}));
        app.add_option("--git", git_dir, "with --order git: the repository whose HEAD history orders the builds")
            ->type_name("DIR");
    }
    app.add_flag("--exact", ch.exact,
                 "the metrics are deterministic (sizes, instruction counts): any difference is a change, and "
                 "one run a side is enough");
    add_report_options(app, s);
    add_plot_options(app, s);
    app.add_flag("--summaries", s.summaries,
                 "the files hold summary statistics (N, mean, sd a side: a pasted ministat table, or a table with "
                 "n, mean and sd columns): Welch's t from them, without diagnostics");
    app.add_option("--filter", s.filter,
                   "benchmarks and runs to compare: name:gl_4, /regex/, variant:x, a tag key:value, with AND, OR, "
                   "- (not) and parentheses (docs/filter-language.md)");
    app.add_option("--row", s.row, "suite table rows: keys such as name (default), or name,gpu (a tag)");
    app.add_option("--col", s.col, "suite table columns: variant (default), or a tag key such as kernel");
    app.add_option("-C,--column", s.column.column, "column files: column to read")->check(CLI::Range(1, 1000000));
    app.add_option("-d,--delimiters", s.column.delimiters, "column files: field delimiters");
    if (const auto done = parse_command_line(app, argc, argv)) return done;
    if (s.store_options) {
        if (order == "git" && git_dir.empty()) {
            std::fprintf(stderr, "%s: --order git needs --git DIR (the repository that orders the builds)\n",
                         s.program.c_str());
            return 2;
        }
        if (!git_dir.empty() && order != "git") {
            std::fprintf(stderr, "%s: --git applies to --order git\n", s.program.c_str());
            return 2;
        }
        use_store_option(store, git_dir);
        // --store URL --baseline SELECTION: the stored baseline first,
        // the files its candidates.
        if (!ch.baseline.empty() && (app.count("--store") > 0 || data::is_store_argument(ch.baseline))) {
            files.insert(files.begin(), data::is_store_argument(ch.baseline) ? ch.baseline : "store:" + ch.baseline);
            ch.baseline.clear();
        }
    }
    if (s.after_parse)
        if (const auto done = s.after_parse(files, s)) return done;
    if (s.summaries) {
        // Summaries hold no runs: options about runs, samples or tables of
        // benchmarks would be ignored, so they are refused.
        for (const char* name : {"--metric", "--variant", "--exact", "--geomean", "--brief", "--table", "--full",
                                 "--sort", "--only-changed", "--filter", "--row", "--col", "--bootstrap", "--seed",
                                 "--drop-outliers", "--drop-throttled", "--no-diagnostics", "--column",
                                 "--delimiters", "--plot", "--plot-kind"})
            if (app.count(name) > 0) {
                std::fprintf(stderr, "%s: %s does not apply to --summaries (N, mean and sd a side hold no runs)\n",
                             s.program.c_str(), name);
                return 2;
            }
        for (const char* name : {"--junit", "--openmetrics", "--kcidb", "--kcidb-origin", "--markdown", "--json"})
            if (app.count(name) > 0) {
                std::fprintf(stderr,
                             "%s: %s: the CI reports are written from runs' comparisons, not from --summaries; "
                             "use --format markdown or json and redirect stdout\n",
                             s.program.c_str(), name);
                return 2;
            }
    }
    return refuse_repeated_choices(s);
}

std::optional<int> refuse_repeated_choices(const CompareSettings& s) {
    for (const auto* list : {&s.choices.metrics, &s.choices.variants})
        for (size_t i = 0; i < list->size(); ++i)
            for (size_t j = 0; j < i; ++j)
                if ((*list)[i] == (*list)[j]) {
                    std::fprintf(stderr, "%s: '%s' given twice\n", s.program.c_str(),
                                 text::escape_text((*list)[i]).c_str());
                    return 2;
                }
    return std::nullopt;
}

int compare_main(int argc, char** argv, const CompareSettings& preset) {
    std::vector<std::string> files;
    CompareSettings s = preset;
    if (const auto done = parse_compare_line(argc, argv, s, files)) return *done;
    if (s.summaries) return compare_summaries(files, summary_compare_settings(s), stdout);
    const auto started = std::chrono::steady_clock::now();
    return with_compare_errors(s.program, [&] {
        // A plot that cannot be written (a .png without rsvg-convert) is
        // refused before anything is compared.
        if (!s.plot.empty()) check_plot_request(s.plot, s.plot_kind);
        return report_comparison(
            findings::compare(read_compare_inputs(files, s), analysis_options(s), compare_notes(s.program)), s,
            stdout, started);
    });
}

}  // namespace gfxstat::cli
