// SPDX-License-Identifier: MIT
// gfxstat bisect check | step | report: which commit changed performance,
// with `git bisect run` doing the search and gfxstat each step's call
// (drivers/bisect_step.h, analysis/bisect_classify.h, docs/bisect.md).
//
// Exit statuses. check: 0 good and bad differ beyond the threshold (ready
// to bisect), 1 they do not (nothing to bisect), 2 bad input. step, as
// `git bisect run` reads them: 0 like good, 1 like bad, 125 skip (the
// build failed, the workload cannot be measured at this commit, or the
// runs left it undecided), 128 for anything that must stop the bisection
// (bad options, references that do not differ, a steps file made for other
// references: a status 2 would be read as "bad"), 128 + the signal when
// interrupted. report: 0 when the steps show the first bad commit, 1 when
// they do not yet, 2 bad input.
#include "cli/bisect_command.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <memory>

#include "cli/command_describe.h"
#include "cli/subcommands.h"
#include "cli/command_line.h"
#include "cli/store_option.h"
#include "text/nearest_word.h"
#include "cli/run_options.h"
#include "drivers/workload_setup.h"
#include "data/input_error.h"
#include "drivers/bisect_references.h"
#include "drivers/bisect_step.h"
#include "drivers/git_revisions.h"
#include "findings/bisect_findings.h"
#include "report/bisect_report.h"
#include "report/bisect_words.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

constexpr const char* kProg = "gfxstat bisect";

void usage(FILE* out) {
    std::fprintf(out,
                 "usage: gfxstat bisect SUBCOMMAND ...\n"
                 "\n"
                 "  check  --good FILE --bad FILE [--threshold PCT]\n"
                 "         is there something to bisect? (exit 0 yes, 1 no)\n"
                 "  step   --good FILE --bad FILE -o STEPS [--build CMD] [-- COMMAND...]\n"
                 "         one step, for: git bisect run gfxstat bisect step ...\n"
                 "  report STEPS [--format text|markdown|json]\n"
                 "         the steps and the first bad commit with its evidence\n"
                 "\n"
                 "See docs/bisect.md.\n");
}

// --good/--bad and what check and step share: the references and the analysis.
// --store: what store:SELECTION references read (one command a process).
std::string& store_option() {
    static std::string store;
    return store;
}

void add_reference_options(CLI::App& app, drivers::BisectReferenceOptions& o, bool for_step) {
    app.add_option("--good", o.good, "results file of the good build's runs (store:SELECTION: stored runs)")->required();
    app.add_option("--bad", o.bad, "results file of the bad build's runs (store:SELECTION: stored runs)")->required();
    add_store_option(app, store_option());
    app.add_option("--good-variant", o.good_variant, "the good build's variant, when the file holds several");
    app.add_option("--bad-variant", o.bad_variant, "the bad build's variant, when the file holds several");
    app.add_option("--target-metric", o.metric, "the metric to bisect (default: the references' primary one)");
    app.add_option("--threshold", o.threshold_pct,
                   "percent: good and bad must differ by more than this beyond doubt (default 1)")
        ->check(number_in(0.0, 1000.0));
    app.add_option("--confidence", o.confidence,
                   "of the whole bisection: no step wrong with this probability (default 0.95)")
        ->check(number_in(0.5, 0.999999));
    app.add_option("--steps", o.steps, "steps the error budget is split over (default: from the commits git has left)")
        ->check(CLI::Range(1, 64));
    app.add_option("--commits", o.commits, "commits to bisect, when no git bisection is under way (sets --steps)")
        ->check(CLI::Range(size_t{1}, size_t{1} << 40));
    app.add_option("--max-runs", o.max_runs, "runs of one commit at most before it is skipped undecided (default 50)")
        ->check(CLI::Range(2, 100000));
    if (for_step)
        app.add_option("--min-runs", o.min_runs, "runs of one commit at least (default 3)")->check(CLI::Range(1, 100000));
}


int fail_with(const std::string& sub, const std::string& message, int status) {
    std::fprintf(stderr, "%s %s: %s\n", kProg, sub.c_str(), escape_message(message).c_str());
    return status;
}

// ---------------------------------------------------------------- check

int check_main(int argc, char** argv) {
    CLI::App app{"Check that the good and bad builds' runs differ beyond the threshold beyond doubt, at the "
                 "bisection's error budget: else there is nothing to bisect, and it says why.",
                 "gfxstat bisect check"};
    drivers::BisectReferenceOptions o;
    std::string format = "text", work_dir = ".";
    add_reference_options(app, o, false);
    app.add_option("-C", work_dir, "the git work tree (default: the current directory)");
    app.add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    use_store_option(store_option());
    drivers::PreparedBisection p;
    analysis::BisectReferences r;
    try {
        p = drivers::prepare_bisection(o, work_dir);
        r = drivers::analyse_references(p);
    } catch (const data::InputError& e) {
        return fail_with("check", e.what(), 2);
    } catch (const std::invalid_argument& e) {
        return fail_with("check", e.what(), 2);
    }
    const std::string out = format == "json" ? report::bisect_check_json(p, r) : report::bisect_check_text(p, r);
    if (const int rc = write_stdout_now("gfxstat bisect check", out)) return rc;
    return r.differ ? 0 : 1;
}

