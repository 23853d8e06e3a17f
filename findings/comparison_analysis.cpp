// SPDX-License-Identifier: MIT
// compare's statistics over its report: --drop-outliers, each candidate's
// comparison (its blocked design's pairs deciding when it has one), the
// family's adjusted p-values, the verdicts; and which metrics are primary.
#include "findings/comparison_analysis.h"

#include <algorithm>

#include "analysis/diagnostics.h"
#include "analysis/outliers.h"
#include "analysis/t_tests.h"
#include "data/input_error.h"
#include "text/plural.h"

namespace gfxstat::cli {

namespace {

analysis::SampleLayout layout_of(const ReportSample& s) {
    analysis::SampleLayout l;
    l.boot_of_value = s.layout.boot_of_value;
    l.boot_ids = s.layout.boots;
    l.firsts = s.layout.firsts;
    l.machine_of_value = s.layout.machine_of_value;
    l.machine_ids = s.layout.machines;
    l.machine_names = s.layout.machine_names;
    return l;
}

// --drop-outliers: leaves out exactly the values the outlier sentence would
// name (OutlierReport::reported: a modified z-score beyond the calibrated
// cutoff c(n), outlier_cutoffs.h; none in a bimodal sample, whose far
// values are a mode), keeping the boot layout in step, and remembers them
// by their place in the original run order.
void drop_outliers(ReportSample& s) {
    std::vector<double> v(s.sample.size());
    const analysis::ScaledValues view = s.sample.view();
    for (size_t i = 0; i < v.size(); ++i) v[i] = view.at(i);
    std::vector<size_t> drop;
    const analysis::OutlierReport report = analysis::find_outliers(v);
    // With a MAD of 0 (more than half the values equal, as quantised
    // timings are) nothing is reported, so nothing is dropped; say why.
    if (report.mad_zero) {
        s.drop_refused = true;
        return;
    }
    if (report.reported == 0 || analysis::judge_bimodality(v).bimodal) return;
    for (const auto& o : report.outliers)
        if (o.reported) {
            drop.push_back(o.index);
            s.dropped.push_back({o.index, o.value});
        }
    data::erase_values(s.sample, drop);
    data::erase_values(s.layout, drop);
}

}  // namespace

std::string p_label(const CompareReport& r, const MetricReport& m, size_t k) {
    if (k < m.comparisons.size() && m.comparisons[k].blocks && m.comparisons[k].blocks->look)
        return "anytime-valid p";
    if (!m.primary) return "unadjusted p";
    if (k >= m.adjusted.size() || !m.adjusted[k] || r.family_size < 2) return "p";
    return r.adjustment == "holm" ? "Holm-adjusted p" : "BH-adjusted p";
}

void assign_roles(std::vector<MetricReport>& metrics, bool named) {
    // The user's --metric list is the family; otherwise the metrics the
    // workload declares primary; otherwise those with a direction (a metric
    // without one cannot regress); otherwise all.
    if (named) return;
    // A design's role assignment stands.
    const bool declared = std::any_of(metrics.begin(), metrics.end(), [](const MetricReport& m) {
        return m.declared_primary.value_or(false);
    });
    const bool directed = std::any_of(metrics.begin(), metrics.end(), [](const MetricReport& m) {
        return m.better != analysis::Better::unknown;
    });
    for (auto& m : metrics) {
        if (m.design_role) continue;  // a sequential design said which metric it watched
        if (declared && !m.declared_primary.value_or(false)) {
            m.primary = false;
            m.secondary_why = "not the workload's primary metric";
        } else if (!declared && directed && m.better == analysis::Better::unknown) {
            m.primary = false;
            m.secondary_why = "no direction is known, so it cannot regress";
        }
    }
}

// Statistics, then multiplicity over the primary metrics' comparisons, then
// verdicts.
void analyse_comparisons(CompareReport& report, bool fdr, bool diagnostics, int threads) {
    analysis::ComparisonOptions opt;
    opt.confidence = report.confidence;
    opt.threshold = report.threshold;
    opt.bootstrap_resamples = report.resamples;
    opt.seed = report.seed;
    opt.diagnostics = diagnostics;
    opt.threads = threads;
    for (auto& m : report.metrics) {
        const size_t least = m.exact ? 1 : 2;
        const auto check_n = [&](const ReportSample& s) {
            if (s.sample.size() < least)
                throw data::InputError((m.metric.empty() ? "" : "metric '" + m.metric + "': ") + s.label +
                                       " has " + gfxstat::text::plural(s.sample.size(), "value") + "; a comparison needs " +
                                       (m.exact ? "at least 1 a side" : "at least 2 a side (or --exact for a "
                                                                        "deterministic metric)"));
        };
        if (report.drop_outliers && !m.exact) {
            drop_outliers(m.baseline);
            for (auto& c : m.candidates) drop_outliers(c);
        }
        check_n(m.baseline);
        if (report.keep_run_order) {
            const auto keep = [](ReportSample& s) {
                const auto view = s.sample.view();
                s.run_order.resize(view.size());
                for (size_t i = 0; i < view.size(); ++i) s.run_order[i] = view.at(i);
            };
            keep(m.baseline);
            for (auto& c : m.candidates) keep(c);
        }
        opt.exact = m.exact;
        for (size_t k = 0; k < m.candidates.size(); ++k) {
            auto& c = m.candidates[k];
            check_n(c);
            m.comparisons.push_back(analysis::compare_samples(m.baseline.sample.mutable_view(),
                                                              c.sample.mutable_view(), opt,
                                                              layout_of(m.baseline), layout_of(c)));
            if (const DesignUse* u = m.design(k); u && !m.exact) {
                // The blocks are the experiment: their pairs decide.
                analysis::BlockDesign bd;
                bd.sequential = u->design.stopping == "sequential" && u->design.metric == m.metric;
                // As `gfxstat ab` stops: Bonferroni over the design's candidates.
                const size_t candidates = u->design.variants.size() > 1 ? u->design.variants.size() - 1 : 1;
                bd.confidence = bd.sequential ? 1 - (1 - report.confidence) / static_cast<double>(candidates)
                                              : report.confidence;
                bd.threshold = report.threshold;
                bd.incomplete = u->pairs.incomplete;
                if (bd.sequential) bd.looks.assign(u->design.looks.begin(), u->design.looks.end());
                if (bd.sequential && u->design.max_runs) bd.max_blocks = static_cast<size_t>(*u->design.max_runs);
                analysis::analyse_blocks(m.comparisons.back(), u->pairs.baseline, u->pairs.candidate, bd);
            }
        }
    }
    // The family: primary metrics whose test is defined. An exact metric,
    // or one without variability, has no p to adjust, and a secondary
    // metric must not dilute the primary ones.
    std::vector<double> pvals;
    for (auto& m : report.metrics)
        for (const auto& c : m.comparisons) {
            // A confidence sequence's error rate is set by its own level
            // (Bonferroni over the design's candidates), not by Holm.
            const bool sequential = c.blocks && c.blocks->look;
            const bool in_family = m.primary && !m.exact && c.primary_defined && !sequential;
            m.adjusted.push_back(in_family);
            if (in_family) pvals.push_back(c.primary_p);
        }
    report.family_size = pvals.size();
    const std::vector<double> adjusted =
        fdr ? analysis::benjamini_hochberg_adjust(pvals) : analysis::holm_adjust(pvals);
    size_t k = 0;
    for (auto& m : report.metrics)
        for (size_t i = 0; i < m.comparisons.size(); ++i) {
            const auto& c = m.comparisons[i];
            const double p = m.adjusted[i] ? adjusted[k++] : c.primary_p;
            analysis::VerdictInputs vi = analysis::verdict_inputs(c, m.better, report.confidence, report.threshold, p,
                                                                  p_label(report, m, i));
            m.verdicts.push_back(analysis::decide(vi));
        }
}

}  // namespace gfxstat::cli
