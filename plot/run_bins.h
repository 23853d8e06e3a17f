// SPDX-License-Identifier: MIT
// Large samples drawn as bins: past kMaxRunMarks (plot/charts.h) drawable
// runs in a variant, the charts that draw one mark per run (the strip of
// distributions_svg, run_order_svg) count the variant's runs into bins and
// draw one shaded mark per bin that holds any, so that a chart, and the
// page of `gfxstat report` around it, stops growing with the runs. Counting
// runs into bins is drawing, as a histogram's is (plot/README.md): nothing
// here computes a statistic of the runs. Private to plot/.
#pragma once

#include <cstddef>
#include <string>

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
// drawn as bins, not one mark per run: " followed by the notes, or "" for none.
std::string bins_caption(const std::string& notes);

// A chart's document from its scene, with the bins' rules added to its
// style sheet when `bins`: a chart without bins keeps its bytes.
std::string finish_charted(const Scene& s, bool bins);

}  // namespace gfxstat::plot::detail
