// SPDX-License-Identifier: MIT
#include "findings/show_overview.h"

#include "data/results_select.h"

namespace gfxstat::findings {
namespace {

// Diagnostics of every metric of every variant (analysis/diagnostics.h).
std::vector<VariantDiagnostics> diagnose_file(const data::ResultsFile& f, const std::string& name,
                                              const KnownDiagnostics& known) {
    std::vector<VariantDiagnostics> out;
    // One pass for every metric: a table of 20,000 columns is 20,000 metrics.
    std::vector<data::MetricSelection> selections = data::select_all_metrics(f, name, {});
    // Room for every sample at once: growing the vector copies what is in
    // it (the diagnostics do not move without a possible throw), 80,000
    // diagnostics for a file of 20,000 variants and 4 metrics.
    size_t samples = 0;
    for (const data::MetricSelection& sel : selections) samples += sel.variants.size();
    out.reserve(samples);
    for (data::MetricSelection& sel : selections) {
        const data::MetricInfo& m = sel.metric;
        // A run's frames drift, cluster and have outliers within the run:
        // run diagnostics on them would describe frames, not runs.
        if (m.within_run()) continue;
        for (auto& v : sel.variants) {
            if (v.sample.size() == 0) continue;
            std::vector<double> values(v.sample.size());
            const analysis::ScaledValues view = v.sample.view();
            for (size_t i = 0; i < values.size(); ++i) values[i] = view.at(i);
            analysis::SampleLayout layout;
            layout.boot_of_value = v.layout.boot_of_value;
            layout.boot_ids = v.layout.boots;
            layout.firsts = v.layout.firsts;
            const analysis::SampleDiagnostics* made = known ? known(m.name, m.unit, v.variant, values, v.layout) : nullptr;
            out.push_back({m.name, v.variant, m.unit, made ? *made : analysis::diagnose_sample(values, layout, {}),
                           cli::recorded_series(f, v.layout)});
        }
    }
    return out;
}

}  // namespace

std::vector<std::string> workload_warnings(const data::ResultsOverview& o, bool listed) {
    std::vector<std::string> out;
    for (const auto& v : o.variants) {
        if (v.workloads.size() < 2) continue;
        std::string list;
        for (const auto& [w, n] : v.workloads)
            list += (list.empty() ? "" : "; ") + data::workload_text(w) + " (" + std::to_string(n) +
                    (n == 1 ? " run)" : " runs)");
        out.push_back("variant '" + v.variant + "' mixes " + std::to_string(v.workloads.size()) +
                      " workloads, so its runs are not one experiment" + (listed ? "" : ": " + list));
    }
    return out;
}

ShowOverview show_overview(const data::ResultsFile& f, const std::string& name, bool diagnostics,
                           const KnownDiagnostics& known) {
    ShowOverview s;
    s.overview = data::overview(f);
    s.context = volatile_context(volatile_readings(f));
    if (diagnostics) s.diagnostics = diagnose_file(f, name, known);
    s.workload_warnings = workload_warnings(s.overview);
    return s;
}

}  // namespace gfxstat::findings
