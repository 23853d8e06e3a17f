// SPDX-License-Identifier: MIT
// What gfxstat show (and gfxstat report's show section) say about a results
// file, computed before anything is printed: the counts per variant,
// machine and boot (data/results_overview.h), the diagnostics of every
// run-level sample, and the warnings about variants that mix workloads.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analysis/diagnostics.h"
#include "data/results_model.h"
#include "data/results_overview.h"
#include "data/results_select.h"
#include "findings/recorded_context.h"
#include "findings/volatile_context.h"

namespace gfxstat::findings {

// Diagnostics of every metric of every variant (diagnostics.h).
struct VariantDiagnostics {
    std::string metric, variant, unit;
    analysis::SampleDiagnostics diagnostics;
    cli::RecordedSeries recorded;  // what the runs recorded, for the drift sentences
};

struct ShowOverview {
    data::ResultsOverview overview;
    // The facts of the moment (load, temperatures, clocks) over the runs,
    // and the variants that ran under systematically different ones
    // against the first variant.
    VolatileContext context;
    std::vector<VariantDiagnostics> diagnostics;  // run-level metrics only
    std::vector<std::string> workload_warnings;   // workload_warnings(overview, false)
};

// A sample's diagnostics another analysis already made (gfxstat report:
// compare's, findings/compare_diagnostics.h), asked for before show runs
// them: the metric, its unit, the variant, the values in run order and
// their boots. nullptr: none made for exactly that sample.
using KnownDiagnostics = std::function<const analysis::SampleDiagnostics*(
    const std::string& metric, const std::string& unit, const std::string& variant,
    const std::vector<double>& values, const data::BootLayout& layout)>;

// The file read as `name`. Throws data::InputError (a file without runs)
// before a renderer has printed anything. `diagnostics` false: none are
// run (gfxstat report --no-diagnostics); `known`: the samples another
// analysis diagnosed are not diagnosed again.
ShowOverview show_overview(const data::ResultsFile& f, const std::string& name, bool diagnostics = true,
                           const KnownDiagnostics& known = {});

// One line per variant whose runs mix workloads, for stderr, the text and
// JSON: runs of different commands under one label are not one sample.
// `listed`: the workloads are printed just above, so not again.
std::vector<std::string> workload_warnings(const data::ResultsOverview& o, bool listed = false);

}  // namespace gfxstat::findings