// ---------------------------------------------------------------- step

volatile sig_atomic_t g_stop_signal = 0;
extern "C" void on_bisect_signal(int sig) {
    const bool again = g_stop_signal != 0;
    if (!again) g_stop_signal = sig;
    drivers::interrupt_run_plan(again ? SIGKILL : sig);
}

// The parser settings a reference recorded, when the step's command line
// gives none: the step then reads the output as the references were read.
void parser_from_record(const data::WorkloadRecord& w, WorkloadOptions& o) {
    if (w.parser == "metric") {
        o.regexes = w.metrics;
    } else if (!w.parser.empty()) {
        o.parser_name = w.parser;
        if (const auto it = w.parser_options.find("metric_name"); it != w.parser_options.end()) o.metric_name = it->second;
    }
    if (const auto it = w.parser_options.find("unit"); it != w.parser_options.end()) o.unit = it->second;
    if (const auto it = w.parser_options.find("direction"); it != w.parser_options.end())
        o.direction = data::parse_direction(it->second).value_or(data::Direction::unknown);
}

int step_main(int argc, char** argv) {
    CLI::App app{"One step of a bisection, for `git bisect run`: build the commit checked out (--build; a failed "
                 "build is a skip), run the workload until its runs are like the good build's or like the bad "
                 "build's with the bisection's error budget, record every run and the step, and exit 0 (good), "
                 "1 (bad) or 125 (skip); 128 stops the bisection.",
                 "gfxstat bisect step"};
    drivers::BisectReferenceOptions o;
    std::string steps_path, results_path, build, log_dir, work_dir = ".";
    std::vector<std::string> command;
    double timeout = 0, cooldown = 0;
    size_t warmup = 0, max_failures = 3;
    RunOptions ro;
    add_reference_options(app, o, true);
    app.add_option("-o,--output", steps_path, "the steps file (created by the first step, added to by each)")
        ->required();
    app.add_option("--results", results_path, "results file of every run (default: STEPS with .results.json)");
    app.add_option("--build", build, "shell command that builds the commit checked out; failing: skip it");
    app.add_option("-C", work_dir, "the git work tree, where --build runs (default: the current directory)");
    app.add_option("command", command,
                   "-- COMMAND [ARGS...]: the workload, without a shell (default: the one the good runs recorded)");
    add_parser_options(app, ro, true);
    app.add_option("--warmup", warmup, "warm-up runs of each commit first, recorded and left out")
        ->check(CLI::Range(0, 1000));
    add_timeout_option(app, timeout);
    add_cooldown_option(app, cooldown);
    app.add_option("--max-failures", max_failures, "skip the commit after this many runs in a row without a value")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--log-dir", log_dir, "where each run's output and the build's go (default: RESULTS.logs)");
    if (const auto done = parse_command_line(app, argc, argv)) return *done == 0 ? 0 : drivers::kBisectAbort;
    use_store_option(store_option());
    const auto abort_with = [](const std::string& m) { return fail_with("step", m, drivers::kBisectAbort); };
    if (o.min_runs > o.max_runs) return abort_with("--min-runs is larger than --max-runs");
    if (results_path.empty()) {
        results_path = steps_path;
        if (results_path.size() > 5 && results_path.compare(results_path.size() - 5, 5, ".json") == 0)
            results_path.resize(results_path.size() - 5);
        results_path += ".results.json";
    }
    if (results_path == steps_path) return abort_with("--results and -o name the same file");

    drivers::BisectStepPlan plan;
    std::unique_ptr<drivers::OutputParser> parser;
    try {
        drivers::PreparedBisection p = drivers::prepare_bisection(o, work_dir);
        plan.plan = std::move(p.plan);
        plan.expected_steps_given = p.steps_given;
        WorkloadOptions wo;
        wo.command = command;
        const bool parser_given = ro.parser_given();
        if (p.good.workload) {
            if (wo.command.empty()) wo.command = p.good.workload->argv;
            if (!parser_given) parser_from_record(*p.good.workload, wo);
        }
        if (parser_given) ro.apply_parser(wo);
        if (wo.command.empty())
            return abort_with("give the workload after -- (the good runs recorded none to take it from)");
        Workload w = make_workload(wo);
        parser = std::move(w.parser);
        plan.plan.command = w.command;
        plan.plan.build = build;
        plan.plan.results = results_path;
        plan.run.command = std::move(w.command);
        plan.run.workload = std::move(w.record);
        plan.run.tags = std::move(w.tags);
        plan.run.results_path = results_path;
        plan.run.log_dir = log_dir;
        plan.run.timeout_s = timeout;
        plan.run.cooldown_s = cooldown;
        plan.run.max_consecutive_failures = max_failures;
        plan.run.target_metric = plan.plan.metric;
        plan.steps_path = steps_path;
        plan.work_dir = work_dir;
        plan.warmup = warmup;
    } catch (const data::InputError& e) {
        return abort_with(e.what());
    } catch (const std::invalid_argument& e) {
        return abort_with(e.what());
    }

    install_stop_handler(on_bisect_signal);
    const bool tty = isatty(STDERR_FILENO);
    drivers::BisectStepReport result;
    try {
        result = drivers::run_bisect_step(
            plan, *parser,
            [&](const std::string& commit) {
                std::fprintf(stderr, "%s step: building %s\n", kProg, escape_text(drivers::short_commit_id(commit)).c_str());
            },
            [&](const drivers::BisectRunProgress& pr) {
                if (!tty || pr.warmup) return;
                const std::string line = report::bisect_run_line(pr);
                std::fprintf(stderr, "\r%-78.78s", line.c_str());
                std::fflush(stderr);
            });
    } catch (const data::InputError& e) {
        if (tty) std::fprintf(stderr, "\n");
        return abort_with(e.what());
    } catch (const std::invalid_argument& e) {
        if (tty) std::fprintf(stderr, "\n");
        return abort_with(e.what());
    } catch (const std::exception& e) {
        if (tty) std::fprintf(stderr, "\n");
        return abort_with(e.what());
    }
    if (tty) std::fprintf(stderr, "\r%78s\r", "");
    for (const auto& w : result.warnings)
        std::fprintf(stderr, "%s step: warning: %s\n", kProg, escape_message(w).c_str());
    if (result.new_log && result.exit < 128) {
        std::string budget;
        for (const auto& line : report::bisect_reference_lines(plan.plan, result.refs)) budget += line + "\n";
        std::fprintf(stderr, "%s step: started %s\n%s", kProg, escape_text(steps_path).c_str(), budget.c_str());
    }
    if (g_stop_signal) return stopped_status(g_stop_signal);
    if (result.exit >= 128) return fail_with("step", result.message, result.exit);
    for (const auto& line : result.build_tail) std::fprintf(stderr, "  | %s\n", escape_text(line).c_str());
    std::printf("%s %s\n", kProg, report::bisect_step_line(result).c_str());
    return check_output_written("gfxstat bisect step", result.exit);
}

