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

#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "analysis/bisect_classify.h"
#include "cli/command_describe.h"
#include "cli/command_line.h"
#include "text/nearest_word.h"
#include "cli/workload_setup.h"
#include "data/blocked_pairs.h"
#include "data/input_error.h"
#include "data/results_reader.h"
#include "drivers/bisect_step.h"
#include "drivers/git_revisions.h"
#include "formats/lava_testdef.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

constexpr const char* kProg = "gfxstat bisect";

const SubcommandSummary kSubcommands[] = {
    {"check", "whether the good and bad builds' runs differ beyond the threshold: something to bisect"},
    {"step", "for git bisect run: build the commit, run the workload until it is like good or like bad "
             "(exit 0 / 1; 125 skips)"},
    {"report", "each step of a bisection (commit, runs, estimate, call) and the first bad commit with its evidence"},
};

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

std::string percent(double x) {
    if (std::isnan(x)) return "n/a";
    if (!std::isfinite(x)) return x > 0 ? "+inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.3g%%", 100 * x);
    return buf;
}

std::string interval(double lo, double hi) { return "[" + percent(lo) + ", " + percent(hi) + "]"; }

std::string number(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", x);
    return buf;
}

std::string short_id(const std::string& id) {
    return id.empty() ? "(work tree)" : id.substr(0, std::min<size_t>(12, id.size()));
}

// --good/--bad and what they share: the references and the analysis.
struct ReferenceOptions {
    std::string good, good_variant, bad, bad_variant, metric;
    double threshold_pct = 1, confidence = 0.95;
    size_t steps = 0, commits = 0, max_runs = 50, min_runs = 3;
};

