// SPDX-License-Identifier: MIT
// bisect_step.h: the build, the runs and the steps file of one step.
#include "drivers/bisect_step.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "data/blocked_pairs.h"
#include "data/gfxstat_version.h"
#include "data/input_error.h"
#include "data/results_writer.h"
#include "data/safe_files.h"
#include "drivers/git_revisions.h"
#include "drivers/process_runner.h"

namespace gfxstat::drivers {

namespace {

std::string short_id(const std::string& id) { return id.substr(0, std::min<size_t>(12, id.size())); }

// The last `n` lines of a file (a failed build's stderr), for the message.
std::vector<std::string> last_lines(const std::string& path, size_t n) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        lines.push_back(line.size() > 300 ? line.substr(0, 300) + "..." : line);
        if (lines.size() > n) lines.erase(lines.begin());
    }
    return lines;
}

bool same_references(const data::BisectPlanRecord& a, const data::BisectPlanRecord& b) {
    return a.metric == b.metric && a.good.values == b.good.values && a.bad.values == b.bad.values &&
           a.threshold == b.threshold && a.confidence == b.confidence;
}

}  // namespace

analysis::BisectOptions bisect_options(const data::BisectPlanRecord& plan) {
    analysis::BisectOptions o;
    o.confidence = plan.confidence;
    o.threshold = plan.threshold;
    o.expected_steps = plan.expected_steps;
    o.max_runs = plan.max_runs;
    o.exact = plan.exact;
    return o;
}

std::optional<FirstBad> first_bad_commit(const data::BisectLog& log) {
    // Good and bad as the steps called them, the references included; a
    // commit tested twice takes its last call.
    std::set<std::string> good(log.plan.good_commits.begin(), log.plan.good_commits.end()), bad;
    std::vector<std::pair<std::string, std::vector<std::string>>> bad_with_parents;  // in step order
    if (!log.plan.bad_commit.empty()) {
        bad.insert(log.plan.bad_commit);
        bad_with_parents.emplace_back(log.plan.bad_commit, log.plan.bad_parents);
    }
    std::map<std::string, size_t> step_of;
    for (size_t i = 0; i < log.steps.size(); ++i) {
        const auto& s = log.steps[i];
        if (s.commit.empty() || s.call == "skip") continue;
        step_of[s.commit] = i;
        if (s.call == "good") {
            good.insert(s.commit);
            bad.erase(s.commit);
        } else {
            bad.insert(s.commit);
            good.erase(s.commit);
            bad_with_parents.emplace_back(s.commit, s.parents);
        }
    }
    std::optional<FirstBad> found;
    size_t candidates = 0;
    std::set<std::string> seen;
    for (const auto& [commit, parents] : bad_with_parents) {
        if (!bad.count(commit) || !seen.insert(commit).second) continue;
        for (const auto& p : parents)
            if (good.count(p)) {
                ++candidates;
                FirstBad f;
                f.commit = commit;
                f.parent = p;
                if (step_of.count(commit)) f.commit_step = step_of[commit];
                if (step_of.count(p)) f.parent_step = step_of[p];
                found = f;  // the last one tested wins: it is where the search ended
                break;
            }
    }
    if (found) found->candidates = candidates;
    return found;
}

