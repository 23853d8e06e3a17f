// SPDX-License-Identifier: MIT
// gfxstat history: results of a series of builds -> per metric, the change
// points over the builds (findings/history.h), each with its build range,
// size, interval, p and the `git bisect` command that finds the commit
// (docs/history.md).
#include "cli/history_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command_line.h"
#include "report/plot_files.h"
#include "cli/sample_inputs.h"
#include "cli/store_option.h"
#include "data/input_error.h"
#include "data/results_reader.h"
#include "data/safe_files.h"
#include "findings/history.h"
#include "findings/history_settings.h"
#include "report/history_page.h"
#include "report/history_render.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

const char* kProg = "gfxstat history";

// Each results file as given (LABEL=FILE names its build), read into
// `files`, a torn last line warned about.
std::vector<findings::history::Input> read_inputs(const std::vector<std::string>& args,
                                                  std::vector<data::ResultsFile>& files) {
    std::vector<findings::history::Input> inputs;
    for (const std::string& f : args) {
        SampleInput in = parse_sample_argument(f);
        if (in.path == "-") in.name = "<stdin>";
        if (in.column) throw data::InputError(in.name + ": a column was given; history reads results files");
        data::ReadReport report;
        std::vector<std::string> notes;
        files.push_back(read_results_argument(in.path, in.name, &report, notes));
        for (const std::string& n : notes) std::fprintf(stderr, "%s: note: %s\n", kProg, escape_message(n).c_str());
        if (report.torn_tail)
            std::fprintf(stderr, "%s: warning: %s\n", kProg,
                         escape_message(data::torn_tail_message(in.name, report)).c_str());
        for (const std::string& m : data::skipped_record_messages(in.name, report))
            std::fprintf(stderr, "%s: warning: %s\n", kProg, escape_message(m).c_str());
        if (!in.label.empty() && files.back().variants().size() > 1)
            throw data::input_error(in.name, 0, "holds several variants: a label names one build");
        inputs.push_back({in.path, in.name, in.label});
    }
    return inputs;
}

}  // namespace

int history_main(int argc, char** argv) {
    CLI::App app{"Where each metric moved along a series of builds: segments, change points with their build "
                 "range, size, interval and p, and the git bisect command for each. Exit 1 when a change point "
                 "is found.",
                 "gfxstat history"};
    findings::history::Settings s;
    std::vector<std::string> file_args;
    std::string format = "text", json_path;
    app.add_option("files", file_args,
                   "results files: one per build, or runs tagged with their build (run --tag commit=SHA); "
                   "LABEL=FILE names a file's build; store:SELECTION reads stored runs (docs/store.md)")
        ->required()
        ->expected(1, -1);
    std::string store;
    add_store_option(app, store);
    app.add_option("--key", s.key, "the environment tag that names a run's build (default: commit, else build)");
    app.add_option("--order", s.order,
                   "how the builds follow each other: as given (first appearance, the default), by date (first "
                   "run's start) or in git's commit order (--git)")
        ->check(CLI::IsMember({"given", "date", "git"}));
    app.add_option("--git", s.git_dir, "with --order git: the repository whose HEAD history orders the builds")
        ->type_name("DIR");
    app.add_option("--since", s.since, "start at this build (its key, or a unique prefix of 4 or more)");
    app.add_option("--metric", s.metrics, "a metric to analyse (repeatable; default: every metric with a direction)")
        ->allow_extra_args(false);
    app.add_option("--format", format, "the report on stdout: text (default), markdown or json")
        ->check(CLI::IsMember({"text", "markdown", "json"}));
    app.add_option("--json", json_path, "also write the JSON report to FILE")->type_name("FILE");
    std::string plot_path;
    app.add_option("--plot", plot_path,
                   "also draw each metric's series with its change points: FILE.svg (.png through rsvg-convert; "
                   "FILE-METRIC.svg with several metrics)")
        ->type_name("FILE");
    std::string html_path;
    app.add_option("--html", html_path, "also write a self-contained HTML page: each series drawn and this report")
        ->type_name("FILE");
    app.add_option("--alpha", s.cp.alpha, "false-alarm level of each split test (default 0.01)")
        ->check(number_in(0.0001, 0.2));
    app.add_option("--confidence", s.cp.confidence, "confidence level of the changes' intervals (default 0.95)")
        ->check(number_in(0.5, 0.9999));
    app.add_option("--permutations", s.cp.permutations, "permutations per split test, 99 to 1000000 (default 999)")
        ->type_name("N")
        ->check(CLI::Range(99, 1000000));
    app.add_option("--min-builds", s.cp.min_segment, "builds at least on each side of a change, 2 to 1000 (default 2)")
        ->type_name("N")
        ->check(CLI::Range(2, 1000));
    app.add_option("--max-changes", s.cp.max_changes, "change points at most per metric, 1 to 1000 (default 10)")
        ->type_name("N")
        ->check(CLI::Range(1, 1000));
    app.add_option("--seed", s.cp.seed, "permutation seed (default 12345)")->check(whole_number());
    int width = text::kDefaultWidth;
    bool full = false;
    app.add_option("--width", width, "text: lines at most this many columns, 40 to 1000 (default 72: a mail reply)")
        ->check(CLI::Range(text::kMinWidth, text::kMaxWidth));
    app.add_flag("--full", full,
                 "print today's whole report: text with a line per segment, change, bisect command and note, "
                 "however long (default: wrapped at --width, bisect commands with shell continuations)");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    try {
        findings::history::check_settings(s);
        // Only the metrics named are read from a store (the runs are the same).
        use_store_option(store, s.order == "git" ? s.git_dir : "", s.metrics);
        if (!plot_path.empty()) check_plot_request(plot_path, "history");
        std::vector<data::ResultsFile> files;
        std::vector<findings::history::Input> inputs = read_inputs(file_args, files);
        const findings::history::History h = findings::history::find_history(s, std::move(inputs), files);
        if (!json_path.empty() || format == "json") {
            const std::string text = report::history_json(s, h);
            if (!json_path.empty()) data::write_file_atomically(json_path, text, 0644, true);
            if (format == "json") std::fputs(text.c_str(), stdout);
        }
        if (!plot_path.empty() || !html_path.empty()) {
            const std::vector<plot::HistoryPlot> plots = report::history_plots(h);
            if (!plot_path.empty())
                for (const std::string& f : write_history_plots(plot_path, plots))
                    std::fprintf(stderr, "%s: drew %s\n", kProg, escape_text(f).c_str());
            if (!html_path.empty()) {
                // The text report, as stdout gets it, into the page.
                report::write_history_page(html_path, plots, report::history_text(s, h), file_args);
                std::fprintf(stderr, "%s: wrote %s\n", kProg, escape_text(html_path).c_str());
            }
        }
        if (format == "text")
            report::print_history_text(stdout, s, h, report::HistoryTextLayout{static_cast<size_t>(width), full});
        else if (format == "markdown") report::print_history_markdown(stdout, s, h);
        return h.changes > 0 ? 1 : 0;
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    }
}

}  // namespace gfxstat::cli
