// SPDX-License-Identifier: MIT
#include "drivers/ab_runner.h"

#include "drivers/image_check_pass.h"

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <memory>
#include <set>
#include <stdexcept>

#include "analysis/group_sequential.h"
#include "data/blocked_pairs.h"
#include "data/input_error.h"
#include "data/random_hex.h"
#include "data/results_writer.h"

namespace gfxstat::drivers {

namespace {

std::string random_hex16() {
    const std::optional<std::string> hex = data::random_hex(8);
    if (!hex) throw std::runtime_error("getrandom failed");
    return *hex;
}

std::string plural(size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// Per variant: the value of the tracked metric in each block (NaN where
// the run failed or lacked it), so that pairs are made by block.
struct BlockValues {
    std::vector<std::vector<double>> by_variant;
    void grow(size_t variants, size_t blocks) {
        by_variant.resize(variants);
        for (auto& v : by_variant) v.resize(blocks, std::nan(""));
    }
};

}  // namespace

double per_comparison_confidence(double confidence, size_t candidates) {
    return 1 - (1 - confidence) / static_cast<double>(std::max<size_t>(candidates, 1));
}

uint64_t random_ab_seed() {
    uint64_t s = 0;
    while (::getrandom(&s, sizeof s, 0) != static_cast<ssize_t>(sizeof s))
        if (errno != EINTR) return 0x5eed;
    return s >> 1;  // fits a JSON reader's signed 64-bit integers
}

size_t first_bounded_block(double alpha) {
    // The mixture cannot reach 1/alpha before this many blocks.
    size_t first = 2;
    while (first < 1000 && !std::isfinite(analysis::sequential_radius(first, alpha, analysis::kSequentialMixture, analysis::kSequentialWideMixture, analysis::kSequentialWideWeight)))
        ++first;
    return first;
}

bool ab_advice_changed(std::optional<double> said, std::optional<double> now) {
    if (!said || !now) return said.has_value() != now.has_value();
    return *now >= 1.5 * *said || 1.5 * *now <= *said;
}

const char* ab_stop_name(AbStop s) { return s == AbStop::group ? "group" : "sequential"; }

const char* ab_stop_method(AbStop s) {
    return s == AbStop::group ? analysis::kGroupSequentialMethod : analysis::kSequentialMethod;
}

analysis::SequentialOptions ab_sequential_options(const AbPlan& plan, double confidence) {
    analysis::SequentialOptions so;
    so.confidence = confidence;
    so.threshold = plan.threshold;
    if (!plan.blocks && plan.stop == AbStop::group) so.looks = analysis::group_looks(plan.max_blocks);
    return so;
}

data::DesignRecord ab_design_record(const AbPlan& plan, const std::string& metric, const std::string& id) {
    data::DesignRecord d;
    d.id = id;
    d.kind = "ab";
    for (const RunPlan& v : plan.variants) d.variants.push_back(v.variant);
    d.order = ab_order_name(plan.order);
    d.seed = plan.seed;
    d.metric = metric;
    d.confidence = plan.confidence;
    d.threshold = plan.threshold;
    if (plan.blocks) {
        d.stopping = "fixed";
        d.runs = *plan.blocks;
    } else {
        d.stopping = "sequential";
        d.method = ab_stop_method(plan.stop);
        d.max_runs = plan.max_blocks;
        if (plan.stop == AbStop::group) {
            // The looks and the bound on |t| at each, at the confidence
            // each comparison is held to (Bonferroni over the candidates).
            const analysis::SequentialOptions so =
                ab_sequential_options(plan, per_comparison_confidence(plan.confidence, plan.variants.size() - 1));
            const analysis::GroupBoundary& b = analysis::group_boundary(so.looks, 1 - so.confidence);
            d.looks.assign(so.looks.begin(), so.looks.end());
            d.boundary = b.critical;
        }
    }
    return d;
}

AbReport run_ab(const AbPlan& plan, const OutputParser& parser, const std::function<void(const AbRunProgress&)>& on_run,
                const std::function<void(const AbBlockProgress&)>& on_block) {
    const size_t k = plan.variants.size();
    // One variant only with fixed runs: a candidate compared afterwards
    // with a stored baseline (gfxstat ab --baseline SELECTION).
    if (k == 0 || (k < 2 && !plan.blocks)) throw std::invalid_argument("give two or more --variant");
    {
        std::set<std::string> labels;
        for (const RunPlan& v : plan.variants)
            if (!labels.insert(v.variant).second)
                throw std::invalid_argument("variant '" + v.variant + "' is named twice");
    }
    if (plan.blocks && *plan.blocks == 0) throw std::invalid_argument("--runs must be at least 1");
    if (!plan.blocks && (plan.max_blocks < 2 || plan.min_blocks > plan.max_blocks))
        throw std::invalid_argument("--max-runs must be at least 2 (and at least --min-runs)");
    if (!(plan.confidence > 0 && plan.confidence < 1)) throw std::invalid_argument("--confidence must be in (0, 1)");
    if (!(plan.threshold >= 0)) throw std::invalid_argument("--threshold must be >= 0");
    const RunPlan& first = plan.variants[0];
    clear_run_plan_interruption();

    // Every command is checked before the results file is touched.
    std::vector<std::unique_ptr<Execution>> ex;
    for (const RunPlan& v : plan.variants) {
        RunPlan p = v;
        p.target_metric = plan.target_metric;
        ex.push_back(std::make_unique<Execution>(prepare_execution(p, parser)));
    }
    std::string metric = ex[0]->tracked;
    std::string unit;
    const std::vector<data::MetricInfo> declared = parser.metrics();
    for (const auto& m : declared)
        if (m.name == metric) unit = m.unit;

    data::ResultsAppender appender(first.results_path);
    // One experiment per variant label: its runs are the design's, and
    // compare pairs them by block. Runs from before would mix into the
    // samples of every other metric.
    for (const RunPlan& v : plan.variants)
        for (const auto& r : appender.file().runs())
            if (r.variant == v.variant)
                throw data::input_error(first.results_path, 0,
                                        "already holds runs of variant '" + v.variant +
                                            "'; gfxstat ab starts a new experiment: give a new results file "
                                            "(or other labels)");
    for (const auto& m : declared) appender.declare_metric(m);

    AbReport report;
    report.usable.assign(k, 0);
    report.last_failure.assign(k, "");
    report.failed_by_variant.assign(k, 0);
    if (!appender.repaired().empty()) report.warnings.push_back(appender.repaired());
    RunReport run_report;  // run_once's counters and warnings
    const std::string design_id = "design-" + random_hex16();
    bool design_declared = false;
    const double per_confidence = per_comparison_confidence(plan.confidence, k - 1);
    const size_t planned = plan.blocks ? *plan.blocks : plan.max_blocks;

    std::vector<size_t> consecutive_failures(k, 0);
    // Per candidate: how often the advice was said, and the threshold it
    // proposed then.
    std::vector<size_t> advised(k, 0);
    std::vector<std::optional<double>> advised_threshold(k);
    BlockValues values;
    // --check-images (the first variant's plan says it for all).
    const std::shared_ptr<const ImageCheckSettings>& checks = first.image_checks;
    std::vector<size_t> checks_done(k, 0);
    int last_variant = -1;
    bool first_run = true;

    // One run of variant v; returns false when the experiment must stop
    // (report.outcome and message set).
    const auto one_run = [&](size_t v, bool warmup, std::optional<size_t> block, size_t position) -> bool {
        if (run_plan_interrupted()) {
            report.outcome = RunOutcome::interrupted;
            report.message = "interrupted; every finished run is in " + first.results_path;
            return false;
        }
        const RunPlan& rp = plan.variants[v];
        if (!first_run && first.cooldown_s > 0) interruptible_sleep(first.cooldown_s);
        first_run = false;
        RunAttempt attempt = run_once(rp, *ex[v], parser, appender, warmup, run_report);
        bool missing_metric = false;  // an ok measured run without the watched metric
        data::RunRecord& rec = attempt.record;
        last_variant = static_cast<int>(v);
        const bool ok = rec.exit_class == data::ExitClass::ok;
        if (!warmup && block) {
            if (metric.empty() && ok) {
                std::vector<data::MetricInfo> seen;
                for (const auto& m : rec.metrics)
                    if (const data::MetricInfo* info = appender.file().find_metric(m.name)) seen.push_back(*info);
                metric = default_tracked(seen);
            }
            if (!metric.empty() && unit.empty())
                if (const data::MetricInfo* info = appender.file().find_metric(metric)) unit = info->unit;
            // A design is of two or more variants: a candidate alone (a
            // stored baseline) runs without one, as gfxstat run's runs.
            if (!design_declared && !metric.empty() && k >= 2) {
                appender.declare_design(ab_design_record(plan, metric, design_id));
                design_declared = true;
                report.design_id = design_id;
            }
            if (design_declared) {
                rec.design = design_id;
                rec.block = *block;
                rec.position = position;
            }
            if (ok && !metric.empty()) {
                const std::optional<double> x = data::run_value(rec, metric);
                if (x) {
                    values.by_variant[v][*block] = *x;
                    ++report.usable[v];
                }
                missing_metric = !x;
            }
        }
        appender.append_run_and_release_values(rec);
        if (warmup) ++report.warmups;
        else if (ok) ++report.measured;
        if (ok) {
            consecutive_failures[v] = 0;
        } else if (rec.exit_class != data::ExitClass::skip && !attempt.interrupted) {
            ++report.failed;
            ++report.failed_by_variant[v];
            ++consecutive_failures[v];
        }
        if (!ok && !attempt.interrupted)
            report.last_failure[v] = rec.exit_reason.empty() ? data::exit_class_name(rec.exit_class) : rec.exit_reason;
        if (on_run) {
            AbRunProgress p;
            p.record = &rec;
            p.block = block.value_or(0);
            p.warmup = warmup;
            on_run(p);
        }
        if (run_plan_interrupted() || attempt.interrupted) {
            report.outcome = RunOutcome::interrupted;
            report.message = "interrupted; every finished run is in " + first.results_path;
            return false;
        }
        if (attempt.stop_now) {
            report.outcome = attempt.stop;
            report.message = "variant '" + rp.variant + "': " + attempt.message;
            return false;
        }
        if (consecutive_failures[v] >= first.max_consecutive_failures) {
            report.outcome = RunOutcome::failing;
            report.message = "variant '" + rp.variant + "': " +
                             (consecutive_failures[v] == 1 ? std::string("1 run")
                                                           : std::to_string(consecutive_failures[v]) + " runs in a row") +
                             " did not succeed (last: " +
                             (rec.exit_reason.empty() ? data::exit_class_name(rec.exit_class) : rec.exit_reason) +
                             ")" + (attempt.kept ? "; its output: " + attempt.prefix + ".stdout/.stderr" : "") +
                             "; stopping";
            return false;
        }
        if (missing_metric && !plan.target_metric.empty()) {
            report.outcome = RunOutcome::invalid;
            report.message = "--target-metric '" + plan.target_metric + "' is not in the output of variant '" +
                             rp.variant + "'";
            return false;
        }
        return true;
    };

    try {
        bool go = true;
        for (size_t v = 0; v < k && go; ++v)
            for (size_t w = 0; w < plan.warmup && go; ++w) go = one_run(v, true, std::nullopt, 0);
        for (size_t b = 0; go && b < planned; ++b) {
            values.grow(k, b + 1);
            AbBlockProgress progress;
            progress.block = b;
            progress.planned = planned;
            progress.order = block_order(plan.order, k, b, plan.seed);
            for (size_t pos = 0; pos < k && go; ++pos) {
                const size_t v = progress.order[pos];
                if (plan.switch_warmup > 0 && last_variant >= 0 && static_cast<size_t>(last_variant) != v)
                    for (size_t w = 0; w < plan.switch_warmup && go; ++w) go = one_run(v, true, std::nullopt, 0);
                if (go) go = one_run(v, false, b, pos);
            }
            report.blocks = b + 1;
            if (!go) {
                // Stopped inside the block: did every variant get its run?
                size_t ran = 0;
                for (const auto& r : appender.file().runs())
                    ran += !r.design.empty() && r.design == design_id && r.block && *r.block == b;
                report.last_block_cut = ran < k;
                break;
            }
            for (size_t pos = 0; pos < k; ++pos)
                progress.ok.push_back(!std::isnan(values.by_variant[progress.order[pos]][b]));
            progress.metric = metric;
            progress.unit = unit;
            // The looks: each candidate against the baseline, on the blocks
            // where both have a value.
            bool all_settled = true;
            for (size_t c = 1; c < k; ++c) {
                std::vector<double> base, cand;
                for (size_t i = 0; i <= b; ++i) {
                    const double x = values.by_variant[0][i], y = values.by_variant[c][i];
                    if (!std::isnan(x) && !std::isnan(y)) {
                        base.push_back(x);
                        cand.push_back(y);
                    }
                }
                analysis::SequentialOptions so = ab_sequential_options(plan, per_confidence);
                // A deterministic metric's identical differences are its change.
                const data::MetricInfo* info = appender.file().find_metric(metric);
                so.exact = info && info->exact;
                progress.looks.push_back(analysis::sequential_look(base, cand, so));
                all_settled &= progress.looks.back().call != analysis::SequentialCall::go_on;
                std::optional<analysis::SettlingAdvice> advice;
                if (!plan.blocks && advised[c] < 2)
                    advice = analysis::settling_advice(base, cand, so, plan.max_blocks);
                if (advice && advised[c] == 1 && !ab_advice_changed(advised_threshold[c], advice->settling_threshold))
                    advice.reset();
                if (advice) {
                    ++advised[c];
                    advised_threshold[c] = advice->settling_threshold;
                }
                progress.advice.push_back(std::move(advice));
            }
            progress.settled = !plan.blocks && all_settled && b + 1 >= plan.min_blocks;
            report.looks = progress.looks;
            if (on_block) on_block(progress);
            // --check-images every:K: one checking run of each variant after
            // every K-th block, never inside one.
            if (checks && checks->every && (b + 1) % checks->every == 0)
                for (size_t v = 0; v < k && !run_plan_interrupted(); ++v) {
                    run_image_check(plan.variants[v], *ex[v], *checks, appender, run_report, report.checks,
                                    design_declared ? design_id : "", b);
                    ++checks_done[v];
                }
            if (run_plan_interrupted()) {
                report.outcome = RunOutcome::interrupted;
                report.message = "interrupted; every finished run is in " + first.results_path;
                break;
            }
            if (progress.settled) {
                report.settled = true;
                break;
            }
        }
        // The checking pass after the last block: every variant topped up
        // to 2 checking runs, interleaved (A B A B).
        if (checks && go && report.outcome == RunOutcome::completed && !run_plan_interrupted()) {
            const std::optional<uint64_t> last =
                report.blocks ? std::optional<uint64_t>(report.blocks - 1) : std::nullopt;
            for (bool more = true; more && !run_plan_interrupted();) {
                more = false;
                for (size_t v = 0; v < k && !run_plan_interrupted(); ++v)
                    if (image_checks_to_top_up(checks_done[v]) > 0) {
                        run_image_check(plan.variants[v], *ex[v], *checks, appender, run_report, report.checks,
                                        design_declared ? design_id : "", last);
                        more |= image_checks_to_top_up(++checks_done[v]) > 0;
                    }
            }
            if (run_plan_interrupted()) {
                report.outcome = RunOutcome::interrupted;
                report.message = "interrupted; every finished run is in " + first.results_path;
            }
        }
    } catch (const data::InputError& e) {
        report.outcome = appender.write_failed() ? RunOutcome::error : RunOutcome::invalid;
        report.message = std::string(e.what()) + "; every finished run is in " + first.results_path;
    } catch (const std::exception& e) {
        report.outcome = RunOutcome::error;
        report.message = std::string(e.what()) + "; every finished run is in " + first.results_path;
    }
    report.metric = metric;
    for (auto& w : run_report.warnings) report.warnings.push_back(std::move(w));
    if (run_report.runs_with_leftovers) {
        const size_t n = run_report.runs_with_leftovers, p = run_report.leftover_processes;
        report.warnings.push_back(plural(n, "run") + " left " + std::to_string(p) + (p == 1 ? " process" : " processes") +
                                  " running in the background when the workload ended; they were stopped "
                                  "(SIGTERM, then SIGKILL) so that they could not run into the next run");
    }
    if (report.outcome == RunOutcome::completed && report.measured == 0)
        report.message = "no measured run ended ok";
    return report;
}

}  // namespace gfxstat::drivers
