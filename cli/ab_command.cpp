// SPDX-License-Identifier: MIT
// gfxstat ab: two or more builds of one workload, interleaved in blocks,
// until the stop rule settles the verdict (drivers/ab_runner.h), then the
// compare report of the results file. Exit statuses: those of compare
// (0; 1 a regression beyond the threshold with --gate; 3 inconclusive with
// --gate --strict; 2 bad input), and those of run when the runs cannot go
// on (77 skipped; 4 the runs failed: --max-failures, an IGT abort, or a
// variant with fewer than 2 usable runs; 1 the results file could not be
// written; 128 + the signal when interrupted: 130 for SIGINT, 143 for
// SIGTERM). Nothing recorded is lost.
#include "cli/ab_command.h"
#include "cli/run_options.h"
#include "cli/run_outcome_status.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <memory>

#include "cli/command_line.h"
#include "cli/exit_statuses.h"
#include "cli/help_lists.h"
#include "cli/image_check_options.h"
#include "cli/ab_variant_options.h"
#include "cli/lava_option.h"
#include "report/ci/lava_report.h"
#include "cli/compare_command.h"
#include "cli/compare_output.h"
#include "cli/compare_reading.h"
#include "cli/ab_stored_baseline.h"
#include "report/ci/runs_failed_report.h"
#include "drivers/workload_setup.h"
#include "data/input_error.h"
#include "data/results_writer.h"
#include "drivers/ab_runner.h"
#include "drivers/run_startup.h"
#include "report/ab_progress.h"
#include "report/settling_advice_words.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

constexpr const char* kProg = "gfxstat ab";

volatile sig_atomic_t g_stop_signals = 0;
extern "C" void on_ab_signal(int sig) { drivers::interrupt_run_plan(forwarded_stop_signal(g_stop_signals, sig)); }

int fail(const std::string& message) {
    std::fprintf(stderr, "%s: %s\n", kProg, escape_message(message).c_str());
    return 2;
}

}  // namespace

