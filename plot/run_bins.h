// SPDX-License-Identifier: MIT
// Large samples drawn as bins: past kMaxRunMarks (plot/charts.h) drawable
// runs in a variant (in history_svg: in the chart), the charts that draw
// one mark per run (the strip of distributions_svg, run_order_svg,
// history_svg) count the runs into bins and draw one shaded mark per bin
// that holds any, so that a chart, and the page of `gfxstat report` or
// `gfxstat history --html` around it, stops growing with the runs. Counting
// runs into bins is drawing, as a histogram's is (plot/README.md): nothing
// here computes a statistic of the runs. Private to plot/.
#pragma once

#include <cstddef>
#include <string>

#include "plot/axes.h"
#include "plot/scene.h"

namespace gfxstat::plot::detail {

// Whether a variant of `drawable` runs is drawn as bins.
bool drawn_as_bins(size_t drawable);

// Which of `k` equal bins over [lo, hi] holds v: clamped into 0..k-1, bin
// 0 when the range is empty.
size_t bin_index(double v, double lo, double hi, size_t k);

// A bin's class: "run-bin d1" (fewest runs) to "run-bin d5" (most), on the
// square root of count / max so that a sparse tail stays visible beside a
// dense mode.
std::string bin_class(size_t count, size_t max);

// What a caption says of a variant drawn as bins: "LABEL: N runs in WHAT"
// ("mesa: 50000 runs in 120 bins").
std::string bins_note(const std::string& label, size_t runs, const std::string& what);
// The caption part that leads those notes: "more than 2000 runs a variant
// drawn as bins, not one mark per run: " followed by the notes, or "" for
// none; `per` says what the limit counts in ("a variant", "in the chart").
std::string bins_caption(const std::string& notes, const std::string& per = "a variant");

// The value bands of a column of bins (run_order_svg's grid, a build of
// history_svg): about 10 px each on a chart of the default size.
inline constexpr size_t kColumnBins = 24;

// How many columns of bins a chart `width` pixels wide has room for:
// one per 4 pixels, 10 to 200 (run order's grid; history's builds past
// that many share columns).
size_t bin_columns(double width);

// Draws one column of bins from x0 to x1: counts[row] runs (marked[row] of
// them warm-ups, invalid or dropped; nullptr: none) in the row-th of
// kColumnBins equal bands of [lo, hi] on `y`, shaded against `most` (the
// fullest bin the reader compares with), bands of one shade next to each
// other drawn as one mark. The column is a group of class `colour` with
// one tooltip, "WHAT: N runs from A to B" over the bands that hold runs,
// not one per mark: a chart of two variants' grids stays about 100 KB.
void draw_bin_column(Scene& s, const std::string& colour, const std::string& what, double x0, double x1,
                     const size_t* counts, const size_t* marked, size_t most, double lo, double hi,
                     const ValueAxis& y);

// A chart's document from its scene, with the bins' rules added to its
// style sheet when `bins`: a chart without bins keeps its bytes.
std::string finish_charted(const Scene& s, bool bins);

}  // namespace gfxstat::plot::detail
