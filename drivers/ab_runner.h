// SPDX-License-Identifier: MIT
// `gfxstat ab` without the command line: two or more variants of one
// workload (builds, environments) run interleaved in blocks, every run
// recorded as `gfxstat run` records it plus its design, block and place in
// the block; after each block the stop rule (analysis/confidence_sequence.h)
// looks at each candidate's block differences against the baseline and
// the experiment ends as soon as every one is settled, or at max_blocks,
// or after a fixed number of blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/confidence_sequence.h"
#include "data/results_model.h"
#include "drivers/ab_schedule.h"
#include "drivers/run_loop.h"

namespace gfxstat::drivers {

// The stop rule: the confidence sequence, which may decide after any
// block (analysis/confidence_sequence.h), or the group-sequential design,
// which decides only at looks planned from max_blocks and needs fewer
// runs for a change of the spread's size (analysis/group_sequential.h).
enum class AbStop { sequential, group };
const char* ab_stop_name(AbStop s);  // "sequential", "group"
// The stop rule's method, as the design record and the progress say it.
const char* ab_stop_method(AbStop s);

struct AbPlan {
    // One plan per variant, the baseline first: its label, command, env,
    // prepare/cleanup, tags and workload record. The run options that
    // apply to the whole experiment (results_path, log_dir, timeout_s,
    // cooldown_s, max_consecutive_failures) are read from the first.
    std::vector<RunPlan> variants;
    AbOrder order = AbOrder::random;
    uint64_t seed = 0;
    // Fixed: exactly this many blocks, no stop rule. Otherwise the stop
    // rule after each block, at most max_blocks (and at least min_blocks).
    std::optional<size_t> blocks;
    size_t min_blocks = 2, max_blocks = 50;
    AbStop stop = AbStop::sequential;  // without `blocks`
    size_t warmup = 0;         // runs of each variant recorded as warm-ups first
    size_t switch_warmup = 0;  // warm-ups before a run whose variant differs from the run before
    double confidence = 0.95;  // of the whole experiment: split over the candidates
    double threshold = 0.01;   // relative
    std::string target_metric; // "" : default_tracked
};

// The stop rule's confidence for each of k candidates (Bonferroni): the
// chance that any of them is called wrongly stays within 1 - confidence.
double per_comparison_confidence(double confidence, size_t candidates);

// A seed for the random block order, drawn from the kernel; half the range
// of a uint64, so that JSON readers with signed 64-bit integers read it.
uint64_t random_ab_seed();

// The first complete block at which the confidence sequence at `alpha` has
// a finite radius: before it, the interval does not exist yet (1000 when
// it never does within that).
size_t first_bounded_block(double alpha);

// The stop rule's options for one comparison at this confidence: the
// group design's looks from the plan's max_blocks when it has one.
analysis::SequentialOptions ab_sequential_options(const AbPlan& plan, double confidence);

// Whether a comparison's advice is said again (once at most): when the
// threshold it proposes (nullopt: none up to 100%) has grown or shrunk
// 1.5-fold since the advice that was said, or appeared or gone. What the
// given threshold needs is no measure of that: with the estimate near 0
// it swings tenfold from one early block to the next, all of it far
// beyond the budget.
bool ab_advice_changed(std::optional<double> said, std::optional<double> now);

struct AbBlockProgress {
    size_t block = 0;            // from 0
    std::vector<size_t> order;   // variant indices as they ran
    std::vector<bool> ok;        // per position: the run ended ok with the metric
    std::string metric, unit;
    // Per candidate (variant 1..k-1): the look after this block.
    std::vector<analysis::SequentialLook> looks;
    // Per candidate: advice to print after this block, when the noise makes
    // the threshold unreachable within max_blocks (analysis::settling_advice):
    // at the first look that shows it, and at most once more, when the
    // threshold it proposes has changed 1.5-fold since. Never with
    // fixed blocks; the stop rule goes on at the threshold it was given.
    std::vector<std::optional<analysis::SettlingAdvice>> advice;
    bool settled = false;        // every look settled (never with fixed blocks)
    size_t planned = 0;          // blocks, or max_blocks
};

struct AbRunProgress {
    const data::RunRecord* record = nullptr;
    size_t block = 0;            // meaningless for warm-ups
    bool warmup = false;
};

struct AbReport {
    RunOutcome outcome = RunOutcome::completed;
    std::string message;
    std::string design_id;       // "" when no measured run was recorded
    std::string metric;
    size_t blocks = 0;           // blocks run (complete or not)
    bool last_block_cut = false; // the last one stopped before every variant ran
    bool settled = false;        // the stop rule ended it
    std::vector<analysis::SequentialLook> looks;  // the last, per candidate
    size_t measured = 0, warmups = 0, failed = 0;
    // Per variant: measured runs that ended ok with the watched metric, and
    // why the last run that did not ended so ("" when none failed).
    std::vector<size_t> usable;
    std::vector<std::string> last_failure;
    std::vector<size_t> failed_by_variant;  // measured and warm-up runs that failed (not skips)
    ImageCheckTally checks;  // --check-images: the checking runs, never timed
    std::vector<std::string> warnings;
};

// Checks everything that can be refused before touching anything (each
// variant's command, the options), then runs. Throws data::InputError for
// the results file (a variant that already holds runs), std::invalid_argument
// for a bad plan. `parser` reads every variant's output.
AbReport run_ab(const AbPlan& plan, const OutputParser& parser, const std::function<void(const AbRunProgress&)>& on_run,
                const std::function<void(const AbBlockProgress&)>& on_block);

// The design record run_ab writes (id, variants, order, seed, stopping...),
// for tests and for the id's format: "design-" + 16 hex digits.
data::DesignRecord ab_design_record(const AbPlan& plan, const std::string& metric, const std::string& id);

}  // namespace gfxstat::drivers
