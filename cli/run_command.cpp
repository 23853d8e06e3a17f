// SPDX-License-Identifier: MIT
// gfxstat run: runs a workload again and again and records every run
// (drivers/run_loop.h), with a progress line on a terminal and plain lines
// otherwise. Exit statuses: 0 done; 77 the workload skipped (it cannot run
// on this machine); 2 usage errors, a command that cannot run, or an
// invalid option of the workload (IGT exit 79); 4 the runs failed (too many
// failures in a row, or an IGT abort); 1 the results file could not be
// written or the machine refused a fork; 128 + the signal when interrupted
// (130 SIGINT, 143 SIGTERM, 129 SIGHUP), as a shell reports it. Nothing
// recorded is lost.
#include "cli/command_line.h"
#include "cli/help_lists.h"
#include "cli/image_check_options.h"
#include "cli/lava_option.h"
#include "report/ci/lava_report.h"
#include "cli/run_command.h"
#include "cli/run_options.h"
#include "cli/run_outcome_status.h"
#include "drivers/workload_setup.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <unistd.h>

#include "data/input_error.h"
#include "drivers/drm_devices.h"
#include "drivers/drm_workloads.h"
#include "drivers/run_startup.h"
#include "drivers/run_parsers.h"
#include "drivers/run_loop.h"
#include "report/run_progress.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

// The first Ctrl-C (or SIGTERM, SIGHUP) is forwarded to the workload and
// stops the loop after that run; a second one kills the workload's group.
volatile sig_atomic_t g_stop_signals = 0;
extern "C" void on_stop_signal(int sig) { drivers::interrupt_run_plan(forwarded_stop_signal(g_stop_signals, sig)); }

}  // namespace

