// SPDX-License-Identifier: MIT
// One step of `gfxstat bisect` without the command line: build the commit
// checked out (a failed build is git bisect's "skip"), run the workload
// one run at a time, recording each run as `gfxstat run` does (variant =
// the commit's short id, tag commit=ID) and looking after each run with
// analysis/bisect_classify.h until the commit is like-good or like-bad, or
// max_runs leave it undecided (skip); then add the step to the steps file.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bisect_classify.h"
#include "data/bisect_log.h"
#include "drivers/run_loop.h"

namespace gfxstat::drivers {

// What `git bisect run` is told when the bisection cannot go on (bad input,
// the references do not differ, the steps file was made for other
// references): exit statuses above 127 abort it, where 1..127 would be
// taken for "bad" and silently steer the search.
inline constexpr int kBisectAbort = 128;

// The whole bisection's analysis options, from a plan record.
analysis::BisectOptions bisect_options(const data::BisectPlanRecord& plan);

struct BisectStepPlan {
    std::string steps_path;       // -o: the steps file (created by the first step)
    std::string work_dir = ".";   // the work tree: git and the build run there
    // For a new steps file; an existing one must hold the same references,
    // metric, threshold and confidence (else InputError), and its plan is used.
    data::BisectPlanRecord plan;
    bool expected_steps_given = false;  // plan.expected_steps is the user's, not from git
    // The workload: command, recorded workload, results_path, log_dir,
    // timeout, cooldown, warm-ups, max_consecutive_failures. The variant and
    // the commit tag are set per step.
    RunPlan run;
    size_t warmup = 0;
};

struct BisectRunProgress {
    const data::RunRecord* record = nullptr;
    bool warmup = false;
    analysis::BisectLook look;    // after this run (measured runs only)
    double evidence_needed = 0;   // what a call needs either way
};

struct BisectStepReport {
    int exit = 0;                 // 0 good, 1 bad, 125 skip, kBisectAbort, or 128 + signal when interrupted
    data::BisectStepRecord step;  // what was added to the steps file (when exit is 0, 1 or 125)
    size_t step_number = 0;       // 1-based, in the steps file
    analysis::BisectReferences refs;
    analysis::BisectLook look;
    bool new_log = false;         // this step created the steps file
    std::string message;          // why, for skips and aborts
    std::vector<std::string> warnings;
    std::vector<std::string> build_tail;  // the failed build's last lines of stderr (raw)
};

// Throws data::InputError for the steps or results file, std::invalid_argument
// for a plan that cannot work. `on_build` is called before the build runs
// (with the commit), `on_run` after each run is on disk.
BisectStepReport run_bisect_step(const BisectStepPlan& plan, const OutputParser& parser,
                                 const std::function<void(const std::string& commit)>& on_build,
                                 const std::function<void(const BisectRunProgress&)>& on_run);

// The first bad commit the steps show: a commit called bad (or the bisection's
// bad commit) with a parent called good (or one of the good commits);
// nullopt when the steps do not show one yet. `parent` is that good parent.
struct FirstBad {
    std::string commit, parent;
    std::optional<size_t> commit_step, parent_step;  // indices into steps; nullopt: a reference commit
    size_t candidates = 1;        // how many commits met the rule (> 1: the steps disagree)
};
std::optional<FirstBad> first_bad_commit(const data::BisectLog& log);

}  // namespace gfxstat::drivers
