// SPDX-License-Identifier: MIT
// ministat's report (findings/ministat_table.h), byte for byte as FreeBSD's
// and Debian's ministat print it: the legend, the plot, the table and
// Student's t of each set against the first.
#pragma once

#include <string>

#include "data/results_model.h"
#include "findings/ministat_table.h"

namespace gfxstat::report {

// What one report needs besides its data sets: ministat's options.
struct MinistatLayout {
    bool separate = false, stats_only = false, no_plot = false;
    double level = 95;
    int width = 74;
};

// On standard output; the sets' names are escaped. `table` holds at most
// 7 sets (ministat's symbols), with the test unless o.stats_only.
void print_ministat_report(const findings::MinistatTable& table, const MinistatLayout& o);

// "== gl_manhattan (fps, higher is better) ==": what a report of the
// many-benchmark mode is of (not escaped).
std::string ministat_metric_heading(const data::MetricInfo& m);

}  // namespace gfxstat::report
