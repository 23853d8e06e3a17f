// SPDX-License-Identifier: MIT
// history --plot and --html: the series of each metric with its change
// points drawn, and with history's own text report as one self-contained
// page (report/html_report.h).
#pragma once

#include <string>
#include <vector>

#include "findings/history.h"
#include "plot/plot_data.h"

namespace gfxstat::report {

// The series as analysed: builds in series order, every run, each
// segment's mean and the first build after each change.
std::vector<plot::HistoryPlot> history_plots(const findings::history::History& h);


// Writes the page to `path` atomically, never through a link. `text` is
// history's text report, already escaped for a terminal. Throws InputError.
void write_history_page(const std::string& path, const std::vector<plot::HistoryPlot>& plots, const std::string& text,
                        const std::vector<std::string>& inputs);

}  // namespace gfxstat::report
