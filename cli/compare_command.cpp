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
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string_view>

#include "report/plot_files.h"
#include "cli/sample_inputs.h"
#include "cli/summary_compare.h"
#include "data/input_error.h"
#include "data/results_writer.h"
#include "findings/compare.h"
#include "findings/compare_findings.h"
#include "report/diagnostic_words.h"
#include "report/left_out_notes.h"
#include "report/suite_table.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

int exit_status(const CompareReport& report, bool gate, bool strict) {
    if (!gate) return 0;
    bool regression = false, inconclusive = false;
    // A suite tested as pairs: its verdicts are the suite's, one per candidate.
    for (const auto& p : report.paired) {
        regression |= p.verdict.outcome == analysis::Outcome::regression && p.verdict.beyond_threshold;
        inconclusive |= p.verdict.outcome == analysis::Outcome::inconclusive;
    }
    for (const auto& m : report.metrics)
        for (const auto& v : m.verdicts) {
            if (!m.primary) continue;  // secondary metrics are reported, never gate
            regression |= v.outcome == analysis::Outcome::regression && v.beyond_threshold;
            inconclusive |= v.outcome == analysis::Outcome::inconclusive;
        }
    if (regression) return 1;
    if (strict && inconclusive) return 3;
    return 0;
}

// A note or warning on stderr ("PROG: note: ..."), broken at spaces into
// lines of 72 columns, the later ones indented: notes are pasted into mail
// with the report, which is 72 columns wide too.
void print_note(const char* prog, const char* kind, const std::string& text) {
    for (const auto& line : wrap_words(std::string(prog) + ": " + kind + ": " + text, 72, 0, 4))
        std::fprintf(stderr, "%s\n", line.c_str());
}

// LABEL=PATH and PATH:COLUMN, as benchstat and ministat users write them,
// each read whole (a column file's sample, or a results file); what reading
// noted is printed as it is read.
findings::CompareInputs read_compare_inputs(const std::vector<std::string>& files, const CompareSettings& s) {
    findings::CompareInputs in;
    for (const auto& f : files) {
        SampleInput input = parse_sample_argument(f);
        if (input.path == "-") input.name = "<stdin>";
        for (const SampleInput& before : in.inputs)
            if (!input.label.empty() && before.label == input.label)
                throw data::InputError("the label '" + input.label + "' is given twice: each data set needs its own");
        in.inputs.push_back(std::move(input));
    }
    for (const auto& input : in.inputs) {
        RawInput raw = read_input(input, s.column);
        for (const auto& note : raw.notes) print_note(s.program.c_str(), "warning", escape_message(note));
        if (raw.results) in.results.push_back(std::move(*raw.results));
        else in.columns.push_back(std::move(raw.column->sample));
    }
    return in;
}

