// SPDX-License-Identifier: MIT
#include "drivers/run_loop.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <optional>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/location_interval.h"
#include "analysis/running_location.h"
#include "analysis/scaled_values.h"
#include "data/file_read.h"
#include "data/input_error.h"
#include "data/results_writer.h"
#include "drivers/environment_probe.h"
#include "drivers/gpu_usage_sampler.h"
#include "drivers/gpu_clock_sampler.h"
#include "drivers/image_check_pass.h"
#include "drivers/run_end_words.h"
#include "drivers/log_owner.h"
#include "drivers/output_capture.h"
#include "drivers/run_output.h"
#include "drivers/system_root.h"
#include "formats/recorded_metric.h"

namespace gfxstat::drivers {

namespace {
std::atomic<bool> g_interrupted{false};
}  // namespace

bool run_plan_interrupted() { return g_interrupted.load(); }
void clear_run_plan_interruption() { g_interrupted.store(false); }

// Sleeps in short slices so that an interruption ends the wait.
void interruptible_sleep(double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!g_interrupted.load() && std::chrono::steady_clock::now() < until) {
        const double left = std::chrono::duration<double>(until - std::chrono::steady_clock::now()).count();
        const double slice = std::min(left, 0.05);
        if (slice <= 0) break;
        timespec ts{static_cast<time_t>(slice), static_cast<long>((slice - static_cast<time_t>(slice)) * 1e9)};
        nanosleep(&ts, nullptr);
    }
}

namespace {

// argv[0] looked up in PATH once, as execvp would, so that each run does
// not search PATH again (posix_spawnp tries every entry in turn). Returned
// unchanged when it has a '/' or is not found (the spawn then says why).
std::string resolve_in_path(const std::string& program) {
    if (program.empty() || program.find('/') != std::string::npos) return program;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        std::string dir = dirs.substr(start, end - start);
        if (dir.empty()) dir = ".";
        const std::string candidate = dir + "/" + program;
        struct stat st {};
        if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
            return candidate;
        start = end + 1;
    }
    return program;
}

struct Tracker {
    std::string metric, unit;
    // The tracked metric's run medians, kept in order as they come: the
    // interval is asked for after every run.
    analysis::RunningLocationInterval values;
};

}  // namespace

void interrupt_run_plan(int signal) {
    g_interrupted.store(true);
    stop_current_process(signal);
}


// The metric --target-ci and the progress line follow when none is named:
// the first primary metric with a unit and a direction, else the first
// with a unit and a direction (latency_mean, not gem_syslatency's cycles
// count), else the first.
std::string default_tracked(const std::vector<data::MetricInfo>& metrics) {
    // Not gfxstat's own GPU figures (drivers/gpu_usage.h) while the workload has others.
    if (const auto own = gpu_usage_metrics_left_out(metrics)) return default_tracked(*own);
    // What the workload is run for first; among those, one that can be
    // read as better or worse.
    // Never a run's frame times: --target-ci counts runs.
    for (const auto& m : metrics)
        if (!m.within_run() && m.primary.value_or(false) && !m.unit.empty() && m.direction != data::Direction::unknown)
            return m.name;
    for (const auto& m : metrics)
        if (!m.within_run() && !m.unit.empty() && m.direction != data::Direction::unknown) return m.name;
    for (const auto& m : metrics)
        if (!m.within_run()) return m.name;
    return "";
}

namespace {

// Trouble the kernel logged between two runs is no run's (the last run's
// processes had been stopped, the next had not begun): said, not held
// against either run.
void note_between_runs(const KernelLogFinding& f, uint64_t run, RunReport& report) {
    if (f.trouble_lines)
        report.warnings.push_back(one_line("the kernel reported trouble between runs, before run " +
                                           std::to_string(run) + ": " + kernel_trouble_reason(f)));
}

// A run during which the kernel reported GPU trouble is invalid, its reason
// the kernel's line; it keeps the workload's exit code. Runs that stop the
// plan (skip, IGT abort, invalid option) and interrupted runs keep their
// class, and the line is said beside them.
void judge_by_kernel_log(const KernelLogFinding& f, RunAttempt& attempt, RunReport& report) {
    data::RunRecord& rec = attempt.record;
    if (f.overflowed)
        report.warnings.push_back("run " + std::to_string(rec.run) +
                                  ": the kernel log overflowed during the run: lines were lost before gfxstat read "
                                  "them, and trouble among them went unseen");
    if (!f.trouble_lines) return;
    const bool judged = !attempt.stop_now && !attempt.interrupted &&
                        (rec.exit_class == data::ExitClass::ok || rec.exit_class == data::ExitClass::fail);
    if (!judged) {
        report.warnings.push_back(one_line("run " + std::to_string(rec.run) + ": " + kernel_trouble_reason(f)));
        return;
    }
    rec.exit_class = data::ExitClass::invalid;
    rec.exit_reason = one_line(kernel_trouble_reason(f));
}

// /dev/null for the workload's stdin, above the standard descriptors (the
// runner's rule for the child's sources); none when it cannot be opened
// (the runner then opens it, and says why it cannot).
data::UniqueFd open_dev_null() {
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && fd <= 2) {
        const int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        close(fd);
        fd = high;
    }
    return data::UniqueFd(fd);
}

}  // namespace

