// SPDX-License-Identifier: MIT
// The steps file of `gfxstat bisect` (-o steps.json): what the bisection
// was told once (the references' per-run values, the metric, the error
// budget, the command) and, per step, the commit, how its build went, the
// value of each of its runs, and the call. One JSON document, rewritten
// atomically after each step (docs/bisect.md, "The steps file"). The runs
// themselves, with their logs and environment, are in a results file
// beside it; this file holds what the report needs, so that the report
// and every later step use the same numbers.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "data/results_model.h"

namespace gfxstat::data {

inline constexpr const char* kBisectLogFormat = "gfxstat-bisect";
inline constexpr int kBisectLogVersion = 1;

struct BisectReferenceRecord {
    std::string file, variant;   // where the runs came from
    std::vector<double> values;  // one per run: the mean of its values (as ab's blocks), in run order
};

struct BisectPlanRecord {
    std::string created;         // RFC 3339 UTC
    std::string generator;       // "gfxstat 0.1.0"
    std::string metric, unit;
    Direction direction = Direction::unknown;
    bool exact = false;
    BisectReferenceRecord good, bad;
    double confidence = 0.95;    // of the whole bisection
    double threshold = 0.01;     // relative
    size_t commits = 0;          // commits left to test when the plan was made (0: unknown)
    size_t expected_steps = 7;   // the budget's denominator (plus one for the references)
    size_t min_runs = 3, max_runs = 50;
    std::vector<std::string> command;  // the workload, as given after --
    std::string build;           // the --build shell command ("" : none)
    std::string results;         // the results file of the runs
    // The bisection's starting points as git had them when the plan was
    // made (refs/bisect/...): full commit ids, and the bad one's parents.
    std::vector<std::string> good_commits;
    std::string bad_commit;
    std::vector<std::string> bad_parents;
};

struct BisectStepRecord {
    std::string commit;                 // full id ("" : not in a git work tree)
    std::string subject;                // its first line
    std::vector<std::string> parents;   // full ids
    std::string started, ended;         // RFC 3339 UTC
    std::string build;                  // "ok", "failed", "none"
    std::optional<int> build_exit;      // the build's exit status when it failed
    std::vector<double> values;         // one per measured run that ended ok with the metric
    size_t failed_runs = 0;
    std::string call;                   // "good", "bad", "skip"
    int exit = 0;                       // what `git bisect run` was told: 0, 1 or 125
    std::string reason;                 // why, in one line
};

struct BisectLog {
    int version = kBisectLogVersion;
    BisectPlanRecord plan;
    std::vector<BisectStepRecord> steps;
};

// Throws InputError naming `path` (and the line, for JSON syntax errors)
// when the file is not a steps file this gfxstat can read.
BisectLog read_bisect_log(const std::string& path);
BisectLog parse_bisect_log(const std::string& text, const std::string& name);
std::string bisect_log_json(const BisectLog& log);
// Atomically, never through a link at `path` (data/safe_files.h).
void write_bisect_log(const std::string& path, const BisectLog& log);

}  // namespace gfxstat::data