void add_reference_options(CLI::App& app, ReferenceOptions& o, bool for_step) {
    app.add_option("--good", o.good, "results file of the good build's runs")->required();
    app.add_option("--bad", o.bad, "results file of the bad build's runs")->required();
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

struct Reference {
    data::BisectReferenceRecord record;
    data::MetricInfo metric;
    std::optional<data::WorkloadRecord> workload;
    size_t excluded = 0;  // runs not used: failed, warm-ups, without the metric
};

Reference load_reference(const std::string& path, const std::string& variant, const std::string& metric_wanted,
                         const char* side) {
    const data::ResultsFile file = data::read_results_path(path, path);
    Reference r;
    r.record.file = path;
    const std::vector<std::string> variants = file.variants();
    if (variants.empty()) throw data::input_error(path, 0, "holds no runs");
    if (variant.empty()) {
        if (variants.size() > 1) {
            std::string list;
            for (const auto& v : variants) list += (list.empty() ? "" : ", ") + data::quote_token(v);
            throw data::input_error(path, 0,
                                    "holds several variants (" + list + "): say which is the " + side +
                                        " build with --" + side + "-variant");
        }
        r.record.variant = variants[0];
    } else {
        if (std::find(variants.begin(), variants.end(), variant) == variants.end())
            throw data::input_error(path, 0, "has no variant " + data::quote_token(variant) + text::did_you_mean(variant, variants));
        r.record.variant = variant;
    }
    std::string metric = metric_wanted;
    if (metric.empty()) {
        std::vector<data::MetricInfo> candidates;
        for (const auto& m : file.metrics())
            if (!m.within_run()) candidates.push_back(m);
        metric = drivers::default_tracked(candidates);
        if (metric.empty()) throw data::input_error(path, 0, "declares no metric");
    }
    const data::MetricInfo* info = file.find_metric(metric);
    if (!info) {
        std::vector<std::string> names;
        for (const auto& m : file.metrics()) names.push_back(m.name);
        throw data::input_error(path, 0, "has no metric " + data::quote_token(metric) + text::did_you_mean(metric, names));
    }
    if (info->within_run())
        throw data::input_error(path, 0, "metric " + data::quote_token(metric) + " holds per-" + info->per +
                                             " values; bisect a per-run summary of it");
    r.metric = *info;
    for (const auto& run : file.runs()) {
        if (run.variant != r.record.variant) continue;
        const std::optional<double> x =
            run.exit_class == data::ExitClass::ok && !run.warmup ? data::run_value(run, metric) : std::nullopt;
        if (!x || !std::isfinite(*x)) {
            ++r.excluded;
            continue;
        }
        r.record.values.push_back(*x);
        if (!r.workload)
            if (const data::Environment* env = file.find_environment(run.environment)) r.workload = env->workload;
    }
    if (r.record.values.empty())
        throw data::input_error(path, 0,
                                "variant " + data::quote_token(r.record.variant) + " has no run that ended ok with " +
                                    data::quote_token(metric));
    return r;
}

// The plan both check and step make from the options.
struct Prepared {
    Reference good, bad;
    data::BisectPlanRecord plan;
    bool steps_given = false;
    std::string steps_said;  // where the expected steps came from, in words
};

Prepared prepare(const ReferenceOptions& o, const std::string& work_dir) {
    Prepared p;
    p.good = load_reference(o.good, o.good_variant, o.metric, "good");
    p.bad = load_reference(o.bad, o.bad_variant, p.good.metric.name, "bad");
    if (!p.good.metric.same_declaration(p.bad.metric))
        throw data::input_error(o.bad, 0,
                                "declares " + data::quote_token(p.good.metric.name) +
                                    " otherwise than the good file (unit, direction or kind): not the same measurement");
    p.plan.metric = p.good.metric.name;
    p.plan.unit = p.good.metric.unit;
    p.plan.direction = p.good.metric.direction;
    p.plan.exact = p.good.metric.exact;
    p.plan.good = p.good.record;
    p.plan.bad = p.bad.record;
    p.plan.threshold = o.threshold_pct / 100;
    p.plan.confidence = o.confidence;
    p.plan.max_runs = o.max_runs;
    p.plan.min_runs = std::min(o.min_runs, o.max_runs);
    if (o.steps) {
        p.plan.expected_steps = o.steps;
        p.steps_given = true;
        p.steps_said = "--steps";
    } else if (o.commits) {
        p.plan.commits = o.commits;
        p.plan.expected_steps = analysis::bisect_expected_steps(o.commits);
        p.steps_given = true;
        p.steps_said = std::to_string(o.commits) + " commits (--commits)";
    } else {
        const drivers::GitBisectState s = drivers::git_bisect_state(work_dir);
        if (s.active && s.candidates > 0) {
            p.plan.commits = s.candidates;
            p.plan.expected_steps = analysis::bisect_expected_steps(s.candidates);
            p.steps_said = std::to_string(s.candidates) + " commits left in git's bisection";
        } else {
            p.steps_said = "assumed (no git bisection under way: --commits or --steps says)";
        }
    }
    return p;
}

const char* direction_words(data::Direction d) {
    switch (d) {
        case data::Direction::lower_is_better: return "lower is better";
        case data::Direction::higher_is_better: return "higher is better";
        default: return "direction unknown";
    }
}

// The references and the budget, in the words check and report share.
std::vector<std::string> reference_lines(const data::BisectPlanRecord& plan, const analysis::BisectReferences& r) {
    std::vector<std::string> out;
    const std::string unit = plan.unit.empty() ? "" : " " + escape_text(plan.unit);
    out.push_back("metric " + escape_text(plan.metric) + " (" + (plan.unit.empty() ? "" : escape_text(plan.unit) + ", ") +
                  direction_words(plan.direction) + "), per run the mean of its values" +
                  (r.log_scale ? ", compared as ratios" : ""));
    const auto side = [&](const char* name, const data::BisectReferenceRecord& ref, double center, double sd) {
        std::string line = std::string("  ") + name + "  " + escape_text(ref.file);
        if (!ref.variant.empty()) line += " (" + escape_text(ref.variant) + ")";
        line += ": " + std::to_string(ref.values.size()) + " runs, " + (r.log_scale ? "geometric mean " : "mean ") +
                number(center) + unit;
        if (ref.values.size() >= 2) line += r.log_scale ? ", spread " + percent(std::expm1(sd)).substr(1) : ", sd " + number(sd);
        out.push_back(line);
    };
    side("good", plan.good, r.good_center, r.good_sd);
    side("bad ", plan.bad, r.bad_center, r.bad_sd);
    char buf[160];
    std::snprintf(buf, sizeof buf, "  bad vs good: %s %s (%.4g%% interval), p = %.3g", percent(r.change).c_str(),
                  interval(r.change_lower, r.change_upper).c_str(), 100 * (1 - r.reference_alpha), r.p);
    out.push_back(buf);
    std::snprintf(buf, sizeof buf,
                  "error budget %g%%: %zu steps and the references, %.3g%% each; a call needs evidence +-%.2f",
                  100 * (1 - plan.confidence), plan.expected_steps, 100 * r.step_alpha, r.evidence_needed);
    out.push_back(buf);
    return out;
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
    ReferenceOptions o;
    std::string format = "text", work_dir = ".";
    add_reference_options(app, o, false);
    app.add_option("-C", work_dir, "the git work tree (default: the current directory)");
    app.add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    Prepared p;
    analysis::BisectReferences r;
    try {
        p = prepare(o, work_dir);
        r = analysis::bisect_references(p.plan.good.values, p.plan.bad.values, drivers::bisect_options(p.plan));
    } catch (const data::InputError& e) {
        return fail_with("check", e.what(), 2);
    } catch (const std::invalid_argument& e) {
        return fail_with("check", e.what(), 2);
    }
    std::string out;
    if (format == "json") {
        nlohmann::json j = {
            {"metric", p.plan.metric},
            {"unit", p.plan.unit},
            {"log_scale", r.log_scale},
            {"good", {{"file", p.plan.good.file}, {"variant", p.plan.good.variant}, {"runs", r.good_runs},
                      {"center", r.good_center}}},
            {"bad", {{"file", p.plan.bad.file}, {"variant", p.plan.bad.variant}, {"runs", r.bad_runs},
                     {"center", r.bad_center}}},
            {"change", r.change},
            {"change_interval", {std::isfinite(r.change_lower) ? nlohmann::json(r.change_lower) : nlohmann::json(),
                                 std::isfinite(r.change_upper) ? nlohmann::json(r.change_upper) : nlohmann::json()}},
            {"p", r.p},
            {"threshold", p.plan.threshold},
            {"confidence", p.plan.confidence},
            {"expected_steps", p.plan.expected_steps},
            {"step_alpha", r.step_alpha},
            {"expected_runs_per_step", r.expected_runs ? nlohmann::json(*r.expected_runs) : nlohmann::json()},
            {"differ", r.differ},
            {"why", r.why},
        };
        out = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    } else {
        out = "gfxstat bisect check: ";
        for (const auto& line : reference_lines(p.plan, r)) out += line + "\n";
        out += "  (steps: " + p.steps_said + ")\n";
        out += (r.differ ? "ready to bisect: " : "nothing to bisect: ") + escape_text(r.why) + "\n";
        if (r.differ) {
            if (r.expected_runs)
                out += "a commit at either level should settle in about " +
                       std::to_string(std::max(*r.expected_runs, p.plan.min_runs)) + " runs (at most " +
                       std::to_string(p.plan.max_runs) + ")\n";
            else
                out += "warning: at this spread a commit may not settle within " + std::to_string(p.plan.max_runs) +
                       " runs (--max-runs); steps would be skipped undecided\n";
        }
    }
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
    ReferenceOptions o;
    std::string steps_path, results_path, build, log_dir, parser_name, metric_name, unit, work_dir = ".";
    std::vector<std::string> command, regexes;
    double timeout = 0, cooldown = 0;
    size_t warmup = 0, max_failures = 3;
    bool lower = false, higher = false;
    add_reference_options(app, o, true);
    app.add_option("-o,--output", steps_path, "the steps file (created by the first step, added to by each)")
        ->required();
    app.add_option("--results", results_path, "results file of every run (default: STEPS with .results.json)");
    app.add_option("--build", build, "shell command that builds the commit checked out; failing: skip it");
    app.add_option("-C", work_dir, "the git work tree, where --build runs (default: the current directory)");
    app.add_option("command", command,
                   "-- COMMAND [ARGS...]: the workload, without a shell (default: the one the good runs recorded)");
    app.add_option("--parser", parser_name, "how to read the output (default: as the good runs were read)");
    app.add_option("--metric", regexes, "NAME=REGEX with one capture group, matched per line (repeatable)")
        ->allow_extra_args(false);
    app.add_option("--metric-name", metric_name, "the lines parser's metric name");
    app.add_option("--unit", unit, "unit of the --metric or lines metrics");
    auto* lo = app.add_flag("--lower-is-better", lower, "direction of the --metric or lines metrics");
    app.add_flag("--higher-is-better", higher, "direction of the --metric or lines metrics")->excludes(lo);
    app.add_option("--warmup", warmup, "warm-up runs of each commit first, recorded and left out")
        ->check(CLI::Range(0, 1000));
    app.add_option("--timeout", timeout, "seconds per run; then SIGTERM, SIGKILL to its process group")
        ->check(number_in(0.001, 1e7));
    app.add_option("--cooldown", cooldown, "seconds to wait between runs")->check(number_in(0.0, 1e7));
    app.add_option("--max-failures", max_failures, "skip the commit after this many runs in a row without a value")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--log-dir", log_dir, "where each run's output and the build's go (default: RESULTS.logs)");
    if (const auto done = parse_command_line(app, argc, argv)) return *done == 0 ? 0 : drivers::kBisectAbort;
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
        Prepared p = prepare(o, work_dir);
        plan.plan = std::move(p.plan);
        plan.expected_steps_given = p.steps_given;
        WorkloadOptions wo;
        wo.command = command;
        const bool parser_given = !parser_name.empty() || !regexes.empty() || !metric_name.empty() || !unit.empty() ||
                                  lower || higher;
        if (p.good.workload) {
            if (wo.command.empty()) wo.command = p.good.workload->argv;
            if (!parser_given) parser_from_record(*p.good.workload, wo);
        }
        if (parser_given) {
            wo.parser_name = parser_name;
            wo.metric_name = metric_name;
            wo.regexes = regexes;
            wo.unit = unit;
            wo.direction = lower ? data::Direction::lower_is_better
                                 : higher ? data::Direction::higher_is_better : data::Direction::unknown;
        }
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
                std::fprintf(stderr, "%s step: building %s\n", kProg, escape_text(short_id(commit)).c_str());
            },
            [&](const drivers::BisectRunProgress& pr) {
                if (!tty || pr.warmup) return;
                const analysis::BisectLook& l = pr.look;
                std::string line = "run " + std::to_string(l.runs) + ": " + percent(l.estimate) + " against good";
                if (std::isfinite(l.lower) && std::isfinite(l.upper) && l.lower > -1)
                    line += " " + interval(l.lower, l.upper);
                char ev[64];
                std::snprintf(ev, sizeof ev, ", evidence %+.2f of +-%.2f", l.evidence, pr.evidence_needed);
                line += ev;
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
        for (const auto& line : reference_lines(plan.plan, result.refs)) budget += line + "\n";
        std::fprintf(stderr, "%s step: started %s\n%s", kProg, escape_text(steps_path).c_str(), budget.c_str());
    }
    if (g_stop_signal) return stopped_status(g_stop_signal);
    if (result.exit >= 128) return fail_with("step", result.message, result.exit);
    for (const auto& line : result.build_tail) std::fprintf(stderr, "  | %s\n", escape_text(line).c_str());
    const data::BisectStepRecord& s = result.step;
    std::string line = "step " + std::to_string(result.step_number) + ": " + short_id(s.commit);
    if (!s.subject.empty()) line += " \"" + escape_text(s.subject) + "\"";
    line += ": " + s.call;
    if (!s.values.empty()) {
        const analysis::BisectLook& l = result.look;
        line += ", " + percent(l.estimate) + " against good";
        if (std::isfinite(l.lower) && std::isfinite(l.upper) && l.lower > -1) line += " " + interval(l.lower, l.upper);
        line += " after " + std::to_string(s.values.size()) + " run" + (s.values.size() == 1 ? "" : "s");
    }
    if (s.call == "skip") line += " (" + escape_message(s.reason) + ")";
    std::printf("%s %s\n", kProg, line.c_str());
    return check_output_written("gfxstat bisect step", result.exit);
}