// The compare run itself, on parsed settings: reads the inputs, analyses,
// prints the report to `out`, returns the exit status.
int run_compare(const std::vector<std::string>& files, const CompareSettings& s, FILE* out) {
    const auto started = std::chrono::steady_clock::now();
    const char* prog = s.program.c_str();
    const CompareChoices& ch = s.choices;
    const bool gate = s.gate, strict = s.strict;
    const std::string& format = s.format;
    for (const auto* list : {&ch.metrics, &ch.variants})
        for (size_t i = 0; i < list->size(); ++i)
            for (size_t j = 0; j < i; ++j)
                if ((*list)[i] == (*list)[j]) {
                    std::fprintf(stderr, "%s: '%s' given twice\n", prog, escape_text((*list)[i]).c_str());
                    return 2;
                }
    findings::CompareOptions options = s;
    options.keep_run_order = std::any_of(s.exports.begin(), s.exports.end(),
                                         [](const ExportRequest& q) { return q.kind == "kcidb"; });
    // Pictures draw the runs in the order they ran.
    options.keep_run_order |= !s.plot.empty() || static_cast<bool>(s.after_report);

    try {
        // A plot that cannot be written (a .png without rsvg-convert) is
        // refused before anything is compared.
        if (!s.plot.empty()) check_plot_request(s.plot, s.plot_kind);
        findings::CompareFindings found = findings::compare(
            read_compare_inputs(files, s), options,
            [prog](const char* kind, const std::string& text) { print_note(prog, kind, text); });
        const CompareReport& report = found.report;
        for (const std::string& note : gfxstat::report::left_out_notes(report)) print_note(prog, "note", note);
        // A suite (2+ benchmarks of one unit) is a table unless a report per
        // benchmark is asked for; a suite tested as pairs has no report per
        // benchmark, only its table.
        const bool table =
            report.paired_by_benchmark || (suite_shape(report) && !s.full && (!s.brief || s.table));
        if (report.paired_by_benchmark && (s.full || s.brief) && format != "json" && format != "csv")
            print_note(prog, "note",
                       std::string(s.full ? "--full" : "--brief") +
                           ": no benchmark of a suite measured once a side is compared on its own; the suite's "
                           "table is the report");
        // Outside the table (which prints them), what the selection pooled or
        // left out is said on stderr.
        if (!table && format != "json")
            for (const std::string& note : report.selection_notes) print_note(prog, "note", escape_text(note));
        void (*const text)(const CompareReport&, FILE*) =
            table ? render_suite_text : s.brief ? render_brief_text : render_text;
        void (*const markdown)(const CompareReport&, FILE*) =
            table ? render_suite_markdown : s.brief ? render_brief_markdown : render_markdown;
        if (format == "json") render_json(report, out);
        else if (format == "csv") render_suite_csv(report, out);
        else if (format == "markdown") markdown(report, out);
        else text(report, out);
        if (!s.exports.empty()) {
            ExportContext ctx;
            ctx.gate = {gate, strict};
            ctx.program = s.program;
            ctx.text_report = render_to_string(text, report);
            ctx.kcidb_origin = s.kcidb_origin;
            ctx.generated_at = data::utc_now_rfc3339();
            ctx.table = table;
            ctx.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            std::fflush(out);
            write_exports(s.exports, report, ctx, markdown, render_json);
        }
        if (!s.plot.empty()) {
            std::fflush(out);
            write_plots(s.plot, s.plot_kind, report, found.files);
        }
        if (s.after_report) {
            std::fflush(out);
            if (const auto status = s.after_report(CompareOutcome{report, found.files, found.names, text, table}))
                return *status;
        }
        return exit_status(report, gate, strict);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    } catch (const std::invalid_argument& e) {  // a statistic refused its arguments
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    }
}

}  // namespace

int compare_results_file(const std::string& path, const CompareSettings& s, FILE* out) {
    return run_compare({path}, s, out);
}

int compare_files(const std::vector<std::string>& files, const CompareSettings& s, FILE* out) {
    return run_compare(files, s, out);
}

int compare_main(int argc, char** argv) { return compare_main(argc, argv, CompareSettings{}); }

int compare_main(int argc, char** argv, const CompareSettings& preset) {
    CLI::App app{"Compare candidates with a baseline: tests, effect sizes, equivalence and a "
                 "verdict per metric. Inputs are column files, one results file with several "
                 "variants, or results files with one variant each.",
                 "gfxstat compare"};
    std::vector<std::string> files;
    CompareSettings s = preset;
    // gfxstat campaign analyze runs compare under its own name.
    if (argc > 0 && std::string_view(argv[0]).starts_with("gfxstat ")) s.program = argv[0];
    app.name(s.program);
    CompareChoices& ch = s.choices;
    app.add_option("files", files, "BASELINE CANDIDATE... (or one results file)")->required();
    app.add_option("--metric", ch.metrics, "metrics to compare (default: all shared)")
        ->allow_extra_args(false);
    app.add_option("--baseline", ch.baseline, "baseline variant of a single results file (default: the first)");
    app.add_option("--variant", ch.variants, "candidate variants of a single results file (default: all others)")
        ->allow_extra_args(false);
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
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    if (s.after_parse)
        if (const auto done = s.after_parse(files, s)) return *done;
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
        return compare_summaries(files, summary_compare_settings(s), stdout);
    }
    return run_compare(files, s, stdout);
}

}  // namespace gfxstat::cli
