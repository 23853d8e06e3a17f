// SPDX-License-Identifier: MIT
// distributions_svg: the variants' values as overlaid histograms on shared
// bins, each variant's runs as a strip of dots under them, its median as
// a vertical line and the median's interval as a bar in its strip.
#include <algorithm>
#include <cmath>

#include "plot/chart_parts.h"
#include "plot/charts.h"
#include "plot/palette.h"
#include "plot/run_bins.h"

namespace gfxstat::plot {

using namespace detail;

namespace {

bool analysed(const RunPoint& r) { return !r.warmup && !r.invalid && !r.dropped; }

bool interval_drawable(const Interval& i) {
    return i.n > 0 && drawable(i.center) && drawable(i.low) && drawable(i.high);
}

// A variant's strip past kMaxRunMarks runs: its runs counted into
// kStripBins equal bins over the chart's range (the marked ones too when
// there are too many of them to draw one by one).
constexpr size_t kStripBins = 120;

struct Strip {
    bool binned = false, marked_binned = false;
    size_t runs = 0;             // drawable runs
    std::vector<size_t> counts;  // per bin, when binned
    std::vector<size_t> marked;  // per bin: its warm-up, invalid or dropped runs
};

Strip strip_of(const VariantPlot& v, double lo, double hi) {
    Strip st;
    size_t marked = 0;
    for (const auto& r : v.runs)
        if (drawable(r.value)) ++st.runs, marked += !analysed(r);
    st.binned = drawn_as_bins(st.runs);
    if (!st.binned) return st;
    st.marked_binned = drawn_as_bins(marked);
    st.counts.assign(kStripBins, 0);
    st.marked.assign(kStripBins, 0);
    for (const auto& r : v.runs) {
        if (!drawable(r.value) || (!analysed(r) && !st.marked_binned)) continue;
        const size_t b = bin_index(r.value, lo, hi, kStripBins);
        ++st.counts[b];
        st.marked[b] += !analysed(r);
    }
    return st;
}

// The strip's bins as bars standing on the strip's row, as tall as their
// share of the fullest bin; grey ("marked") when every run in it is a
// warm-up, an invalid run or a dropped one.
void draw_strip_bins(Group& g, const Strip& st, const std::string& label, const ValueAxis& x, double lo, double hi,
                     double row, double strip_row) {
    const size_t most = *std::max_element(st.counts.begin(), st.counts.end());
    const double bottom = row + strip_row / 2 - 5, tallest = std::max(1.0, strip_row - 7);
    const double step = (hi - lo) / static_cast<double>(kStripBins);
    for (size_t b = 0; b < kStripBins; ++b) {
        if (st.counts[b] == 0) continue;
        double x0 = x.at(lo + step * static_cast<double>(b)), x1 = x.at(lo + step * static_cast<double>(b + 1));
        if (!(x1 - x0 >= 1)) x0 -= 1, x1 = x0 + 2;  // all values equal: a thin bar, still seen
        const double h = std::max(1.0, tallest * static_cast<double>(st.counts[b]) / static_cast<double>(most));
        g.add(Rect{x0, bottom - h, x1 - x0, h, bin_class(st.counts[b], most) + (st.marked[b] == st.counts[b] ? " marked" : ""),
                   label + ": " + std::to_string(st.counts[b]) + " runs from " +
                       value_text(lo + step * static_cast<double>(b), x) + " to " +
                       value_text(lo + step * static_cast<double>(b + 1), x)});
    }
}

}  // namespace

size_t detail::histogram_bins(size_t n) {
    // Rice's rule, 2 n^(1/3): enough bins to show two modes in 30 runs (7
    // bins), few enough that 1000 runs (20 bins) still read as a shape.
    if (n == 0) return 1;
    auto k = static_cast<size_t>(std::ceil(2 * std::cbrt(static_cast<double>(n))));
    return std::clamp<size_t>(k, 5, 50);
}

std::string distributions_svg(const MetricPlot& m, const ChartOptions& o) {
    Page p = page_of(o);
    Scene s = start_scene(p, m.metric + ": distributions");
    s.description = "Histograms of " + m.metric + " per variant on shared bins, each run as a dot under them, "
                    "medians as vertical lines with their intervals.";

    // What is drawable, and the ranges: the x axis holds every run drawn
    // and every interval; the histogram holds only the analysed runs.
    size_t skipped = 0;
    double lo = INFINITY, hi = -INFINITY, hlo = INFINITY, hhi = -INFINITY;
    size_t nhist = 0;
    for (const auto& v : m.variants) {
        for (const auto& r : v.runs) {
            if (!drawable(r.value)) {
                ++skipped;
                continue;
            }
            lo = std::min(lo, r.value), hi = std::max(hi, r.value);
            if (analysed(r)) hlo = std::min(hlo, r.value), hhi = std::max(hhi, r.value), ++nhist;
        }
        if (interval_drawable(v.median)) lo = std::min(lo, v.median.low), hi = std::max(hi, v.median.high);
    }
    if (lo > hi) lo = 0, hi = 1;

    size_t nv = m.variants.size();
    std::vector<Strip> strips;
    std::string notes;
    for (const auto& v : m.variants) {
        strips.push_back(strip_of(v, lo, hi));
        if (strips.back().binned)
            notes += (notes.empty() ? "" : "; ") + bins_note(v.label, strips.back().runs,
                                                             std::to_string(kStripBins) + " bins");
    }
    double strip_row = nv > 0 ? std::clamp((p.height - 150) * 0.4 / static_cast<double>(nv), 8.0, 22.0) : 0;
    std::vector<std::string> caption;
    caption.push_back(bins_caption(notes));
    if (nhist == 0) caption.push_back("no analysed values to draw");
    caption.push_back(m.verdict);
    caption.push_back(skipped_note(skipped));
    auto lines = wrap_caption(caption, p.width);
    Frame full{76, 50, p.width - 20, p.height - 46 - caption_height(lines)};
    Frame hist = full;
    hist.bottom = full.bottom - strip_row * static_cast<double>(nv) - 6;

    ValueAxis x = value_axis(m.metric, m.unit, lo, hi, full.left, full.right, 6, m.unit_reference);

    // Shared bins over the analysed runs' range.
    size_t k = histogram_bins(nhist);
    double width = 0;
    if (nhist > 0) {
        width = (hhi - hlo) / static_cast<double>(k);
        if (!(width > 0) || !std::isfinite(width)) {
            k = 1;
            width = 0;  // all equal: one bar, drawn a tick step wide
        }
    }
    std::vector<std::vector<size_t>> counts(nv, std::vector<size_t>(k, 0));
    size_t max_count = 0;
    for (size_t i = 0; i < nv; ++i) {
        for (const auto& r : m.variants[i].runs) {
            if (!drawable(r.value) || !analysed(r)) continue;
            size_t b = width > 0 ? static_cast<size_t>((r.value - hlo) / width) : 0;
            b = std::min(b, k - 1);
            max_count = std::max(max_count, ++counts[i][b]);
        }
    }
    double ymax = static_cast<double>(std::max<size_t>(max_count, 2));
    ValueAxis y = plain_axis("runs", 0, ymax, hist.bottom, hist.top, static_cast<int>(std::min(5.0, ymax)));

    auto& axes = s.group("axes");
    draw_x_axis(axes, x, full);
    draw_y_axis(axes, y, hist);

    for (size_t i = 0; i < nv; ++i) {
        const auto& v = m.variants[i];
        auto& g = s.group(variant_class(i));
        for (size_t b = 0; b < k; ++b) {
            if (counts[i][b] == 0) continue;
            double x0, x1;
            if (width > 0) {
                x0 = x.at(hlo + width * static_cast<double>(b));
                x1 = x.at(b + 1 == k ? hhi : hlo + width * static_cast<double>(b + 1));
            } else {
                double c = x.at(hlo), half = std::max(3.0, (x.scale(x.ticks.lo + x.ticks.step) - x.scale(x.ticks.lo)) / 4);
                x0 = c - half, x1 = c + half;
            }
            double top = y.scale(static_cast<double>(counts[i][b]));
            g.add(Rect{x0, top, x1 - x0, hist.bottom - top, "bar",
                       v.label + ": " + std::to_string(counts[i][b]) + " runs"});
        }
        if (interval_drawable(v.median)) {
            double mx = x.at(v.median.center);
            g.add(Line{mx, hist.top, mx, hist.bottom, "median", v.label + " median: " + value_text(v.median.center, x)});
        }
        // The strip: one dot per run, a small fixed vertical spread by run
        // order so that equal values do not hide each other; past
        // kMaxRunMarks runs, the analysed runs as bins (run_bins.h).
        double row = hist.bottom + 6 + strip_row * (static_cast<double>(i) + 0.5);
        double spread = std::max(0.0, strip_row / 2 - 4);
        const Strip& st = strips[i];
        for (const auto& r : v.runs) {
            if (!drawable(r.value)) continue;
            if (st.binned && (analysed(r) || st.marked_binned)) continue;
            double jitter = spread * (static_cast<double>(r.order % 5) - 2) / 2;
            double cx = x.at(r.value), cy = row - 2 + jitter;
            g.add(Circle{cx, cy, 2.6, run_class(r.warmup, r.invalid, r.dropped),
                         v.label + " run " + std::to_string(r.order + 1) + ": " + value_text(r.value, x)});
            if (r.invalid) g.add(invalid_cross(cx, cy, 2.6));
        }
        if (st.binned) draw_strip_bins(g, st, v.label, x, lo, hi, row, strip_row);
        if (interval_drawable(v.median))
            g.add(Line{x.at(v.median.low), row + strip_row / 2 - 2, x.at(v.median.high), row + strip_row / 2 - 2,
                       "interval",
                       v.label + " median " + value_text(v.median.center, x) + ", interval " +
                           value_text(v.median.low, x) + " to " + value_text(v.median.high, x)});
        if (strip_row >= 10) {
            auto& lg = s.group(variant_class(i));
            lg.add(Rect{full.left - 16, row - 6, 8, 8, "swatch", v.label});
        }
    }

    std::vector<LegendEntry> legend;
    for (size_t i = 0; i < nv; ++i) legend.push_back({variant_class(i), m.variants[i].label});
    draw_legend(s, legend, full.left, 38, p.width - 12);

    draw_caption(s, lines);
    return finish_charted(s, !notes.empty());
}

}  // namespace gfxstat::plot