int run_main(int argc, char** argv) {
    CLI::App app{"Run a workload repeatedly and record every run (exit class, metrics, boot, "
                 "environment, logs) in a results file.",
                 "gfxstat run"};
    drivers::RunPlan plan;
    std::vector<std::string> command, tags;
    std::string workload, load, device;
    size_t runs = 0;
    double duration = 1;
    uint64_t iterations = 0, size = 0;
    unsigned burst = 0;
    RunOptions ro;
    app.add_option("-o,--output", plan.results_path, "results file (created, or appended to)")->required();
    app.add_option("command", command, "-- COMMAND [ARGS...]: run without a shell");
    app.add_option("--workload", workload,
                   "a built-in workload instead of a command: wakeup-latency, drm-ioctl, drm-gem, i915-exec-nop")
        ->check(CLI::IsMember(kWorkloads));
    app.add_option("--device", device, "with a DRM workload: the node, e.g. /dev/dri/renderD128 (default: the first)");
    app.add_option("--iterations", iterations, "with drm-ioctl or drm-gem: timed iterations per run")
        ->check(CLI::Range(uint64_t{1}, uint64_t{10000000}));
    app.add_option("--size", size, "with drm-gem: bytes per dumb buffer, a multiple of 4 (default 1048576)")
        ->check([](const std::string& s) {
            char* end = nullptr;
            const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
            if (end == s.c_str() || *end != '\0') return std::string("a number of bytes");
            return drivers::drm_gem_size_problem(v);
        });
    app.add_option("--burst", burst, "with i915-exec-nop: batches per engine per round-robin turn (default 8)")
        ->check(CLI::Range(1u, 1000000u));
    app.add_option("--load", load, "with --workload: background load, cpu:N (N busy threads)");
    app.add_option("--duration", duration,
                   "with wakeup-latency or i915-exec-nop: seconds of measuring per run (per engine; default 1)")
        ->check(number_in(0.01, 3600));
    app.add_option("--runs", runs, "measured runs (default: --min-runs to --max-runs, or 10)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--min-runs", plan.min_runs, "with --target-ci: at least this many (default 5)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--max-runs", plan.max_runs, "with --target-ci: at most this many (default 30)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--target-ci", plan.target_ci_pct,
                   "stop when the confidence interval's half-width is within this percent of the median")
        ->check(number_in(0.0001, 100));
    app.add_option("--target-metric", plan.target_metric, "the metric --target-ci watches (default: the first)");
    app.add_flag("--target-mean", plan.target_mean, "--target-ci on the mean's t interval, not the median's");
    app.add_option("--confidence", plan.confidence, "of the interval (default 0.95)")->check(number_in(0.5, 0.9999));
    app.add_option("--warmup", plan.warmup, "warm-up runs first, recorded and left out of analyses")
        ->check(CLI::Range(0, 1000000));
    add_timeout_option(app, plan.timeout_s);
    app.add_option("--prepare", plan.prepare, "shell command before each run (/bin/sh -c)");
    app.add_option("--cleanup", plan.cleanup, "shell command after each run (/bin/sh -c)");
    add_cooldown_option(app, plan.cooldown_s);
    app.add_option("--label", plan.variant, "variant label (default: the command's name)");
    app.add_option("--tag", tags, "key=value recorded with the environment (repeatable)")->allow_extra_args(false);
    add_parser_options(app, ro);
    app.add_option("--max-failures", plan.max_consecutive_failures, "stop after this many failed runs in a row (default 3; exit status 4)")
        ->check(CLI::Range(1, 1000000));
    app.add_flag("--force", plan.mix_workloads,
                 "record the runs even when the variant holds runs of another workload (command, parser)");
    app.add_option("--log-dir", plan.log_dir, "where each run's stdout and stderr go (default: OUTPUT.logs)");
    const auto checks = add_image_check_options(app, "timed run");
    add_startup_options(app, ro);
    std::string lava_mode = "auto";
    add_lava_option(app, lava_mode);
    app.footer([] { return parsers_and_workloads_help(); });  // built when help is asked for
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const char* prog = "gfxstat run";

    if (workload.empty() == command.empty()) {
        std::fprintf(stderr, "%s: give a command after -- or a --workload%s\n", prog,
                     workload.empty() ? "" : ", not both");
        return 2;
    }
    // Options that would be silently ignored are refused.
    const auto given = [&](const char* name) { return app.get_option(name)->count() > 0; };
    if (!workload.empty())
        for (const char* o : {"--parser", "--metric", "--metric-name", "--unit", "--lower-is-better",
                              "--higher-is-better"})
            if (given(o)) {
                std::fprintf(stderr, "%s: %s does not go with --workload (it has its own parser)\n", prog, o);
                return 2;
            }
    if (workload.empty() && given("--duration")) {
        std::fprintf(stderr, "%s: --duration goes with --workload; a command runs as long as it runs\n", prog);
        return 2;
    }
    {
        // Each workload's own options; any other would be ignored.
        const struct {
            const char* option;
            std::vector<std::string> workloads;
        } own[] = {{"--duration", {"wakeup-latency", "i915-exec-nop"}},
                   {"--load", {"wakeup-latency"}},
                   {"--device", {"drm-ioctl", "drm-gem", "i915-exec-nop"}},
                   {"--iterations", {"drm-ioctl", "drm-gem"}},
                   {"--size", {"drm-gem"}},
                   {"--burst", {"i915-exec-nop"}}};
        for (const auto& o : own)
            if (given(o.option) && !workload.empty() &&
                std::find(o.workloads.begin(), o.workloads.end(), workload) == o.workloads.end()) {
                std::string list;
                for (const auto& w : o.workloads) list += (list.empty() ? "" : " or ") + w;
                std::fprintf(stderr, "%s: %s goes with --workload %s, not %s\n", prog, o.option, list.c_str(),
                             workload.c_str());
                return 2;
            }
        for (const char* o : {"--device", "--iterations", "--size", "--burst"})
            if (given(o) && workload.empty()) {
                std::fprintf(stderr, "%s: %s goes with a DRM --workload\n", prog, o);
                return 2;
            }
    }
    if (plan.target_ci_pct == 0)
        for (const char* o : {"--min-runs", "--max-runs", "--target-metric", "--target-mean"})
            if (given(o)) {
                std::fprintf(stderr, "%s: %s goes with --target-ci\n", prog, o);
                return 2;
            }
    if (runs > 0 && plan.target_ci_pct > 0) {
        std::fprintf(stderr, "%s: --runs and --target-ci exclude each other\n", prog);
        return 2;
    }
    for (const auto& t : tags)
        if (!parse_tag(t, plan.tags)) {
            std::fprintf(stderr, "%s: --tag wants key=value, not '%s'\n", prog, escape_text(t).c_str());
            return 2;
        }
    if (runs > 0) plan.runs = runs;
    else if (plan.target_ci_pct == 0) plan.runs = 10;

    WorkloadOptions wo;
    wo.builtin = workload;
    wo.command = command;
    wo.device = device;
    wo.load = load;
    wo.duration = duration;
    wo.iterations = iterations;
    wo.size = size;
    wo.burst = burst;
    ro.apply_parser(wo);
    std::unique_ptr<drivers::OutputParser> parser;
    try {
        Workload w = make_workload(wo);
        plan.command = std::move(w.command);
        plan.workload = std::move(w.record);
        parser = std::move(w.parser);
        if (plan.variant.empty()) plan.variant = w.default_label;
        for (const auto& [k, v] : w.tags)
            if (!plan.tags.count(k) || k == "size" || k == "load") plan.tags[k] = v;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    }
    // --check-images: refused before anything runs when it cannot work.
    if (const std::string e = apply_image_checks(app, *checks, plan); !e.empty()) {
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e).c_str());
        return 2;
    }

    install_stop_handler(on_stop_signal);
    drivers::TuneGuard tuning(prog);  // restores on every return below
    if (const auto rc = drivers::start_measuring(prog, tuning, ro.tune, ro.no_check, g_stop_signals)) return *rc;

    const bool tty = isatty(STDERR_FILENO);
    size_t last_width = 0;
    drivers::RunReport report;
    // Inside a LAVA test shell: the results as test cases, or a raise when
    // the runs could not be set up (report/ci/lava_report.h).
    LavaReport lava(prog, lava_mode);
    try {
        report = drivers::run_plan(plan, *parser, [&](const drivers::RunProgress& p) {
            // Exit reasons, metric names and units come from the workload.
            const std::string line = escape_message(report::run_progress_line(p));
            if (tty) {
                // One line, rewritten in place; padded over the previous one.
                std::fprintf(stderr, "\r%s%*s", line.c_str(),
                             static_cast<int>(last_width > line.size() ? last_width - line.size() : 0), "");
                last_width = line.size();
            } else {
                std::fprintf(stderr, "%s: %s\n", prog, line.c_str());
            }
            std::fflush(stderr);
        });
    } catch (const data::InputError& e) {
        if (tty && last_width) std::fprintf(stderr, "\n");
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        lava.setup_failed(e.what());
        return 2;
    } catch (const std::invalid_argument& e) {
        if (tty && last_width) std::fprintf(stderr, "\n");
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        lava.setup_failed(e.what());
        return 2;
    } catch (const std::exception& e) {  // the machine refused: fork, memory, /proc
        if (tty && last_width) std::fprintf(stderr, "\n");
        std::fprintf(stderr, "%s: %s; every finished run is in %s\n", prog, escape_message(e.what()).c_str(),
                     escape_text(plan.results_path).c_str());
        lava.setup_failed(e.what());
        return 1;
    }
    if (tty && last_width) std::fprintf(stderr, "\n");
    for (const std::string& w : report.warnings)
        std::fprintf(stderr, "%s: warning: %s\n", prog, escape_message(w).c_str());

    for (const std::string& line : report::run_end_lines(plan, report)) std::fprintf(stderr, "%s: %s\n", prog, line.c_str());
    // The workload could not run, or its runs could not be recorded: a
    // setup failure for LAVA; otherwise what was recorded is reported.
    if (report.outcome == drivers::RunOutcome::invalid || report.outcome == drivers::RunOutcome::error)
        lava.setup_failed(report.message);
    else
        lava.results(plan.results_path, {plan.variant});
    return run_outcome_status(prog, report.outcome, report.message, g_stop_signals);
}

}  // namespace gfxstat::cli
