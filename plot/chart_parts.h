// SPDX-License-Identifier: MIT
// What every chart shares: the page (background, title, legend, caption),
// the count of values that could not be placed, short boot names. Private
// to plot/: the charts' public face is plot/charts.h.
#pragma once

#include <string>
#include <vector>

#include "plot/axes.h"
#include "plot/charts.h"
#include "plot/scene.h"

namespace gfxstat::plot::detail {

// A chart's size, bounded so that a zero or absurd size still lays out.
struct Page {
    double width, height;
};
Page page_of(const ChartOptions& o);

// A scene with its background and visible title (the <title> too).
Scene start_scene(const Page& p, const std::string& title);

// One legend entry: a swatch in the colour class `cls` and its label.
struct LegendEntry {
    std::string cls, label;
};
// The entries in a row from (x, y), as long as they fit before `right`;
// the rest are summarised as "+N more".
void draw_legend(Scene& s, const std::vector<LegendEntry>& entries, double x, double y, double right);

// The caption's parts (empty ones dropped) wrapped at spaces to the
// page's width, at most 4 lines; a chart leaves caption_height(lines)
// free at the bottom of the page.
std::vector<std::string> wrap_caption(const std::vector<std::string>& parts, double width);
inline double caption_height(const std::vector<std::string>& lines) { return 14.0 * static_cast<double>(lines.size()); }
// The wrapped lines at the bottom of the page.
void draw_caption(Scene& s, const std::vector<std::string>& lines);

// "2 values not drawn (not finite, or beyond 1e300 in magnitude)"; "" for 0.
std::string skipped_note(size_t skipped);

// The short form of a boot id for labels: its first 8 characters.
std::string short_boot(const std::string& boot);

// The number of shared histogram bins for n values (Rice: 2 n^(1/3), in [5, 50]; 1 for none).
size_t histogram_bins(size_t n);

// A chart's document from its scene.
std::string finish(const Scene& s);

// A run's class: "run", or one of "run invalid", "run warmup", "run
// dropped" (in that order of precedence: the first is the mark a reader
// most needs to see).
std::string run_class(bool warmup, bool invalid, bool dropped);

// A red cross over a run drawn at (x, y) with radius r.
Path invalid_cross(double x, double y, double r);

// A value for people in the axis's unit ("12.3 ms").
std::string value_text(double recorded, const ValueAxis& a);

}  // namespace gfxstat::plot::detail
