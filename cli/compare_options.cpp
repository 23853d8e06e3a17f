// SPDX-License-Identifier: MIT
// compare's report options (add_report_options, compare_command.h): the
// ones `gfxstat ab` shares with compare, registered in one place so that
// both spell them alike.
#include <CLI/CLI.hpp>
#include <cstdlib>

#include "cli/command_line.h"
#include "cli/compare_command.h"
#include "text/text_width.h"

namespace gfxstat::cli {

void add_report_options(CLI::App& app, CompareSettings& s, bool for_runs) {
    app.add_option_function<double>(
           "--confidence",
           [&s](double v) {
               s.confidence = v;
               s.confidence_given = true;
           },
           "confidence level in (0.5, 1); default 0.95 (a blocked design's when not given)")
        ->check([](const std::string& text) {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            // Above 0.5: the equivalence test's interval is at 1 - 2 alpha.
            return (*end == '\0' && v > 0.5 && v < 1) ? "" : "must be in (0.5, 1), e.g. 0.95";
        });
    app.add_option_function<double>(
           "--threshold",
           [&s](double v) {
               s.threshold_pct = v;
               s.threshold_given = true;
           },
           "percent: equivalence margin, and the size of regression that fails --gate (default 1, or a "
           "blocked design's)")
        ->check(number_in(0.0, 1000.0));
    if (!for_runs) {
        auto* lo = app.add_flag("--lower-is-better", s.lower, "override the metrics' direction");
        app.add_flag("--higher-is-better", s.higher, "override the metrics' direction")->excludes(lo);
    }
    app.add_flag("--fdr", s.fdr, "adjust p-values with Benjamini-Hochberg instead of Holm");
    app.add_option("--geomean", s.geomean,
                   "metrics to take the geomean of the ratios over (default: the primary metrics, when they "
                   "share a unit)")
        ->allow_extra_args(false);
    app.add_flag("--gate", s.gate, "exit 1 when a regression beyond the threshold is shown");
    app.add_flag("--strict", s.strict, "with --gate: exit 3 when a comparison is inconclusive");
    app.add_flag("--allow-image-change", s.allow_image_change,
                 "with --gate: a candidate whose frames differ from the baseline's (image checks) does not fail "
                 "for it; for a patch meant to change the picture");
    app.add_option("--format", s.format, "text, markdown, csv (the suite table's rows) or json")
        ->check(CLI::IsMember({"text", "markdown", "csv", "json"}));
    app.add_option("--width", s.width, "text: lines at most this many columns, 40 to 1000 (default 72: a mail reply)")
        ->check(CLI::Range(text::kMinWidth, text::kMaxWidth));
    app.add_flag("--brief", s.brief, "one line per metric and candidate: means, change, verdict (json ignores it)");
    app.add_option("--bootstrap", s.resamples, "bootstrap resamples (0: none; else 100 or more; default 9999)")
        ->check([](const std::string& text) {
            char* end = nullptr;
            const long v = std::strtol(text.c_str(), &end, 10);
            return (*end == '\0' && (v == 0 || (v >= 100 && v <= 1000000))) ? "" : "0, or 100 to 1000000";
        });
    // A command that runs (ab) has its own --seed: the order's.
    app.add_option(for_runs ? "--bootstrap-seed" : "--seed", s.seed, "bootstrap seed (default 12345)")
        ->check(whole_number());
    app.add_flag("--drop-outliers", s.drop_outliers,
                 "leave out values with a modified z-score beyond 3.5, and say which");
    app.add_flag("--drop-throttled", s.drop_throttled,
                 "leave out runs during which the GPU was throttled (the run record's \"throttle\"), and say "
                 "how many");
    app.add_flag_callback(
        "--no-diagnostics", [&s] { s.diagnostics = false; },
        "skip bimodality, drift, outlier and boot diagnostics (and their effect on the test)");
    // The suite table (report/suite_table.h).
    auto* table = app.add_flag("--table", s.table,
                               "the suite table: one row per benchmark (the default with 2+ benchmarks of one unit)");
    app.add_flag("--full", s.full,
                 "the whole report: every test, effect size and diagnostic of each metric, and a report per "
                 "benchmark of a suite (the default text is the short answer: a table per group of metrics)")
        ->excludes(table);
    app.add_option("--sort", s.layout.sort, "suite table rows: input (default), change (worst first), name or p")
        ->check(CLI::IsMember({"input", "change", "name", "p"}));
    app.add_flag("--only-changed", s.layout.only_changed,
                 "suite table: only the benchmarks that changed (better, worse, or beyond the threshold untested)");
    // Reports for CI beside the text on stdout (report/ci/ci_exports.h).
    const auto report_file = [&](const char* name, const char* kind, const char* help) {
        app.add_option_function<std::string>(
               name, [&s, kind](const std::string& path) { s.exports.push_back({kind, path}); }, help)
            ->type_name("FILE");
    };
    report_file("--junit", "junit",
                "also write JUnit XML (GitLab's artifacts:reports:junit): a failure where the gate trips");
    report_file("--openmetrics", "openmetrics",
                "also write an OpenMetrics text (GitLab's artifacts:reports:metrics)");
    report_file("--kcidb", "kcidb", "also write KernelCI KCIDB v5 JSON: a test per benchmark, metric and variant");
    report_file("--markdown", "markdown",
                "also write the markdown report (and append it to $GITHUB_STEP_SUMMARY when that is set)");
    report_file("--json", "json", "also write the JSON report");
    app.add_option("--kcidb-origin", s.kcidb_origin, "--kcidb: the CI system's name in KCIDB ids (default gfxstat)")
        ->check([](const std::string& v) {
            if (v.empty()) return std::string("empty");
            for (const char c : v)
                if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
                    return std::string("lower-case letters, digits and '_' only (KCIDB's origin)");
            return std::string();
        });
}

void add_plot_options(CLI::App& app, CompareSettings& s) {
    auto* plot = app.add_option("--plot", s.plot,
                   "also draw the comparison into FILE.svg (or FILE.png, through rsvg-convert); with several "
                   "metrics one file per metric, FILE-METRIC.svg (docs/report.md)")
        ->type_name("FILE");
    app.add_option("--plot-kind", s.plot_kind,
                   "what --plot draws: distributions (default), run-order, boot-means, or forest (a suite's changes)")
        ->check(CLI::IsMember({"distributions", "run-order", "boot-means", "forest"}))
        ->needs(plot);
}

}  // namespace gfxstat::cli
