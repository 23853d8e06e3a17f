// SPDX-License-Identifier: MIT
// ministat's ASCII histogram: one column per bin across the common range of
// all data sets, stacked symbols per value, and a bar per set marking
// mean +/- one standard deviation (|___|), the median (M) and the mean (A).
//
// Drawn as ministat draws it, byte for byte, with three corrections:
// every set's stacks are drawn to their full height (ministat keeps only as
// many rows as the last set's tallest stack); stacks taller than
// `max_rows` are scaled, with a note saying how; and values near the double
// range are placed with long-double arithmetic instead of overflowing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/scaled_values.h"

namespace gfxstat::analysis {

struct PlotSet {
    ScaledValues values;
    double mean = 0, median = 0, stddev = 0;
    double min = 0, max = 0;  // of values (analysis::range), not recomputed here
};

struct PlotOptions {
    int width = 74;              // columns between the frame's corners
    bool separate_bars = false;  // ministat -s
    size_t max_rows = 100;       // taller stacks are scaled down to fit
};

// How many data sets one plot draws: one of ministat's symbols each.
// Reports with more say so (instead of drawing nothing, or '?').
constexpr size_t kPlotMaxSets = 7;
constexpr bool plot_can_draw(size_t sets) { return sets >= 1 && sets <= kPlotMaxSets; }

// The lines of the plot, without newlines. Set i (0-based) is drawn with
// ministat's symbol for i + 1 ('x', '+', '*', '%', '#', '@', 'O'); values of
// several sets in one cell show the symbol of the bitwise OR of their
// numbers, as in ministat. At most 7 sets.
std::vector<std::string> ministat_plot(const std::vector<PlotSet>& sets,
                                       const PlotOptions& options);

// ministat's symbol for set number k (1-based), ' ' for 0.
char ministat_symbol(int k);

}  // namespace gfxstat::analysis