// ---------------------------------------------------------------- report

int report_main(int argc, char** argv) {
    CLI::App app{"The steps of a bisection (commit, runs, estimate against the good build with its interval, "
                 "call) and the first bad commit with the evidence on both sides.",
                 "gfxstat bisect report"};
    std::string path, format = "text";
    app.add_option("steps", path, "the steps file (bisect step -o)")->required();
    app.add_option("--format", format, "text, markdown or json")->check(CLI::IsMember({"text", "markdown", "json"}));
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    findings::BisectFindings f;
    try {
        findings::read_bisect_findings(path, f);
    } catch (const data::InputError& e) {
        return fail_with("report", e.what(), 2);
    } catch (const std::invalid_argument& e) {
        return fail_with("report", std::string(path) + ": " + e.what(), 2);
    }
    const std::string out = format == "json" ? report::bisect_report_json(f)
                                             : report::bisect_report_text(f, format == "markdown");
    if (const int rc = write_stdout_now("gfxstat bisect report", out)) return rc;
    return f.first ? 0 : 1;
}
}  // namespace

int bisect_main(int argc, char** argv) {
    static const Subcommand subcommands[] = {
        {"check", "whether the good and bad builds' runs differ beyond the threshold: something to bisect", check_main},
        {"step",
         "for git bisect run: build the commit, run the workload until it is like good or like bad "
         "(exit 0 / 1; 125 skips)",
         step_main},
        {"report", "each step of a bisection (commit, runs, estimate, call) and the first bad commit with its evidence",
         report_main},
    };
    // An unknown subcommand does not exit 2: under `git bisect run` a
    // mistyped "step" would mark every commit bad; above 127 stops the
    // bisection instead.
    const SubcommandTable table{kProg,
                                "Which commit changed performance: gfxstat's step for git bisect run, with "
                                "an error budget over the whole bisection.",
                                "See docs/bisect.md.", subcommands, usage, drivers::kBisectAbort};
    return run_subcommand(table, argc, argv);
}

}  // namespace gfxstat::cli