BisectStepReport run_bisect_step(const BisectStepPlan& plan, const OutputParser& parser,
                                 const std::function<void(const std::string&)>& on_build,
                                 const std::function<void(const BisectRunProgress&)>& on_run) {
    BisectStepReport report;
    clear_run_plan_interruption();

    // The steps file: the one there, or a new one for this plan.
    data::BisectLog log;
    // Refused before any run: the steps file is rewritten after the step,
    // and never through a link (data::write_file_atomically would refuse
    // it then, after the runs).
    struct stat st {};
    if (::lstat(plan.steps_path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
        throw data::input_error(plan.steps_path, 0, "is a symbolic link: gfxstat does not write through one");
    if (::access(plan.steps_path.c_str(), F_OK) == 0) {
        log = data::read_bisect_log(plan.steps_path);
        if (!same_references(log.plan, plan.plan))
            throw data::input_error(plan.steps_path, 0,
                                    "was made for other references (good, bad, metric, threshold or confidence "
                                    "differ): give the same ones, or a new -o for a new bisection");
    } else {
        report.new_log = true;
        log.plan = plan.plan;
        log.plan.created = data::utc_now_rfc3339();
        log.plan.generator = std::string("gfxstat ") + data::gfxstat_version();
        const GitBisectState state = git_bisect_state(plan.work_dir);
        if (state.active) {
            log.plan.good_commits = state.good;
            log.plan.bad_commit = state.bad;
            log.plan.bad_parents = state.bad_parents;
            if (!plan.expected_steps_given && state.candidates > 0) {
                log.plan.commits = state.candidates;
                log.plan.expected_steps = analysis::bisect_expected_steps(state.candidates);
            }
        } else if (!plan.expected_steps_given) {
            report.warnings.push_back("no git bisection is under way here, so the number of steps is not known; "
                                      "the error budget assumes " +
                                      std::to_string(log.plan.expected_steps) + " (--steps sets it)");
        }
    }
    report.refs = analysis::bisect_references(log.plan.good.values, log.plan.bad.values, bisect_options(log.plan));
    if (!report.refs.differ) {
        report.exit = kBisectAbort;
        report.message = "nothing to bisect: " + report.refs.why;
        return report;
    }

    // The commit.
    data::BisectStepRecord& step = report.step;
    step.started = data::utc_now_rfc3339();
    std::string why_not;
    if (const auto head = git_head(plan.work_dir, &why_not)) {
        step.commit = head->id;
        step.subject = head->subject;
        step.parents = head->parents;
    } else {
        report.warnings.push_back("not a git work tree (" + why_not + "): the step is recorded without a commit");
    }
    const std::string variant = step.commit.empty() ? "worktree" : short_id(step.commit);

    RunPlan rp = plan.run;
    rp.variant = variant;
    if (!step.commit.empty()) rp.tags["commit"] = step.commit;
    const auto finish = [&](int exit, const std::string& call, const std::string& reason) {
        step.exit = exit;
        step.call = call;
        step.reason = reason;
        step.ended = data::utc_now_rfc3339();
        log.steps.push_back(step);
        data::write_bisect_log(plan.steps_path, log);
        report.exit = exit;
        report.step_number = log.steps.size();
        if (call == "skip") report.message = reason;
        return report;
    };

    // The build, with its output in the run logs' directory (private to
    // this user, so the names in it cannot be links someone else planted).
    step.build = "none";
    if (!log.plan.build.empty()) {
        if (on_build) on_build(step.commit);
        const bool beside = rp.log_dir.empty();
        const std::string log_dir = beside ? rp.results_path + ".logs" : rp.log_dir;
        data::make_directories(log_dir);
        {
            const data::UniqueFd dir = data::open_directory_nofollow(log_dir);
            data::check_private_directory(dir.get(), log_dir, "the log directory");
        }
        ProcessSpec spec;
        spec.argv = {"/bin/sh", "-c", log.plan.build};
        spec.working_directory = plan.work_dir;
        spec.stdout_path = log_dir + "/build-" + variant + ".stdout";
        spec.stderr_path = log_dir + "/build-" + variant + ".stderr";
        const ProcessResult pr = run_process(spec);
        if (run_plan_interrupted()) {
            report.exit = 128 + (pr.signal ? pr.signal : 2);
            report.message = "interrupted during the build";
            return report;
        }
        if (pr.ended != ProcessResult::Ended::exited || pr.exit_code != 0) {
            step.build = "failed";
            step.build_exit = pr.ended == ProcessResult::Ended::exited ? pr.exit_code : 128 + pr.signal;
            report.build_tail = last_lines(spec.stderr_path, 10);
            std::string how = pr.ended == ProcessResult::Ended::not_started ? "could not start: " + pr.error
                              : pr.ended == ProcessResult::Ended::exited
                                  ? "exited with status " + std::to_string(pr.exit_code)
                                  : "was killed by signal " + std::to_string(pr.signal);
            return finish(125, "skip", "the build " + how + " (its output: " + spec.stderr_path + ")");
        }
        step.build = "ok";
    }

    // The runs: one at a time, a look after each measured one.
    const Execution ex = prepare_execution(rp, parser);
    data::ResultsAppender appender(rp.results_path);
    if (const auto w = recorded_workload(rp)) {
        const std::string conflict = workload_conflict(appender.file(), rp.variant, *w);
        if (!conflict.empty()) throw data::input_error(rp.results_path, 0, conflict);
    }
    for (const auto& m : parser.metrics()) appender.declare_metric(m);
    if (!appender.repaired().empty()) report.warnings.push_back(appender.repaired());
    RunReport run_report;
    size_t consecutive = 0, without_metric = 0, ok_runs = 0;
    const size_t max_failures = std::max<size_t>(1, rp.max_consecutive_failures);
    report.look = analysis::bisect_look(report.refs, {});
    std::string stop_reason;
    bool first = true;
    const auto one = [&](bool warmup) -> bool {
        if (!first && rp.cooldown_s > 0) interruptible_sleep(rp.cooldown_s);
        first = false;
        RunAttempt attempt = run_once(rp, ex, parser, appender, warmup, run_report);
        data::RunRecord& rec = attempt.record;
        const bool ok = rec.exit_class == data::ExitClass::ok;
        std::optional<double> x;
        if (ok) x = data::run_value(rec, log.plan.metric);
        appender.append_run_and_release_values(rec);
        if (attempt.interrupted || run_plan_interrupted()) {
            report.exit = 130;
            report.message = "interrupted; every finished run is in " + rp.results_path;
            return false;
        }
        if (!warmup) {
            if (ok && x && std::isfinite(*x) && (!report.refs.log_scale || *x > 0)) {
                step.values.push_back(*x);
                consecutive = 0;
                ++ok_runs;
            } else {
                ++step.failed_runs;
                ++consecutive;
                if (ok) ++without_metric;
            }
            report.look = analysis::bisect_look(report.refs, step.values);
        }
        if (on_run) {
            BisectRunProgress p;
            p.record = &rec;
            p.warmup = warmup;
            p.look = report.look;
            p.evidence_needed = report.refs.evidence_needed;
            on_run(p);
        }
        if (attempt.stop_now) {
            stop_reason = "the workload stopped: " + attempt.message;
            return false;
        }
        if (consecutive >= max_failures) {
            const std::string last = rec.exit_reason.empty() ? data::exit_class_name(rec.exit_class) : rec.exit_reason;
            stop_reason = (without_metric == consecutive ? "the metric '" + log.plan.metric + "' was not in the output of "
                                                         : std::string()) +
                          std::to_string(consecutive) + " run" + (consecutive == 1 ? "" : "s") +
                          " in a row did not give a value (last: " + last + ")" +
                          (attempt.kept ? "; its output: " + attempt.prefix + ".stdout/.stderr" : "");
            return false;
        }
        return true;
    };
    bool go = true;
    for (size_t w = 0; w < plan.warmup && go; ++w) go = one(true);
    while (go && step.values.size() < log.plan.max_runs) {
        go = one(false);
        if (report.look.call != analysis::BisectCall::go_on && step.values.size() >= log.plan.min_runs) break;
    }
    for (auto& w : run_report.warnings) report.warnings.push_back(std::move(w));
    if (report.exit >= 128) return report;  // interrupted: nothing is added to the steps file
    if (!stop_reason.empty() && report.look.call == analysis::BisectCall::go_on) {
        // The workload cannot be measured at this commit. On the first step
        // of a bisection that is almost surely the command, not the commit.
        if (log.steps.empty() && ok_runs == 0) {
            report.exit = kBisectAbort;
            report.message = stop_reason + "; at the first step this is more likely the command than the commit, "
                                           "so the bisection stops here";
            return report;
        }
        return finish(125, "skip", stop_reason);
    }
    if (report.look.call == analysis::BisectCall::bad)
        return finish(1, "bad", "like the bad build after " + std::to_string(step.values.size()) + " runs");
    if (report.look.call == analysis::BisectCall::good)
        return finish(0, "good", "like the good build after " + std::to_string(step.values.size()) + " runs");
    return finish(125, "skip",
                  "undecided after " + std::to_string(step.values.size()) + " runs (--max-runs): " + report.look.needs);
}

}  // namespace gfxstat::drivers
