// SPDX-License-Identifier: MIT
// compare --plot: the comparison's pictures written to files, SVG as plot/
// draws it, or PNG through Debian's rsvg-convert (librsvg2-bin) when it is
// installed: gfxstat draws no pixels itself. Files are written atomically
// and never through a symbolic link (data/safe_files.h).
#pragma once

#include <string>
#include <vector>

#include "findings/compare_findings.h"
#include "data/results_model.h"
#include "plot/plot_data.h"

namespace gfxstat::cli {

// Refuses (InputError) what cannot be written, before anything is compared:
// a name not ending in .svg or .png, a .png without rsvg-convert in PATH.
void check_plot_request(const std::string& path, const std::string& kind);

// Draws `kind` ("distributions", "run-order", "boot-means" or "forest") of
// the analysed report into `path`: one file for one metric (and for a
// forest, which is the whole suite), else one per metric, named
// STEM-METRIC.EXT (the metric's name with characters other than letters,
// digits, '.', '_' and '-' as '_'; a name longer than 96 bytes, or than
// what keeps the file's name within NAME_MAX, cut and ended with "-" and
// 12 hex digits of its SHA-256; the picture's <desc> holds it whole).
// Returns the paths written. Throws
// InputError (a file that cannot be written, rsvg-convert failing).
std::vector<std::string> write_plots(const std::string& path, const std::string& kind, const CompareReport& report,
                                     const std::vector<data::ResultsFile>& files);

// history --plot: one series per metric (the metric names the file when
// there are several, as above). Returns the paths written.
std::vector<std::string> write_history_plots(const std::string& path, const std::vector<plot::HistoryPlot>& plots);

// The PNG rsvg-convert makes of `svg` (run by argv, no shell: the SVG on
// its standard input, the PNG read from its standard output). Throws
// InputError when it is missing or fails (drivers/program_filter.h runs it).
std::string svg_to_png(const std::string& svg);

}  // namespace gfxstat::cli
