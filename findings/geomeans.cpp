// SPDX-License-Identifier: MIT
// compare's geomeans (findings/comparison_analysis.h): each candidate's
// oriented ratios of means over a set of metrics, and why a metric or the
// whole geomean is left out.
#include <algorithm>

#include "analysis/geomean.h"
#include "data/input_error.h"
#include "findings/comparison_analysis.h"

namespace gfxstat::cli {

void compute_geomeans(CompareReport& r, const std::vector<std::string>& named) {
    std::vector<const MetricReport*> set;
    if (!named.empty()) {
        for (const std::string& name : named) {
            const auto it = std::find_if(r.metrics.begin(), r.metrics.end(),
                                         [&](const MetricReport& m) { return m.metric == name; });
            if (it == r.metrics.end())
                throw data::InputError("--geomean: no metric '" + name + "' among those compared");
            if (it->better == analysis::Better::unknown)
                throw data::InputError("--geomean: metric '" + name +
                                       "' has no direction, so its ratio cannot be turned so that above 1 is better "
                                       "(--lower-is-better or --higher-is-better)");
            set.push_back(&*it);
        }
    } else {
        for (const auto& m : r.metrics)
            if (m.primary && m.better != analysis::Better::unknown) set.push_back(&m);
        if (set.size() < 2) return;
        for (const MetricReport* m : set)
            if (m->unit != set[0]->unit) {
                r.geomean_notes.push_back("no geomean: the primary metrics measure different things (units '" +
                                          set[0]->unit + "' and '" + m->unit +
                                          "'); name the ones that belong together with --geomean");
                return;
            }
    }
    // Candidates in order of first appearance; each over the metrics every
    // candidate has, so that the ratios compare.
    std::vector<std::string> labels;
    for (const MetricReport* m : set)
        for (const auto& c : m->candidates)
            if (std::find(labels.begin(), labels.end(), c.label) == labels.end()) labels.push_back(c.label);
    std::vector<const MetricReport*> common;
    for (const MetricReport* m : set) {
        std::vector<std::string> missing;
        for (const auto& l : labels)
            if (std::none_of(m->candidates.begin(), m->candidates.end(),
                             [&](const ReportSample& c) { return c.label == l; }))
                missing.push_back(l);
        if (missing.empty()) common.push_back(m);
        else
            r.geomean_notes.push_back("the geomean leaves out " + metric_title(*m) + ": not measured for " +
                                      missing[0] + (missing.size() > 1 ? " and others" : ""));
    }
    for (const auto& label : labels) {
        GeomeanReport g;
        g.candidate = label;
        std::vector<analysis::RatioInput> in;
        for (const MetricReport* m : common)
            for (size_t k = 0; k < m->candidates.size(); ++k) {
                if (m->candidates[k].label != label) continue;
                const analysis::TwoSampleComparison& c = m->comparisons[k];
                if (!(c.baseline.mean > 0) || !(c.candidate.mean > 0)) {
                    r.geomean_notes.push_back("the geomean leaves out " + metric_title(*m) + " for " + label +
                                              ": a mean is not positive");
                    continue;
                }
                in.push_back({c.baseline.mean, c.baseline.stddev, c.baseline.n, c.candidate.mean,
                              c.candidate.stddev, c.candidate.n, m->better});
                g.metrics.push_back(metric_title(*m));
            }
        if (in.empty()) continue;
        g.geomean = analysis::oriented_geomean(in, r.confidence);
        if (g.geomean.defined) r.geomeans.push_back(std::move(g));
    }
}

}  // namespace gfxstat::cli
