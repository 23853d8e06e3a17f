// SPDX-License-Identifier: MIT
#include "findings/sample_summary.h"

#include <algorithm>

#include "analysis/moments.h"
#include "analysis/order_stats.h"

namespace gfxstat::findings {

SampleSummary summarize_sample(data::Sample& s, const data::BootLayout& boots, const SampleOrigin* origin,
                               bool diagnose) {
    SampleSummary r;
    r.name = s.name;
    if (origin) {
        r.metric = origin->metric.name;
        r.unit = origin->metric.unit;
        r.direction = origin->metric.direction;
        r.excluded = origin->excluded;
    }
    if (diagnose && s.size() > 0) {
        // In run order, before the quantile selections below reorder it.
        std::vector<double> values(s.size());
        const analysis::ScaledValues view = s.view();
        for (size_t i = 0; i < values.size(); ++i) values[i] = view.at(i);
        analysis::SampleLayout layout;
        layout.boot_of_value = boots.boot_of_value;
        layout.boot_ids = boots.boots;
        layout.firsts = boots.firsts;
        r.diagnostics = analysis::diagnose_sample(values, layout, {});
    }
    const auto m = analysis::moments(s.view());
    const auto range = analysis::range(s.view());
    r.n = m.n;
    r.mean = m.mean;
    r.stddev = m.stddev;
    r.min = range.min;
    r.max = range.max;
    r.q1 = analysis::quantile_type7(s.mutable_view(), 1, 4);
    r.median = analysis::median(s.mutable_view());
    r.q3 = analysis::quantile_type7(s.mutable_view(), 3, 4);
    r.exact = s.exact();
    r.binary_tokens = s.binary_tokens;
    return r;
}

std::vector<std::vector<SampleSummary>> by_metric(const std::vector<SampleSummary>& rows) {
    std::vector<std::vector<SampleSummary>> groups;
    for (const SampleSummary& r : rows) {
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const std::vector<SampleSummary>& g) { return g[0].metric == r.metric; });
        if (it == groups.end()) groups.push_back({r});
        else it->push_back(r);
    }
    return groups;
}

}  // namespace gfxstat::findings
