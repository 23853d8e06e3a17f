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

size_t bin_columns(double width) { return std::clamp<size_t>(static_cast<size_t>(width / 4), 10, 200); }

std::string bin_class(size_t count, size_t max) {
    const double share = max > 0 ? std::sqrt(static_cast<double>(count) / static_cast<double>(max)) : 1.0;
    const auto level = std::clamp<size_t>(static_cast<size_t>(std::ceil(share * 5)), 1, 5);
    return "run-bin d" + std::to_string(level);
}

std::string bins_note(const std::string& label, size_t runs, const std::string& what) {
    return label + ": " + std::to_string(runs) + " runs in " + what;
}

std::string bins_caption(const std::string& notes, const std::string& per) {
    if (notes.empty()) return {};
    return "more than " + std::to_string(kMaxRunMarks) + " runs " + per + " drawn as bins, not one mark per run: " +
           notes;
}

void draw_bin_column(Scene& s, const std::string& colour, const std::string& what, double x0, double x1,
                     const size_t* counts, const size_t* marked, size_t most, double lo, double hi,
                     const ValueAxis& y) {
    size_t total = 0, first = kColumnBins, last = 0;
    for (size_t row = 0; row < kColumnBins; ++row)
        if (counts[row] > 0) total += counts[row], first = std::min(first, row), last = row;
    if (total == 0) return;
    const double band = (hi - lo) / static_cast<double>(kColumnBins);
    auto edge = [&](size_t row) { return lo + band * static_cast<double>(row); };
    auto shade = [&](size_t row) {
        return bin_class(counts[row], most) + (marked && marked[row] == counts[row] ? " marked" : "");
    };
    Group& g = s.group(colour);
    g.tip = what + ": " + std::to_string(total) + " runs from " + value_text(edge(first), y) + " to " +
            value_text(edge(last + 1), y);
    for (size_t row = first; row <= last;) {
        if (counts[row] == 0) {
            ++row;
            continue;
        }
        const std::string cls = shade(row);
        size_t end = row + 1;
        while (end <= last && counts[end] > 0 && shade(end) == cls) ++end;
        double top = y.at(edge(end)), bottom = y.at(edge(row));
        if (!(bottom - top >= 1)) top = y.at(edge(row)) - 2, bottom = top + 4;  // all values equal: a thin band
        g.add(Rect{x0, top, x1 - x0, bottom - top, cls, {}});
        row = end;
    }
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

bool history_drawn_as_bins(const HistoryPlot& h, size_t* drawable) {
    size_t n = 0;
    for (const HistoryBuild& b : h.builds)
        n += static_cast<size_t>(std::count_if(b.values.begin(), b.values.end(), [](double v) { return plot::drawable(v); }));
    if (drawable) *drawable = n;
    return detail::drawn_as_bins(n);
}

std::string bins_sentence(const std::string& per, const std::string& binned) {
    if (binned.empty()) return {};
    return " Past " + std::to_string(kMaxRunMarks) + " runs " + per + " the runs are drawn as bins, not one mark each: " +
           binned + ".";
}

}  // namespace gfxstat::plot
