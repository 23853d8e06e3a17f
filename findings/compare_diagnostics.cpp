// SPDX-License-Identifier: MIT
#include "findings/compare_diagnostics.h"

#include <map>
#include <memory>
#include <utility>

namespace gfxstat::findings {

namespace {

struct Diagnosed {
    const std::string* unit;  // compare's, the one it shows: not always the recorded one
    const cli::ReportSample* sample;
    const analysis::SampleDiagnostics* diagnostics;
};

bool same_sample(const cli::ReportSample& s, const std::vector<double>& values, const data::BootLayout& layout) {
    return s.dropped.empty() && s.run_order == values && s.layout.boot_of_value == layout.boot_of_value &&
           s.layout.boots == layout.boots && s.layout.firsts == layout.firsts;
}

}  // namespace

KnownDiagnostics compare_diagnostics(const CompareFindings& found) {
    // Indexed by metric and variant once: a suite's file holds thousands of
    // metrics, each asked for by show.
    auto index = std::make_shared<std::map<std::pair<std::string, std::string>, std::vector<Diagnosed>>>();
    // compare diagnoses at its confidence and threshold, show at the
    // defaults: another confidence or threshold, another diagnosis.
    const analysis::DiagnosticOptions defaults;
    const bool as_show = found.report.confidence == defaults.confidence && found.report.threshold == defaults.threshold;
    if (as_show)
        for (const cli::MetricReport& m : found.report.metrics)
            for (size_t k = 0; k < m.comparisons.size() && k < m.candidates.size(); ++k) {
                const analysis::TwoSampleComparison& c = m.comparisons[k];
                if (c.baseline_diagnostics)
                    (*index)[{m.metric, m.baseline.label}].push_back({&m.unit, &m.baseline, &*c.baseline_diagnostics});
                if (c.candidate_diagnostics)
                    (*index)[{m.metric, m.candidates[k].label}].push_back(
                        {&m.unit, &m.candidates[k], &*c.candidate_diagnostics});
            }
    return [index](const std::string& metric, const std::string& unit, const std::string& variant,
                   const std::vector<double>& values,
                   const data::BootLayout& layout) -> const analysis::SampleDiagnostics* {
        const auto it = index->find({metric, variant});
        if (it == index->end()) return nullptr;
        for (const Diagnosed& d : it->second)
            if (*d.unit == unit && same_sample(*d.sample, values, layout)) return d.diagnostics;
        return nullptr;
    };
}

}  // namespace gfxstat::findings
