// SPDX-License-Identifier: MIT
#include "drivers/bisect_references.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "data/blocked_pairs.h"
#include "data/input_error.h"
#include "data/results_reader.h"
#include "data/store_argument.h"
#include "drivers/bisect_step.h"
#include "drivers/git_revisions.h"
#include "drivers/run_loop.h"
#include "text/nearest_word.h"

namespace gfxstat::drivers {

namespace {

// One side's runs of the metric: failed runs, warm-ups and runs without a
// finite value are counted, not used.
BisectReference load_reference(const std::string& path, const std::string& variant, const std::string& metric_wanted,
                               const char* side) {
    // store:SELECTION: stored runs (docs/store.md), read as one file.
    const data::ResultsFile file = data::is_store_argument(path)
                                       ? data::results_file(data::read_store_argument(path), path)
                                       : data::read_results_path(path, path);
    BisectReference r;
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
        metric = default_tracked(candidates);
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


}  // namespace

PreparedBisection prepare_bisection(const BisectReferenceOptions& o, const std::string& work_dir) {
    PreparedBisection p;
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
        const GitBisectState s = git_bisect_state(work_dir);
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

analysis::BisectReferences analyse_references(const PreparedBisection& p) {
    return analysis::bisect_references(p.plan.good.values, p.plan.bad.values, bisect_options(p.plan));
}

}  // namespace gfxstat::drivers