// Runs a --prepare/--cleanup hook; its output is kept only when not empty.
// What it starts in the background is left running (a --prepare may start
// a load generator that --cleanup stops).
ProcessResult run_hook(const std::string& line, const Execution& ex, const std::string& name, double timeout_s,
                       RunReport& report) {
    OutputCapture capture;
    ProcessSpec p;
    p.argv = {"/bin/sh", "-c", line};
    p.stdout_path = capture.path(0);
    p.stderr_path = capture.path(1);
    p.timeout_s = timeout_s;
    ProcessResult pr = run_process(p);
    keep_output(ex, name + ".stdout", capture.text(0), report);
    keep_output(ex, name + ".stderr", capture.text(1), report);
    return pr;
}

Execution prepare_execution(const RunPlan& plan, const OutputParser& parser) {
    if (plan.command.empty()) throw std::invalid_argument("no command to run");
    if (plan.variant.empty()) throw std::invalid_argument("the variant label is empty");
    // Everything that can be refused is checked before the results file or
    // the log directory is touched: a usage error leaves nothing behind.
    std::vector<std::string> command = plan.command;
    command[0] = resolve_in_path(command[0]);
    if (command[0].find('/') == std::string::npos)
        throw std::invalid_argument("'" + command[0] + "' is not in PATH");
    if (access(command[0].c_str(), X_OK) != 0)
        throw std::invalid_argument("cannot run '" + command[0] + "': " + std::strerror(errno));
    const std::vector<data::MetricInfo> declared = parser.metrics();
    std::string tracked = plan.target_metric.empty() ? default_tracked(declared) : plan.target_metric;
    if (!plan.target_metric.empty() && !declared.empty()) {
        bool known = false;
        for (const auto& m : declared) known |= m.name == plan.target_metric;
        if (!known) {
            std::string names;
            for (const auto& m : declared) names += (names.empty() ? "" : ", ") + m.name;
            throw std::invalid_argument("--target-metric '" + plan.target_metric + "' is not a metric of this parser (" +
                                        names + ")");
        }
    }
    const bool beside = plan.log_dir.empty();
    std::string log_dir = beside ? plan.results_path + ".logs" : plan.log_dir;
    // Opened once, without following a link, and checked: every log is
    // then created under this descriptor, so a directory another user can
    // write to (or swap) never receives gfxstat's files, which may be
    // root's.
    data::make_directories(log_dir);
    data::UniqueFd log_dir_fd = data::open_directory_nofollow(log_dir);
    data::check_private_directory(log_dir_fd.get(), log_dir, "the log directory");
    if (!beside && log_dir[0] != '/') {
        // Recorded absolute, so that it does not depend on where gfxstat ran.
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd)) log_dir = std::string(cwd) + "/" + log_dir;
    }

    Execution ex;
    ex.command = std::move(command);
    ex.log_dir = std::move(log_dir);
    ex.log_dir_fd = std::move(log_dir_fd);
    ex.logs_beside = beside;
    ex.tracked = std::move(tracked);
    ex.kernel_log = process_kernel_log_watch();
    return ex;
}