int ab_main(int argc, char** argv) {
    CLI::App app{"Compare two or more builds of one workload in one command: runs interleaved in blocks "
                 "(every variant once per block, in a seeded random order), stopping as soon as a "
                 "sequential test settles the verdict (docs/ab.md); then the compare report.",
                 "gfxstat ab"};
    std::string output, workload, device, order_name = "random", stop_name = "sequential",
                target_metric, log_dir, lava_mode = "auto";
    std::vector<std::string> variants, envs, commands, prepares, cleanups, tags, loads, command;
    size_t runs = 0, max_runs = 50, min_runs = 2, warmup = 0, switch_warmup = 0, max_failures = 3;
    double duration = 1, timeout = 0, cooldown = 0;
    uint64_t iterations = 0, size = 0, seed = 0;
    unsigned burst = 0;
    RunOptions ro;
    CompareSettings report;

    app.add_option("-o,--output", output, "results file (created, or appended to with new labels)")->required();
    app.add_option("--variant", variants, "a variant's label (repeatable; two or more, the first the baseline)")
        ->required()
        ->allow_extra_args(false);
    StoredBaseline stored;
    add_stored_baseline_options(app, stored);
    app.add_option("--env", envs, "VARIANT:KEY=VALUE: the variant's environment (repeatable)")->allow_extra_args(false);
    app.add_option("--command", commands, "VARIANT:'COMMAND ARGS': the variant's own command instead of the shared one")
        ->allow_extra_args(false);
    app.add_option("--prepare", prepares,
                   "[VARIANT:]shell command before each run of the variant (of every variant without VARIANT:)")
        ->allow_extra_args(false);
    app.add_option("--cleanup", cleanups, "[VARIANT:]shell command after each run")->allow_extra_args(false);
    app.add_option("--tag", tags, "[VARIANT:]key=value recorded with the environment (repeatable)")
        ->allow_extra_args(false);
    app.add_option("command", command, "-- COMMAND [ARGS...]: what every variant runs, without a shell");
    app.add_option("--workload", workload, "a built-in workload instead of a command: wakeup-latency, drm-ioctl, "
                                           "drm-gem, i915-exec-nop")
        ->check(CLI::IsMember(kWorkloads));
    app.add_option("--load", loads, "with --workload wakeup-latency: [VARIANT:]cpu:N background load")
        ->allow_extra_args(false);
    app.add_option("--device", device, "with a DRM workload: the node (default: the first)");
    app.add_option("--duration", duration, "with wakeup-latency or i915-exec-nop: seconds of measuring per run")
        ->check(number_in(0.01, 3600.0));
    app.add_option("--iterations", iterations, "with drm-ioctl or drm-gem: timed iterations per run")
        ->check(CLI::Range(uint64_t{1}, uint64_t{10000000}));
    app.add_option("--size", size, "with drm-gem: bytes per dumb buffer")->check(CLI::Range(uint64_t{4}, uint64_t{0xFFFFF000}));
    app.add_option("--burst", burst, "with i915-exec-nop: batches per engine per turn")->check(CLI::Range(1u, 1000000u));
    add_parser_options(app, ro);
    app.add_option("--target-metric", target_metric,
                   "the metric the stop rule watches (default: the parser's primary one)");
    app.add_option("--runs", runs, "a fixed number of blocks (runs per variant), no stop rule")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--max-runs", max_runs, "blocks (runs per variant) at most before stopping inconclusive (default 50)")
        ->check(CLI::Range(2, 1000000));
    app.add_option("--stop", stop_name,
                   "the stop rule: sequential (default: a confidence sequence, may stop after any block) or group "
                   "(looks planned from --max-runs, a Pocock boundary: fewer runs for a change of the spread's size)")
        ->check(CLI::IsMember({"sequential", "group"}));
    app.add_option("--min-runs", min_runs, "blocks at least before the stop rule may stop (default 2)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--order", order_name, "within a block: random (default, seeded), alternate (AB AB), abba (AB BA)")
        ->check(CLI::IsMember({"random", "alternate", "abba"}));
    // Recorded in the design: JSON readers with signed 64-bit integers read it.
    app.add_option("--seed", seed, "the random order's seed, 0 to 2^63-1 (default: drawn, printed and recorded)")
        ->check(CLI::Range(uint64_t{0}, uint64_t{9223372036854775807ULL}));
    app.add_option("--warmup", warmup, "warm-up runs of each variant first, recorded and left out of analyses")
        ->check(CLI::Range(0, 1000000));
    app.add_option("--switch-warmup", switch_warmup,
                   "warm-up runs before each run that follows another variant's (default 0)")
        ->check(CLI::Range(0, 1000));
    add_timeout_option(app, timeout);
    add_cooldown_option(app, cooldown);
    app.add_option("--max-failures", max_failures, "stop after this many failed runs of a variant in a row (default 3; exit status 4)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--log-dir", log_dir, "where each run's stdout and stderr go (default: OUTPUT.logs)");
    const auto checks = add_image_check_options(app, "block");
    add_report_options(app, report, true);
    add_startup_options(app, ro);
    add_lava_option(app, lava_mode);
    app.footer([] { return parsers_and_workloads_help(); });  // built when help is asked for
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    report.program = kProg;
    const auto given = [&](const char* name) { return app.get_option(name)->count() > 0; };

    if (const std::string e = start_stored_baseline(stored, app, variants, runs, kProg); !e.empty()) return fail(e);
    if (runs == 1) return fail("--runs 1: a comparison needs 2 blocks at least");
    if (runs > 0 && given("--max-runs")) return fail("--runs and --max-runs exclude each other");
    if (runs > 0 && given("--min-runs")) return fail("--min-runs goes with the stop rule, not with --runs");
    if (runs > 0 && given("--stop")) return fail("--stop goes with the stop rule, not with --runs");
    if (min_runs > max_runs) return fail("--min-runs is larger than --max-runs");
    const std::optional<drivers::AbOrder> order = drivers::parse_ab_order(order_name);
    if (!given("--seed")) seed = drivers::random_ab_seed();

    // Per-variant settings.
    AbVariantSettings per;
    if (const std::string e = read_variant_settings({envs, commands, prepares, cleanups, loads, tags}, variants, per);
        !e.empty())
        return fail(e);
    if (!workload.empty() && (!command.empty() || !per.argv_of.empty()))
        return fail("give a command (after -- or with --command) or a --workload, not both");
    if (workload.empty() && command.empty())
        for (const auto& v : variants)
            if (!per.argv_of.count(v))
                return fail("variant '" + v + "' has nothing to run: give a shared command after --, its own "
                            "--command " + v + ":'...', or a --workload");
    if (!workload.empty())
        for (const char* o : {"--parser", "--metric", "--metric-name", "--unit", "--lower-is-better", "--higher-is-better"})
            if (given(o)) return fail(std::string(o) + " does not go with --workload (it has its own parser)");
    if ((!per.load_of.empty() || !per.load_shared.empty()) && workload != "wakeup-latency")
        return fail("--load goes with --workload wakeup-latency");

    drivers::AbPlan plan;
    plan.order = *order;
    plan.seed = seed;
    if (runs > 0) plan.blocks = runs;
    plan.max_blocks = max_runs;
    plan.min_blocks = min_runs;
    plan.stop = stop_name == "group" ? drivers::AbStop::group : drivers::AbStop::sequential;
    plan.warmup = warmup;
    plan.switch_warmup = switch_warmup;
    plan.confidence = report.confidence;
    plan.threshold = report.threshold_pct / 100;
    plan.target_metric = target_metric;
    std::unique_ptr<drivers::OutputParser> parser;
    for (const std::string& v : variants) {
        WorkloadOptions wo;
        wo.builtin = workload;
        wo.command = per.argv_of.count(v) ? per.argv_of[v] : command;
        wo.device = device;
        wo.load = per.load_of.count(v) ? per.load_of[v] : per.load_shared;
        wo.duration = duration;
        wo.iterations = iterations;
        wo.size = size;
        wo.burst = burst;
        ro.apply_parser(wo);
        drivers::RunPlan rp;
        try {
            Workload w = make_workload(wo);
            rp.command = std::move(w.command);
            rp.workload = std::move(w.record);
            if (!parser) parser = std::move(w.parser);
            rp.tags = w.tags;
        } catch (const std::invalid_argument& e) {
            return fail(std::string("variant '") + v + "': " + e.what());
        }
        for (const auto& [key, value] : per.tags_all) rp.tags[key] = value;
        for (const auto& [key, value] : per.tags_of[v]) rp.tags[key] = value;
        rp.env = per.env_of[v];
        if (rp.workload) rp.workload->env.clear();
        rp.variant = v;
        rp.prepare = per.prepare_of.count(v) ? per.prepare_of[v] : per.prepare_all;
        rp.cleanup = per.cleanup_of.count(v) ? per.cleanup_of[v] : per.cleanup_all;
        rp.results_path = output;
        rp.log_dir = log_dir;
        rp.timeout_s = timeout;
        rp.cooldown_s = cooldown;
        rp.max_consecutive_failures = max_failures;
        plan.variants.push_back(std::move(rp));
    }

    if (const std::string e = apply_image_checks(app, *checks, plan.variants); !e.empty()) return fail(e);
    if (!stored.given())
        std::fprintf(stderr, "%s: %s\n", kProg,
                     report::ab_plan_line(plan, variants, order_name, report.confidence, report.threshold_pct).c_str());

    const double per_confidence = drivers::per_comparison_confidence(report.confidence, variants.size() - 1);
    install_stop_handler(on_ab_signal);
    drivers::TuneGuard tuning(kProg);  // restores on every return below
    if (const auto rc = drivers::start_measuring(kProg, tuning, ro.tune, ro.no_check, g_stop_signals)) return *rc;
    const size_t first_bounded = drivers::first_bounded_block(1 - per_confidence);
    const bool tty = isatty(STDERR_FILENO);
    size_t last_width = 0;
    const auto clear_line = [&] {
        if (tty && last_width) std::fprintf(stderr, "\r%*s\r", static_cast<int>(last_width), "");
        last_width = 0;
    };
    drivers::AbReport result;
    // Inside a LAVA test shell: the results and verdicts as test cases, or
    // a raise when the runs could not be set up (report/ci/lava_report.h).
    LavaReport lava(kProg, lava_mode);
    try {
        result = drivers::run_ab(
            plan, *parser,
            [&](const drivers::AbRunProgress& p) {
                if (!tty) {
                    // Without a terminal only what went wrong, as it happens.
                    if (const auto failure = report::ab_run_failure_line(p))
                        std::fprintf(stderr, "%s: %s\n", kProg, failure->c_str());
                    return;
                }
                const std::string line = escape_message(report::ab_run_line(p));
                clear_line();
                std::fprintf(stderr, "%s", line.c_str());
                last_width = line.size();
                std::fflush(stderr);
            },
            [&](const drivers::AbBlockProgress& p) {
                clear_line();
                for (const std::string& line :
                     report::ab_block_lines(p, variants, first_bounded, report.threshold_pct, plan.blocks.has_value()))
                    std::fprintf(stderr, "%s: %s\n", kProg, escape_message(line).c_str());
                // The noise puts the threshold out of --max-runs' reach: said, and the runs go on.
                for (size_t c = 0; c < p.advice.size(); ++c)
                    if (p.advice[c])
                        for (const std::string& line : report::ab_advice_lines(*p.advice[c], variants[c + 1], variants[0], kProg))
                            std::fprintf(stderr, "%s\n", line.c_str());
                std::fflush(stderr);
            });
    } catch (const data::InputError& e) {
        clear_line();
        const int status = fail(e.what());
        lava.setup_failed(e.what());
        return status;
    } catch (const std::invalid_argument& e) {
        clear_line();
        const int status = fail(e.what());
        lava.setup_failed(e.what());
        return status;
    } catch (const std::exception& e) {
        clear_line();
        std::fprintf(stderr, "%s: %s; every finished run is in %s\n", kProg, escape_message(e.what()).c_str(),
                     escape_text(output).c_str());
        lava.setup_failed(e.what());
        return 1;
    }
    clear_line();
    for (const std::string& w : result.warnings)
        std::fprintf(stderr, "%s: warning: %s\n", kProg, escape_message(w).c_str());

    std::fprintf(stderr, "%s: %s\n", kProg, report::ab_recorded_line(result, output).c_str());
    if (result.outcome == drivers::RunOutcome::invalid || result.outcome == drivers::RunOutcome::error)
        lava.setup_failed(result.message);
    else if (result.outcome != drivers::RunOutcome::completed)
        lava.results(output, variants);  // no comparison: the runs stopped early
    // The runs failed: no comparison, exit 4 (not the gate's 1), and the CI
    // reports asked for say so (a JUnit error, a KCIDB ERROR...).
    const auto runs_failed = [&](const std::string& why) {
        if (report.exports.empty()) return kExitRunsFailed;
        RunsFailed f;
        f.message = why;
        f.metric = result.metric;
        for (size_t v = 0; v < variants.size(); ++v)
            f.variants.push_back({variants[v], v < result.usable.size() ? result.usable[v] : 0,
                                  v < result.failed_by_variant.size() ? result.failed_by_variant[v] : 0,
                                  v < result.last_failure.size() ? result.last_failure[v] : ""});
        ExportContext ctx;
        ctx.gate = {report.gate, report.strict};
        ctx.program = kProg;
        ctx.kcidb_origin = report.kcidb_origin;
        ctx.generated_at = data::utc_now_rfc3339();
        try {
            write_runs_failed_exports(report.exports, f, ctx);
        } catch (const data::InputError& e) {
            // The runs' failure stays the exit status: it is what the job must show.
            std::fprintf(stderr, "%s: %s\n", kProg, escape_message(e.what()).c_str());
        }
        return kExitRunsFailed;
    };
    if (result.outcome == drivers::RunOutcome::interrupted) {
        std::fprintf(stderr, "%s: %s; 'gfxstat compare %s' analyses them\n", kProg,
                     escape_message(result.message).c_str(), escape_text(output).c_str());
        return stopped_status(g_stop_signals);
    }
    // A loop that did not complete ends here; when its runs failed, their
    // exports are written too.
    if (const int status = run_outcome_status(kProg, result.outcome, result.message, g_stop_signals))
        return status == kExitRunsFailed ? runs_failed(result.message) : status;
    // A side with fewer than 2 usable runs cannot be compared: the runs
    // failed (as for --max-failures), and the reason is the variant's.
    for (size_t v = 0; v < variants.size(); ++v)
        if (v < result.usable.size() && result.usable[v] < 2) {
            const std::string why = report::ab_too_few_runs(result, variants, v);
            std::fprintf(stderr, "%s: %s; every run is in %s\n", kProg, escape_message(why).c_str(),
                         escape_text(output).c_str());
            lava.results(output, variants);
            return runs_failed(why);
        }
    std::fprintf(stderr, "%s: %s\n", kProg, report::ab_end_line(plan, result, variants, max_runs).c_str());
    std::fflush(stderr);

    // The verdict: compare on the file, as anyone can run it later.
    const std::vector<std::string> inputs = stored_baseline_inputs(stored, output, variants, report);
    lava.collect_verdicts(report.exports);
    const int status = with_compare_errors(kProg, [&] {
        const auto started = std::chrono::steady_clock::now();
        return report_comparison(findings::compare(read_compare_inputs(inputs, report), analysis_options(report),
                                                   compare_notes(kProg)), report, stdout, started);
    });
    lava.results(output, variants);
    return status;
}

}  // namespace gfxstat::cli