// ---------------------------------------------------------------- report

struct StepView {
    const data::BisectStepRecord* step;
    analysis::BisectLook look;
};

std::string step_estimate(const StepView& v) {
    if (v.step->values.empty()) return "";
    std::string s = percent(v.look.estimate);
    if (std::isfinite(v.look.lower) && std::isfinite(v.look.upper) && v.look.lower > -1)
        s += " " + interval(v.look.lower, v.look.upper);
    return s;
}

int report_main(int argc, char** argv) {
    CLI::App app{"The steps of a bisection (commit, runs, estimate against the good build with its interval, "
                 "call) and the first bad commit with the evidence on both sides.",
                 "gfxstat bisect report"};
    std::string path, format = "text";
    app.add_option("steps", path, "the steps file (bisect step -o)")->required();
    app.add_option("--format", format, "text, markdown or json")->check(CLI::IsMember({"text", "markdown", "json"}));
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    data::BisectLog log;
    analysis::BisectReferences refs;
    std::vector<StepView> views;
    try {
        log = data::read_bisect_log(path);
        refs = analysis::bisect_references(log.plan.good.values, log.plan.bad.values, drivers::bisect_options(log.plan));
        for (const auto& s : log.steps) {
            StepView v{&s, {}};
            try {
                v.look = analysis::bisect_look(refs, s.values);
            } catch (const std::invalid_argument& e) {
                throw data::input_error(path, 0, "step of " + short_id(s.commit) + ": " + e.what());
            }
            views.push_back(v);
        }
    } catch (const data::InputError& e) {
        return fail_with("report", e.what(), 2);
    } catch (const std::invalid_argument& e) {
        return fail_with("report", std::string(path) + ": " + e.what(), 2);
    }
    const std::optional<drivers::FirstBad> first = drivers::first_bad_commit(log);
    const size_t tested = std::count_if(log.steps.begin(), log.steps.end(), [](const auto& s) { return s.call != "skip"; });
    const bool over_budget = log.steps.size() > log.plan.expected_steps;
    const auto subject_of = [&](const std::string& commit) -> std::string {
        for (const auto& s : log.steps)
            if (s.commit == commit) return s.subject;
        return "";
    };
    const auto evidence = [&](const std::optional<size_t>& step, const std::string& commit, bool bad_side) {
        if (step) {
            const StepView& v = views[*step];
            return short_id(commit) + " " + step_estimate(v) + " against good after " +
                   std::to_string(v.step->values.size()) + " runs (" + v.step->call + ", step " +
                   std::to_string(*step + 1) + ")";
        }
        return short_id(commit) + " is the bisection's " + (bad_side ? "bad" : "good") + " commit (" +
               (bad_side ? percent(refs.change) + " against good, " + std::to_string(refs.bad_runs) + " runs"
                         : std::to_string(refs.good_runs) + " runs") +
               ")";
    };

    std::string out;
    if (format == "json") {
        using nlohmann::json;
        const auto num = [](double x) { return std::isfinite(x) ? json(x) : json(); };
        json steps = json::array();
        for (size_t i = 0; i < views.size(); ++i) {
            const auto& s = *views[i].step;
            steps.push_back({{"step", i + 1},
                             {"commit", s.commit},
                             {"subject", s.subject},
                             {"build", s.build},
                             {"runs", s.values.size()},
                             {"failed_runs", s.failed_runs},
                             {"estimate", s.values.empty() ? json() : num(views[i].look.estimate)},
                             {"interval", {num(views[i].look.lower), num(views[i].look.upper)}},
                             {"position", s.values.empty() ? json() : num(views[i].look.position)},
                             {"evidence", s.values.empty() ? json() : num(views[i].look.evidence)},
                             {"call", s.call},
                             {"exit", s.exit},
                             {"reason", s.reason}});
        }
        json j = {{"metric", log.plan.metric},
                  {"unit", log.plan.unit},
                  {"good", {{"file", log.plan.good.file}, {"variant", log.plan.good.variant}, {"runs", refs.good_runs},
                            {"center", refs.good_center}}},
                  {"bad", {{"file", log.plan.bad.file}, {"variant", log.plan.bad.variant}, {"runs", refs.bad_runs},
                           {"center", refs.bad_center}}},
                  {"change", refs.change},
                  {"change_interval", {num(refs.change_lower), num(refs.change_upper)}},
                  {"confidence", log.plan.confidence},
                  {"expected_steps", log.plan.expected_steps},
                  {"step_alpha", refs.step_alpha},
                  {"evidence_needed", refs.evidence_needed},
                  {"steps", steps},
                  {"over_budget", over_budget}};
        if (first) {
            j["first_bad"] = {{"commit", first->commit}, {"subject", subject_of(first->commit)},
                              {"good_parent", first->parent}, {"candidates", first->candidates}};
        } else {
            j["first_bad"] = nullptr;
        }
        out = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    } else {
        const bool md = format == "markdown";
        std::vector<std::string> head = reference_lines(log.plan, refs);
        if (md) {
            out += "**gfxstat bisect** — " + head[0] + "\n\n";
            for (size_t i = 1; i < head.size(); ++i) out += "- " + head[i].substr(head[i].find_first_not_of(' ')) + "\n";
            out += "\n| step | commit | runs | against good | evidence | call | subject |\n|---:|---|---:|---|---:|---|---|\n";
        } else {
            out += "gfxstat bisect: " + head[0] + "\n";
            for (size_t i = 1; i < head.size(); ++i) out += head[i] + "\n";
            out += "\nstep  commit        runs  against good                 evidence  call  subject\n";
        }
        for (size_t i = 0; i < views.size(); ++i) {
            const auto& s = *views[i].step;
            std::string est = step_estimate(views[i]);
            if (s.build == "failed") est = "build failed";
            char ev[32] = "";
            if (!s.values.empty()) std::snprintf(ev, sizeof ev, "%+.1f", views[i].look.evidence);
            std::string subj = escape_text(s.subject);
            if (md) {
                // '|' would end the cell.
                std::string cell;
                for (char c : subj) cell += c == '|' ? std::string("\\|") : std::string(1, c);
                out += "| " + std::to_string(i + 1) + " | `" + short_id(s.commit) + "` | " +
                       std::to_string(s.values.size()) + " | " + est + " | " + ev + " | " + s.call + " | " + cell + " |\n";
            } else {
                char buf[160];
                std::snprintf(buf, sizeof buf, "%4zu  %-12s  %4zu  %-27s  %8s  %-4s  ", i + 1,
                              short_id(s.commit).c_str(), s.values.size(), est.c_str(), ev, s.call.c_str());
                out += buf + subj + "\n";
            }
        }
        out += "\n";
        if (over_budget) {
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          "note: %zu steps against a budget made for %zu: the chance that one was wrong is up to "
                          "%.3g%%, not %.3g%%\n",
                          log.steps.size(), log.plan.expected_steps,
                          100 * refs.step_alpha * static_cast<double>(log.steps.size() + 1),
                          100 * (1 - log.plan.confidence));
            out += buf;
        }
        if (first) {
            const std::string subj = subject_of(first->commit);
            out += std::string(md ? "**first bad commit:** `" : "first bad commit: ") + first->commit +
                   (md ? "`" : "") + (subj.empty() ? "" : " \"" + escape_text(subj) + "\"") + "\n";
            out += std::string(md ? "- " : "  ") + "bad:  " + evidence(first->commit_step, first->commit, true) + "\n";
            out += std::string(md ? "- " : "  ") + "good: " + evidence(first->parent_step, first->parent, false) + "\n";
            if (first->candidates > 1)
                out += "warning: " + std::to_string(first->candidates) +
                       " commits called bad have a parent called good: the steps disagree (a merge, or a wrong "
                       "call); the last one tested is shown\n";
        } else {
            out += "first bad commit: not shown by the steps yet (" + std::to_string(tested) + " commit" +
                   (tested == 1 ? "" : "s") + " called, " + std::to_string(log.steps.size() - tested) +
                   " skipped)\n";
        }
    }
    if (const int rc = write_stdout_now("gfxstat bisect report", out)) return rc;
    return first ? 0 : 1;
}

}  // namespace