std::optional<data::WorkloadRecord> recorded_workload(const RunPlan& plan) {
    std::optional<data::WorkloadRecord> w = plan.workload;
    if (!w) return w;
    for (const std::string& kv : plan.env) {
        const size_t eq = kv.find('=');
        if (eq != std::string::npos) w->env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return w;
}

std::string workload_conflict(const data::ResultsFile& file, const std::string& variant,
                              const data::WorkloadRecord& workload) {
    for (const data::RunRecord& r : file.runs()) {
        if (r.variant != variant || r.environment.empty()) continue;
        const data::Environment* env = file.find_environment(r.environment);
        if (!env || !env->workload || *env->workload == workload) continue;
        return "variant '" + variant + "' holds runs of `" + data::workload_text(*env->workload) +
               "` (run " + std::to_string(r.run) + "); these would be runs of `" + data::workload_text(workload) +
               "`. Nothing was written: give them another --label, or --force to record them in one variant";
    }
    return "";
}

namespace {
// Before anything runs: a copy of another results file (the same id) must
// not take that file's log names in a shared log directory. Once per
// execution and id; run_plan calls it before its first run, so that a
// refusal is a usage error, and every run_once (ab, bisect, campaigns)
// makes sure.
void claim_logs_once(const RunPlan& plan, const Execution& ex, const data::ResultsAppender& appender) {
    const std::string& id = appender.file().header.id;
    if (ex.claimed_id == id) return;
    claim_log_names(ex.log_dir_fd.get(), ex.log_dir, plan.results_path, id);
    ex.claimed_id = id;
}
}  // namespace

RunAttempt run_once(const RunPlan& plan, const Execution& ex, const OutputParser& parser,
                    data::ResultsAppender& appender, bool warmup, RunReport& report, bool packed_values) {
    claim_logs_once(plan, ex, appender);
    RunAttempt attempt;
    data::RunRecord& rec = attempt.record;
    rec.variant = plan.variant;
    rec.run = appender.file().next_run_index(plan.variant);
    rec.warmup = warmup;
    if (!ex.probe) {
        ProbeOptions probe;
        probe.drm = plan.probe_drm;
        probe.root = system_root();  // GFXSTAT_SYSFS_ROOT: a fake machine, for tests
        ex.probe = std::make_shared<EnvironmentProbe>(probe);
    }
    rec.boot = ex.probe->boot_id();
    data::Environment env = ex.probe->probe(rec.boot);
    env.tags = plan.tags;
    env.workload = recorded_workload(plan);
    // Declared once the run is over: what the output states about the run
    // (the GL renderer glmark2 prints) joins the probed fields first.

    char index[32];
    std::snprintf(index, sizeof index, "-%04llu", static_cast<unsigned long long>(rec.run));
    // Files, not a directory per run: each new inode costs, and a run
    // of `true` is over in half a millisecond. Named after the results
    // file's id too: two results files sharing a --log-dir, or a results
    // file deleted and made again, have their own names.
    const std::string run_name = log_name_prefix(appender.file().header.id) + file_safe(plan.variant) + index;
    attempt.prefix = ex.log_dir + "/" + run_name;
    const std::string& prefix = attempt.prefix;
    rec.start = data::utc_now_rfc3339();
    // The run's stretch of the kernel log begins before --prepare: the
    // hook sets up the run's conditions (docs/run.md, "Kernel log").
    if (ex.kernel_log) note_between_runs(ex.kernel_log->begin_run(), rec.run, report);

    bool prepared = true;
    if (!plan.prepare.empty()) {
        const size_t before = report.logs_kept;
        const ProcessResult pr = run_hook(plan.prepare, ex, run_name + ".prepare", plan.timeout_s, report);
        attempt.kept |= report.logs_kept != before;
        if (!(pr.ended == ProcessResult::Ended::exited && pr.exit_code == 0)) {
            prepared = false;
            rec.exit_class = data::ExitClass::fail;
            // A hook stopped by the user's signal is the user's stop, not
            // the run's failure (a campaign runs that step again).
            attempt.interrupted = g_interrupted.load();
            rec.exit_reason = one_line((attempt.interrupted ? "interrupted by the user (--prepare: " : "--prepare failed: ") +
                                       describe_end(pr) + (attempt.interrupted ? ")" : ""));
        }
    }

    if (prepared) {
        // The memory files of the last run, emptied, unless a background
        // process it left may still write them: then new ones
        // (drivers/output_capture.h). Given back, emptied, when the run's
        // output has been read and kept.
        if (!ex.capture) ex.capture = std::make_shared<OutputCapture>(true);
        OutputCapture& capture = *ex.capture;
        capture.begin_run();
        struct EndRun {
            OutputCapture& c;
            ~EndRun() { c.end_run(); }
        } end_run{capture};
        if (!ex.dev_null) ex.dev_null = open_dev_null();
        ProcessSpec spec;
        spec.argv = ex.command;
        spec.env = plan.env;
        spec.stdin_null_fd = ex.dev_null.get();
        spec.stdout_path = capture.path(0);
        spec.stderr_path = capture.path(1);
        spec.timeout_s = plan.timeout_s;
        spec.end_group = true;  // nothing of this run may run into the next
        // GPU clocks and throttling during the workload, and only then
        // (docs/run.md, "Throttling"); GPU time and memory while it runs
        // (drivers/gpu_usage_sampler.h), from the moment it has started.
        if (!ex.clock_sources || ex.clock_sources_at != ex.probe->static_probes()) {
            ex.clock_sources = find_gpu_clock_sources(system_root());
            ex.clock_sources_at = ex.probe->static_probes();
        }
        GpuClockSampler clocks(*ex.clock_sources);
        GpuUsageSampler* gpu = nullptr;
        // The probe's listing of /sys/class/drm says it at the real root.
        const std::optional<bool> listed = ex.probe->drm_device_listed();
        if (ex.gpu_usage || (listed ? *listed : machine_has_drm_devices())) {
            if (!ex.gpu_usage) ex.gpu_usage = std::make_shared<GpuUsageSampler>();
            gpu = ex.gpu_usage.get();
            spec.on_started = [gpu](int pid) { gpu->start(pid); };
        }
        const ProcessResult pr = run_process(spec);
        rec.throttle = clocks.stop();
        const GpuUsageTotals gpu_usage = gpu ? gpu->stop() : GpuUsageTotals();
        rec.duration_s = pr.wall_s;
        if (pr.leftovers) {
            ++report.runs_with_leftovers;
            report.leftover_processes += pr.leftovers;
        }
        const std::string_view out = capture.text(0), err = capture.text(1);
        attempt.kept |= keep_output(ex, run_name + ".stdout", out, report);
        attempt.kept |= keep_output(ex, run_name + ".stderr", err, report);
        attempt.interrupted = g_interrupted.load() && !(pr.ended == ProcessResult::Ended::exited && pr.exit_code == 0);
        if (attempt.interrupted) {
            // Stopped by the user's Ctrl-C (forwarded): not the
            // workload's failure.
            rec.exit_class = data::ExitClass::fail;
            if (pr.ended == ProcessResult::Ended::exited) rec.exit_code = pr.exit_code;
            if (pr.ended == ProcessResult::Ended::signaled) rec.signal = pr.signal;
            rec.exit_reason = "interrupted by the user (" + describe_end(pr) + ")";
        } else {
            switch (pr.ended) {
                case ProcessResult::Ended::not_started:
                    rec.exit_class = data::ExitClass::fail;
                    rec.exit_reason = one_line(pr.error);
                    attempt.stop = RunOutcome::invalid;
                    attempt.stop_now = true;
                    attempt.message = "cannot run the command: " + pr.error;
                    break;
                case ProcessResult::Ended::timed_out: {
                    rec.exit_class = data::ExitClass::timeout;
                    rec.signal = pr.signal;
                    char buf[96];
                    std::snprintf(buf, sizeof buf, "timed out after %g s (stopped with %s)", plan.timeout_s,
                                  describe_signal(pr.signal).c_str());
                    rec.exit_reason = buf;
                    break;
                }
                case ProcessResult::Ended::signaled: {
                    rec.exit_class = data::ExitClass::crash;
                    rec.signal = pr.signal;
                    const std::string why = last_line(err);
                    rec.exit_reason =
                        one_line("killed by " + describe_signal(pr.signal) + (why.empty() ? "" : ": " + why));
                    break;
                }
                case ProcessResult::Ended::exited: {
                    rec.exit_code = pr.exit_code;
                    if (pr.exit_code == 0) {
                        RunOutput o;
                        o.out = out;
                        o.err = err;
                        RunUsage usage;
                        usage.wall_s = pr.wall_s;
                        usage.user_s = pr.user_s;
                        usage.sys_s = pr.sys_s;
                        usage.max_rss_kib = pr.max_rss_kib;
                        o.usage = &usage;
                        o.packed_values = packed_values;
                        // --timeout covers parsing too: what the program
                        // left of it is the parser's.
                        const double left_s = plan.timeout_s - pr.wall_s;
                        if (plan.timeout_s > 0)
                            o.deadline = std::chrono::steady_clock::now() +
                                         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(std::max(left_s, 0.0)));
                        ParseResult parsed = parser.parse(o);
                        if (o.deadline && (parsed.timed_out || std::chrono::steady_clock::now() > *o.deadline)) {
                            rec.exit_class = data::ExitClass::timeout;
                            char buf[160];
                            std::snprintf(buf, sizeof buf,
                                          "timed out after %g s (the program ended after %.3g s; parsing its "
                                          "output took the rest)",
                                          plan.timeout_s, pr.wall_s);
                            rec.exit_reason = buf;
                        } else if (parsed.metrics.empty()) {
                            rec.exit_class = data::ExitClass::fail;
                            rec.exit_reason =
                                one_line(parsed.error.empty() ? "no metric in the output" : parsed.error);
                        } else {
                            rec.exit_class = data::ExitClass::ok;
                            // What the machine was probed for stays: the
                            // output adds facts, it does not overrule them.
                            for (auto& [field, value] : parsed.environment)
                                env.fields.try_emplace(field, std::move(value));
                            for (auto& m : parsed.metrics) {
                                // Names that come from the output (engines,
                                // subtests) are declared when first seen,
                                // and again in a file from before `primary`
                                // was recorded, which then learns it.
                                const data::MetricInfo info = formats::metric_declaration(m);
                                const data::MetricInfo* known = appender.file().find_metric(m.name);
                                if (!known || (!known->primary && info.primary && known->same_declaration(info)))
                                    appender.declare_metric(info);
                                rec.metrics.push_back(
                                    formats::metric_values(std::move(m), attempt.packed.emplace_back()));
                            }
                            // GPU time and memory (when the kernel reported them), after the run's own.
                            add_gpu_usage_metrics(gpu_usage.metrics(), rec, appender);
                        }
                    } else if (pr.exit_code == 77) {
                        rec.exit_class = data::ExitClass::skip;
                        rec.exit_reason = skip_reason(out, err);
                        attempt.stop = RunOutcome::skipped;
                        attempt.stop_now = true;
                        attempt.message = "skipped: " + (rec.exit_reason.empty() ? "exit 77" : rec.exit_reason);
                    } else if (pr.exit_code == 79) {
                        const std::string why = skip_reason(out, err);
                        rec.exit_class = data::ExitClass::fail;
                        rec.exit_reason =
                            one_line("invalid option or subtest (exit 79)" + (why.empty() ? "" : ": " + why));
                        attempt.stop = RunOutcome::invalid;
                        attempt.stop_now = true;
                        attempt.message = rec.exit_reason;
                    } else if (pr.exit_code == 112) {
                        const std::string why = last_line(err);
                        rec.exit_class = data::ExitClass::fail;
                        rec.exit_reason = one_line("aborted (exit 112)" + (why.empty() ? "" : ": " + why));
                        attempt.stop = RunOutcome::aborted;
                        attempt.stop_now = true;
                        attempt.message = rec.exit_reason + "; the machine needs attention before more runs";
                    } else {
                        rec.exit_class = data::ExitClass::fail;
                        RunOutput o;
                        o.out = out;
                        o.err = err;
                        std::string why = parser.failure_reason(o);
                        if (why.empty()) why = skip_reason(out, err);
                        rec.exit_reason =
                            one_line("exit " + std::to_string(pr.exit_code) + (why.empty() ? "" : ": " + why));
                    }
                    break;
                }
            }
        }
    }
    if (!plan.cleanup.empty()) {
        const size_t before = report.logs_kept;
        const ProcessResult pr = run_hook(plan.cleanup, ex, run_name + ".cleanup", plan.timeout_s, report);
        attempt.kept |= report.logs_kept != before;
        if (!(pr.ended == ProcessResult::Ended::exited && pr.exit_code == 0))
            report.warnings.push_back("run " + std::to_string(rec.run) + ": --cleanup failed: " + describe_end(pr));
    }
    // ... and ends after --cleanup, which gives the driver a moment more to
    // notice a hang of the run's last submission.
    if (ex.kernel_log) judge_by_kernel_log(ex.kernel_log->end_run(), attempt, report);
    if (attempt.kept) rec.log = ex.logs_beside ? data::base_name_of(ex.log_dir) + "/" + run_name : prefix;
    rec.environment = appender.add_environment(std::move(env));
    return attempt;
}

