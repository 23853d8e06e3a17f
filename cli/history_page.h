// SPDX-License-Identifier: MIT
// history --html: the series of each metric with its change points, and
// history's own text report, as one self-contained page (report/html_report.h).
#pragma once

#include <string>
#include <vector>

#include "plot/plot_data.h"

namespace gfxstat::cli {

// Writes the page to `path` atomically, never through a link. `text` is
// history's text report, already escaped for a terminal. Throws InputError.
void write_history_page(const std::string& path, const std::vector<plot::HistoryPlot>& plots, const std::string& text,
                        const std::vector<std::string>& inputs);

}  // namespace gfxstat::cli
