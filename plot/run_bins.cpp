// SPDX-License-Identifier: MIT
#include "plot/run_bins.h"

#include <algorithm>
#include <cmath>

#include "plot/axes.h"
#include "plot/chart_parts.h"
#include "plot/charts.h"
#include "plot/palette.h"
#include "plot/svg_writer.h"

namespace gfxstat::plot::detail {

bool drawn_as_bins(size_t drawable) { return drawable > kMaxRunMarks; }

size_t bin_index(double v, double lo, double hi, size_t k) {
    if (k == 0 || !(hi > lo)) return 0;
    const double at = (v - lo) / (hi - lo) * static_cast<double>(k);
    if (!(at > 0)) return 0;
    return std::min(static_cast<size_t>(at), k - 1);
}

std::string bin_class(size_t count, size_t max) {
    const double share = max > 0 ? std::sqrt(static_cast<double>(count) / static_cast<double>(max)) : 1.0;
    const auto level = std::clamp<size_t>(static_cast<size_t>(std::ceil(share * 5)), 1, 5);
    return "run-bin d" + std::to_string(level);
}

std::string bins_note(const std::string& label, size_t runs, const std::string& what) {
    return label + ": " + std::to_string(runs) + " runs in " + what;
}

std::string bins_caption(const std::string& notes) {
    if (notes.empty()) return {};
    return "more than " + std::to_string(kMaxRunMarks) + " runs a variant drawn as bins, not one mark per run: " +
           notes;
}

std::string finish_charted(const Scene& s, bool bins) {
    if (!bins) return finish(s);
    return write_svg(s, chart_css() + run_bins_css());
}

}  // namespace gfxstat::plot::detail

namespace gfxstat::plot {

bool runs_drawn_as_bins(const VariantPlot& v, size_t* drawable) {
    const auto n = static_cast<size_t>(
        std::count_if(v.runs.begin(), v.runs.end(), [](const RunPoint& r) { return plot::drawable(r.value); }));
    if (drawable) *drawable = n;
    return detail::drawn_as_bins(n);
}

}  // namespace gfxstat::plot