namespace {
// The runs of run_plan, one after another, until one of its stops.
void run_loop(const RunPlan& plan, const OutputParser& parser, const std::function<void(const RunProgress&)>& on_run,
              const Execution& ex, const std::vector<data::MetricInfo>& declared, data::ResultsAppender& appender,
              RunReport& report);
}  // namespace

RunReport run_plan(const RunPlan& plan, const OutputParser& parser,
                   const std::function<void(const RunProgress&)>& on_run) {
    if (plan.runs && *plan.runs == 0) throw std::invalid_argument("--runs must be at least 1");
    if (plan.min_runs == 0 || plan.max_runs < plan.min_runs)
        throw std::invalid_argument("--min-runs must be at least 1 and at most --max-runs");
    g_interrupted.store(false);
    const Execution ex = prepare_execution(plan, parser);
    const std::vector<data::MetricInfo> declared = parser.metrics();

    data::ResultsAppender appender(plan.results_path);
    // Checked with the lock held, before anything of this run is written.
    if (const auto w = recorded_workload(plan); w && !plan.mix_workloads) {
        const std::string conflict = workload_conflict(appender.file(), plan.variant, *w);
        if (!conflict.empty()) throw data::input_error(plan.results_path, 0, conflict);
    }
    claim_logs_once(plan, ex, appender);
    for (const auto& m : declared) appender.declare_metric(m);

    RunReport report;
    // Said once, before anything this run adds.
    if (!appender.repaired().empty()) report.warnings.push_back(appender.repaired());
    try {
        run_loop(plan, parser, on_run, ex, declared, appender, report);
    } catch (const data::InputError& e) {
        // The results file refused the record before writing it (a rule of
        // the format: the variant's run indices are used up): bad input,
        // exit 2. A write that failed (disk full) is an error, exit 1.
        report.outcome = appender.write_failed() ? RunOutcome::error : RunOutcome::invalid;
        report.message = std::string(e.what()) + "; every finished run is in " + plan.results_path;
    } catch (const std::exception& e) {
        // The disk filled up, the machine refused a fork: the runs made so
        // far are on disk (each was appended durably before the next).
        report.outcome = RunOutcome::error;
        report.message = std::string(e.what()) + "; every finished run is in " + plan.results_path;
    }
    if (report.runs_with_leftovers) {
        const size_t n = report.runs_with_leftovers, p = report.leftover_processes;
        report.warnings.push_back(std::to_string(n) + " run" + (n == 1 ? "" : "s") + " left " + std::to_string(p) +
                                  " process" + (p == 1 ? "" : "es") +
                                  " running in the background when the workload ended; they were stopped "
                                  "(SIGTERM, then SIGKILL) so that they could not run into the next run");
    }
    return report;
}

