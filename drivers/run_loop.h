// SPDX-License-Identifier: MIT
// `gfxstat run` without the command line: runs a workload again and again,
// classifies each run (ok, fail, skip, timeout, crash), parses its output
// into metrics, records the machine's state, and appends every run to the
// results file the moment it ends, keeping its stdout and stderr in a log
// directory. Stops on a skip (the workload cannot run here), an invalid
// option, an IGT abort, too many failures in a row, an interruption, or
// when enough runs were made: a fixed count, or a confidence interval
// narrow enough (analysis/location_interval.h).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/packed_tokens.h"
#include "data/results_model.h"
#include "data/results_writer.h"
#include "data/safe_files.h"
#include "drivers/gpu_clock_sources.h"
#include "drivers/kernel_log_watch.h"
#include "drivers/run_parsers.h"
#include "drivers/process_runner.h"
#include "drivers/run_end_words.h"  // skip_reason, describe_end

namespace gfxstat::drivers {

class EnvironmentProbe;
class GpuUsageSampler;
class OutputCapture;
struct ImageCheckSettings;  // drivers/image_check_pass.h

struct RunPlan {
    std::vector<std::string> command;      // argv, run without a shell
    std::vector<std::string> env;          // "NAME=VALUE" for the command
    std::string variant;                   // --label
    std::map<std::string, std::string> tags;
    // What runs, recorded in each run's environment (with `env` added).
    // run_plan refuses to add runs of one workload to a variant whose runs
    // recorded another, unless `mix_workloads`: one label, one experiment.
    std::optional<data::WorkloadRecord> workload;
    bool mix_workloads = false;            // --force
    // How many measured runs: `runs` when set; else from min_runs until the
    // target interval is reached, at most max_runs.
    std::optional<size_t> runs;
    size_t min_runs = 5, max_runs = 30;
    // Half-width of the interval, % of the estimate. The interval is over
    // runs: each measured run contributes the median of its values.
    double target_ci_pct = 0;
    // "" : the first metric with a unit and a direction, else the first
    // (for parsers whose metrics come from the output: of the first ok run).
    std::string target_metric;
    bool target_mean = false;      // the mean's t interval instead of the median's
    double confidence = 0.95;
    size_t warmup = 0;             // runs recorded as warm-ups first
    double timeout_s = 0;          // per run; 0: none
    double cooldown_s = 0;         // sleep between runs
    std::string prepare, cleanup;  // shell command lines (/bin/sh -c) around each run
    size_t max_consecutive_failures = 3;
    std::string results_path;
    // Each run's output goes to LOG_DIR/ID-VARIANT-NNNN.stdout and .stderr
    // (and .prepare.*, .cleanup.* for the hooks; ID: the first 16 hex
    // digits of the results file's id), each written only when not empty,
    // as a new file (never through a link; a name already taken is kept
    // unless it is gfxstat's own log of a run the results file lost);
    // the record's "log" names LOG_DIR/ID-VARIANT-NNNN, relative to the
    // results file when beside it, and is absent when nothing was kept.
    // LOG_DIR must be a directory (not a link) of the user running gfxstat
    // (or root's), writable by no one else.
    std::string log_dir;           // "" : RESULTS.logs next to the results file
    bool probe_drm = true;         // ask libdrm for devices in each environment
    // --check-images: checking runs beside the timed ones (never timed),
    // after every K-th timed run or in a pass of 2 at the end
    // (drivers/image_check_pass.h); null for none.
    std::shared_ptr<const ImageCheckSettings> image_checks;
};

// The checking runs made (drivers/image_check_pass.h), apart from the
// timed runs: how many, how many did not end ok, their time.
struct ImageCheckTally {
    size_t runs = 0, failed = 0;
    double seconds = 0;
};

enum class RunOutcome {
    completed,      // the runs asked for; exit 0
    skipped,        // the workload skipped (exit 77): it cannot run here
    invalid,        // the workload refused its options (IGT exit 79), or the results file a record: exit 2
    aborted,        // an IGT abort (exit 112): exit 1
    failing,        // max_consecutive_failures failed runs in a row: exit 1
    interrupted,    // SIGINT/SIGTERM/SIGHUP: exit 128 + the signal (130, 143, 129)
    error,          // the results file could not be written (disk full), a fork failed...: exit 1
};

struct RunReport {
    RunOutcome outcome = RunOutcome::completed;
    std::string message;      // one line for the user when not completed
    size_t measured = 0, warmups = 0, failed = 0;
    size_t invalid = 0;  // of the failed: the kernel reported GPU trouble during them
    bool target_reached = false;
    std::optional<double> last_half_width_pct;
    size_t logs_kept = 0;                // output files written
    // A failed --cleanup, an output file that could not be written, the
    // repair of a torn last line, background processes that were stopped.
    std::vector<std::string> warnings;
    // Runs whose workload left processes in its group, and how many in all
    // (run_once counts; run_plan turns them into one warning).
    size_t runs_with_leftovers = 0, leftover_processes = 0;
    ImageCheckTally checks;  // --check-images
};

// What a progress display needs after each run.
struct RunProgress {
    const data::RunRecord* record = nullptr;
    size_t measured = 0;            // ok, non-warm-up runs so far
    size_t planned = 0;             // runs, or max_runs with a target
    bool warmup = false;
    // Mean wall time of a measured run (with the cooldown), for an ETA;
    // 0 before the first.
    double seconds_per_run = 0;
    std::string metric, unit;       // the tracked metric
    std::optional<double> estimate, half_width;  // of the tracked metric so far
    bool mean = false;              // the estimate is the mean (--target-mean), else the median
};

// Runs the plan. Throws data::InputError for problems with the results
// file or the log directory (nothing is run then; a variant that holds
// runs of another workload is one, see RunPlan::workload), std::invalid_argument
// for a bad plan. A failure once the runs have begun (the results file
// cannot be written: disk full) ends them with RunOutcome::error and the
// warnings so far. `on_run` is called after each run is on disk.
RunReport run_plan(const RunPlan& plan, const OutputParser& parser,
                   const std::function<void(const RunProgress&)>& on_run = {});

// The pieces of run_plan, for callers that decide themselves what to run
// next (gfxstat campaign): the checked command and log directory, then
// one run at a time.
struct Execution {
    std::vector<std::string> command;  // argv[0] resolved in PATH
    std::string log_dir;
    data::UniqueFd log_dir_fd;         // log_dir, opened once and checked: logs are created under it
    bool logs_beside = true;           // log_dir is RESULTS.logs
    // The results file id whose log names this execution has claimed in
    // log_dir (drivers/log_owner), once, at its first run.
    mutable std::string claimed_id;
    std::string tracked;               // the metric progress follows; "" until seen
    // The kernel log, shared by every execution of the process: a run
    // during which it reports GPU trouble is recorded invalid.
    std::shared_ptr<KernelLogWatch> kernel_log;
    // Kept from run to run, made at the first: the environment probe,
    // which reads what stays once (drivers/environment_probe.h), and the
    // GPU usage sampler's thread, only on a machine with a DRM device.
    mutable std::shared_ptr<EnvironmentProbe> probe;
    mutable std::shared_ptr<GpuUsageSampler> gpu_usage;
    // The workload's streams, kept from run to run: its stdin (/dev/null,
    // opened at the first run) and the memory files that capture its
    // output, emptied between runs when nothing else holds them
    // (drivers/output_capture.h).
    mutable data::UniqueFd dev_null;
    mutable std::shared_ptr<OutputCapture> capture;
    // The GPU clock sampler's files, found again when the probe finds
    // other devices (at its static_probes() count `clock_sources_at`).
    mutable std::optional<GpuClockSources> clock_sources;
    mutable size_t clock_sources_at = 0;
};

// Checks the command (in PATH, executable), the target metric, and creates
// the log directory, opens it without following a link and refuses one
// that another user owns or can write to (data::check_private_directory);
// throws like run_plan. Nothing else is touched.
Execution prepare_execution(const RunPlan& plan, const OutputParser& parser);

struct RunAttempt {
    // The run, classified and parsed, its output kept in the log
    // directory: not yet appended (the caller adds what it knows, then
    // appends it, or drops it when interrupted).
    data::RunRecord record;
    RunOutcome stop = RunOutcome::completed;
    bool stop_now = false;      // a skip, an invalid option, an abort: no more runs
    std::string message;        // why, when stop_now
    bool interrupted = false;   // stopped by interrupt_run_plan, not by itself
    bool kept = false;          // output files were written
    std::string prefix;         // LOG_DIR/ID-VARIANT-NNNN
    // With packed_values: record.metrics[i]'s values, when packed[i] is not
    // empty (its `values` is then); for append_run_and_release_values.
    std::vector<data::PackedTokens> packed;
};

// Runs a --prepare/--cleanup hook line (/bin/sh -c) with a timeout; its
// output is kept in the log directory as NAME.stdout and NAME.stderr when
// not empty (counted in `report`). What it starts in the background is left
// running. For run_once, and the checking runs (drivers/image_check_pass.h).
ProcessResult run_hook(const std::string& line, const Execution& ex, const std::string& name, double timeout_s,
                       RunReport& report);

// The workload a run of `plan` records: plan.workload with plan.env.
std::optional<data::WorkloadRecord> recorded_workload(const RunPlan& plan);

// Why runs of `workload` may not join `variant` in `file`: a run of the
// variant recorded another workload ("" when none did, or when the file has
// no such variant). Runs that recorded none (older files) do not count.
std::string workload_conflict(const data::ResultsFile& file, const std::string& variant,
                              const data::WorkloadRecord& workload);

// One run of `plan` (its hooks, environment, timeout), numbered after the
// runs `appender` holds. Warnings and kept files are counted in `report`.
// packed_values: a parser that can (`lines`) leaves its values in
// RunAttempt::packed, 8 bytes a value instead of 16, for a caller that
// only takes their median and writes them.
RunAttempt run_once(const RunPlan& plan, const Execution& ex, const OutputParser& parser,
                    data::ResultsAppender& appender, bool warmup, RunReport& report,
                    bool packed_values = false);

// The metric --target-ci and the progress line follow when none is named:
// the first primary metric with a unit and a direction, else the first
// with a unit and a direction, else the first; never a within-run metric.
std::string default_tracked(const std::vector<data::MetricInfo>& metrics);

// The median of one run's values of a metric (not empty).
double run_median(const data::MetricValues& m);
double run_median(const data::PackedTokens& values);
// The median of rec.metrics[i]'s values, taken from packed[i] when that is
// not empty (RunAttempt::packed); nullopt when it has none.
std::optional<double> run_median(const data::RunRecord& rec, const std::vector<data::PackedTokens>& packed,
                                 size_t i);

// Whether interrupt_run_plan was called since the last clear (callers of
// run_once that loop themselves: gfxstat ab); sleeps that end early then.
bool run_plan_interrupted();
void clear_run_plan_interruption();
void interruptible_sleep(double seconds);

// Asks a running run_plan to stop after forwarding `signal` to the running
// workload: async-signal-safe, for SIGINT/SIGTERM handlers.
void interrupt_run_plan(int signal);

}  // namespace gfxstat::drivers
