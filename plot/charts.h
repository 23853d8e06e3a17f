// SPDX-License-Identifier: MIT
// The charts: each turns plot data into one self-contained SVG document
// (<svg xmlns=...> with its own <style>, no scripts, no external
// references), through a scene (plot/scene.h) and the SVG writer.
//
// What a reader or a test can count on in every chart:
//   - one <circle> per run drawn (class "run"; "run warmup", "run invalid",
//     "run dropped" for the marked ones), nothing else drawn as a circle,
//     up to kMaxRunMarks runs a variant (a history: a chart): past it,
//     bins (below);
//   - one interval per boot or variant as a <line class="interval">;
//   - labelled axes (<text class="axis-label">) with the metric and its
//     unit; a <title> for the chart;
//   - colours from a colour-blind-safe palette (Okabe-Ito) set in CSS
//     classes, with a prefers-color-scheme: dark variant;
//   - every text from data escaped for XML.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plot/plot_data.h"

namespace gfxstat::plot {

// Past this many drawable runs in a variant (in a history: in the chart),
// the charts that draw one mark per run (the distributions' strip, the run
// order, the history) draw the runs as bins instead: shaded <rect
// class="run-bin ..."> marks over the bins that hold runs, a <title> with
// the runs and range of each strip bin or each column of bins (run order,
// history), and the caption saying so. The warm-up, invalid and dropped
// runs stay one circle each while there are at most this many of them.
// Below it, every run is one circle as before.
inline constexpr size_t kMaxRunMarks = 2000;
// Whether the charts draw v's runs as bins: more than kMaxRunMarks of
// them can be drawn (their values are finite; see below). Sets `drawable`
// to that count when given.
bool runs_drawn_as_bins(const VariantPlot& v, size_t* drawable = nullptr);
// Whether history_svg draws h's runs as bins: more than kMaxRunMarks of
// them, over all its builds, can be drawn (a history's builds are not
// bounded as a comparison's variants are, so the limit counts the chart's
// runs). Sets `drawable` to that count when given.
bool history_drawn_as_bins(const HistoryPlot& h, size_t* drawable = nullptr);
// What a page says beneath the charts that drew bins: " Past 2000 runs PER
// the runs are drawn as bins, not one mark each: BINNED." (PER: "a
// variant", "a chart"; BINNED: what was, "a (50000 runs)"); "" when
// `binned` is empty.
std::string bins_sentence(const std::string& per, const std::string& binned);

struct ChartOptions {
    int width = 720, height = 360;  // pixels of the viewBox
};

// The variants' values as overlaid histograms, each with its median and the
// median's interval marked.
std::string distributions_svg(const MetricPlot& m, const ChartOptions& o = {});
// The values in the order they ran, one panel per variant (or one shared
// axis): coloured by boot, block boundaries for `ab`, warm-ups and invalid
// runs marked.
std::string run_order_svg(const MetricPlot& m, const ChartOptions& o = {});
// Per-boot means with their intervals, grouped by variant.
std::string boot_means_svg(const MetricPlot& m, const ChartOptions& o = {});
// A suite's changes with intervals, the threshold band and the geomean.
std::string forest_svg(const ForestPlot& f, const ChartOptions& o = {});
// A series of builds: every run as a point, segment levels as lines, change
// points marked.
std::string history_svg(const HistoryPlot& h, const ChartOptions& o = {});

// The kinds `compare --plot-kind` names, in order: "distributions",
// "run-order", "boot-means" (and "forest" for suites).
std::string metric_chart_svg(const std::string& kind, const MetricPlot& m, const ChartOptions& o = {});

// Added by the plotting layer:
//
// The kinds metric_chart_svg accepts, in that order ("distributions",
// "run-order", "boot-means"); any other kind is std::invalid_argument
// naming these.
const std::vector<std::string>& metric_chart_kinds();
//
// How the charts treat what they cannot draw:
//   - a value that is NaN, infinite, or beyond 1e300 (or, non-zero, below
//     1e-300) in magnitude is skipped, not drawn (so no circle), and the
//     chart's caption says how many were skipped; nothing throws;
//   - an Interval is drawn only when its n > 0 and its centre, low and
//     high are finite: a default-constructed Interval draws nothing;
//   - no variants, no runs, no builds or no rows: the chart is still a
//     well-formed SVG with its axes and a caption saying so.
// The chart size is bounded to 320..8000 x 200..8000; forest_svg grows
// taller than ChartOptions::height when its rows need it (20 px a row).

}  // namespace gfxstat::plot