namespace {

void run_loop(const RunPlan& plan, const OutputParser& parser, const std::function<void(const RunProgress&)>& on_run,
              const Execution& ex, const std::vector<data::MetricInfo>& declared, data::ResultsAppender& appender,
              RunReport& report) {
    const std::string& tracked = ex.tracked;
    Tracker tracker{tracked, "", analysis::RunningLocationInterval(plan.confidence, plan.target_mean)};
    for (const auto& m : declared)
        if (m.name == tracker.metric) tracker.unit = m.unit;

    size_t consecutive_failures = 0;
    size_t checks_done = 0;  // --check-images: this plan's checking runs
    const size_t planned = plan.runs ? *plan.runs : plan.max_runs;
    double measured_seconds = 0;  // wall time of the measured runs, for the ETA
    bool first = true;
    while (true) {
        if (g_interrupted.load()) {
            report.outcome = RunOutcome::interrupted;
            report.message = "interrupted; every finished run is in " + plan.results_path;
            break;
        }
        if (!first && plan.cooldown_s > 0) interruptible_sleep(plan.cooldown_s);
        if (g_interrupted.load()) continue;
        first = false;

        const bool warmup = report.warmups < plan.warmup;
        RunAttempt attempt = run_once(plan, ex, parser, appender, warmup, report, true);
        data::RunRecord& rec = attempt.record;
        const RunOutcome stop = attempt.stop;
        const bool stop_now = attempt.stop_now;
        const bool interrupted_run = attempt.interrupted;
        const bool kept = attempt.kept;
        const std::string& prefix = attempt.prefix;
        if (stop_now) report.message = attempt.message;
        // The tracked metric's median is taken before the append releases
        // the values: a run of ten million values is held once, not kept.
        std::vector<std::optional<double>> medians;
        for (size_t i = 0; i < rec.metrics.size(); ++i) medians.push_back(run_median(rec, attempt.packed, i));
        appender.append_run_and_release_values(rec, attempt.packed);

        const bool ok = rec.exit_class == data::ExitClass::ok;
        if (warmup) {
            ++report.warmups;
        } else if (ok) {
            ++report.measured;
            if (rec.duration_s) measured_seconds += *rec.duration_s + plan.cooldown_s;
            if (tracker.metric.empty()) {
                // A parser whose metrics come from the output: the first
                // seen with a unit and direction.
                std::vector<data::MetricInfo> seen;
                for (const auto& m : rec.metrics)
                    if (const data::MetricInfo* info = appender.file().find_metric(m.name)) seen.push_back(*info);
                tracker.metric = default_tracked(seen);
            }
            bool found = false;
            for (size_t i = 0; i < rec.metrics.size(); ++i)
                if (rec.metrics[i].name == tracker.metric && medians[i]) {
                    tracker.values.add(*medians[i]);
                    found = true;
                }
            if (!found && !plan.target_metric.empty() && declared.empty() && tracker.values.empty()) {
                std::string names;
                for (const auto& m : rec.metrics) names += (names.empty() ? "" : ", ") + m.name;
                report.outcome = RunOutcome::invalid;
                report.message = "--target-metric '" + plan.target_metric + "' is not in the output (it has " +
                                 names + ")";
                break;
            }
            if (tracker.unit.empty())
                if (const data::MetricInfo* info = appender.file().find_metric(tracker.metric))
                    tracker.unit = info->unit;
        }
        if (ok) {
            consecutive_failures = 0;
        } else if (rec.exit_class != data::ExitClass::skip && !interrupted_run) {
            ++report.failed;
            report.invalid += rec.exit_class == data::ExitClass::invalid;
            ++consecutive_failures;
        }

        RunProgress progress;
        progress.record = &rec;
        progress.measured = report.measured;
        progress.planned = planned;
        progress.warmup = warmup;
        progress.seconds_per_run =
            report.measured ? measured_seconds / static_cast<double>(report.measured) : 0;
        progress.metric = tracker.metric;
        progress.unit = tracker.unit;
        progress.mean = plan.target_mean;
        std::optional<analysis::LocationInterval> interval;
        if (!tracker.values.empty()) {
            interval = tracker.values.interval();
            progress.estimate = interval->estimate;
            if (interval->defined) {
                progress.half_width = (interval->high - interval->low) / 2;
                report.last_half_width_pct = interval->relative_half_width_pct;
            }
        }
        if (on_run) on_run(progress);

        if (g_interrupted.load()) continue;  // reported at the top of the loop
        if (stop_now) {
            report.outcome = stop;
            break;
        }
        if (consecutive_failures >= plan.max_consecutive_failures) {
            report.outcome = RunOutcome::failing;
            report.message = (consecutive_failures == 1 ? std::string("1 run")
                                                        : std::to_string(consecutive_failures) + " runs in a row") +
                             " did not succeed (last: " +
                             (rec.exit_reason.empty() ? data::exit_class_name(rec.exit_class) : rec.exit_reason) +
                             ")" + (kept ? "; its output: " + prefix + ".stdout/.stderr" : "") + "; stopping";
            break;
        }
        // --check-images every:K: a checking run after every K-th timed run.
        if (!warmup && plan.image_checks && plan.image_checks->every &&
            (report.measured + report.failed) % plan.image_checks->every == 0) {
            run_image_check(plan, ex, *plan.image_checks, appender, report, report.checks);
            ++checks_done;
            if (g_interrupted.load()) continue;
        }
        bool done = false;
        if (plan.runs) {
            done = report.measured >= *plan.runs;
        } else if (report.measured >= plan.min_runs) {
            if (plan.target_ci_pct > 0 && interval && interval->defined &&
                interval->relative_half_width_pct <= plan.target_ci_pct) {
                report.target_reached = true;
                done = true;
            }
            done |= report.measured >= plan.max_runs;
        }
        if (done) {
            // The checking pass: topped up to 2 checking runs.
            if (plan.image_checks)
                for (size_t n = image_checks_to_top_up(checks_done); n > 0 && !g_interrupted.load(); --n)
                    run_image_check(plan, ex, *plan.image_checks, appender, report, report.checks);
            if (g_interrupted.load()) continue;
            break;
        }
    }
}

}  // namespace

}  // namespace gfxstat::drivers