int bisect_main(int argc, char** argv) {
    if (argc < 2 && describe_requested())
        return describe_fixed({kProg, "Which commit changed performance: gfxstat's step for git bisect run, with "
                                      "an error budget over the whole bisection.",
                               "See docs/bisect.md.", {}, {std::begin(kSubcommands), std::end(kSubcommands)}, {}});
    if (argc < 2) {
        std::fprintf(stderr, "%s: missing SUBCOMMAND\n", kProg);
        usage(stderr);
        return 2;
    }
    const std::string sub = argv[1];
    if (sub == "-h" || sub == "--help" || sub == "help") {
        usage(stdout);
        return 0;
    }
    if (sub == "check") return check_main(argc - 1, argv + 1);
    if (sub == "step") return step_main(argc - 1, argv + 1);
    if (sub == "report") return report_main(argc - 1, argv + 1);
    std::fprintf(stderr, "%s: unknown subcommand '%s'%s\n", kProg, escape_text(sub).c_str(),
                 text::did_you_mean(sub, {"check", "step", "report"}).c_str());
    usage(stderr);
    // Not 2: under `git bisect run` a mistyped "step" would mark every
    // commit bad; above 127 stops the bisection instead.
    return drivers::kBisectAbort;
}

}  // namespace gfxstat::cli
