// SPDX-License-Identifier: MIT
// history_svg: a metric along a series of builds: every run as a dot over
// its build (past kMaxRunMarks runs in the chart, each build's runs as a
// column of bins: run_bins.h), each segment's level as a horizontal line,
// each change point as a dashed vertical line labelled with the size of
// the step.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "plot/chart_parts.h"
#include "plot/charts.h"
#include "plot/palette.h"
#include "plot/run_bins.h"

namespace gfxstat::plot {

using namespace detail;

namespace {

// Every run as a dot over its build.
template <typename Centre>
void draw_build_runs(Scene& s, const HistoryPlot& h, const ValueAxis& y, double slot, Centre centre) {
    auto& runs = s.group(variant_class(0));
    double spread = std::min(slot * 0.3, 6.0);
    double r = std::clamp(slot / 5, 1.4, 3.0);
    for (size_t i = 0; i < h.builds.size(); ++i) {
        const auto& b = h.builds[i];
        size_t k = 0;
        for (size_t j = 0; j < b.values.size(); ++j) {
            if (!drawable(b.values[j])) continue;
            // A fixed small sideways spread, so that equal values do not hide each other.
            double dx = b.values.size() > 1 ? spread * (static_cast<double>(k % 5) - 2) / 2 : 0;
            ++k;
            runs.add(Circle{centre(i) + dx, y.at(b.values[j]), r, "run",
                            b.label + " run " + std::to_string(j + 1) + ": " + value_text(b.values[j], y)});
        }
    }
}

// The columns of bins: one a build while there are at most bin_columns of
// the plot's width, else consecutive builds share a column (as run order's
// consecutive runs do), so that the chart stops growing with the builds.
size_t build_columns(size_t builds, double width) { return std::min(builds, bin_columns(width)); }

// Each build's runs as a column of bins as wide as its dots would spread
// (past build_columns, each column over its builds' slots), shaded against
// the chart's fullest bin so that builds compare.
template <typename Centre>
void draw_build_bins(Scene& s, const HistoryPlot& h, size_t columns, double lo, double hi, const ValueAxis& y,
                     double slot, Centre centre) {
    const size_t nb = h.builds.size();
    std::vector<size_t> counts(columns * kColumnBins, 0), first(columns, SIZE_MAX), last(columns, 0);
    for (size_t i = 0; i < nb; ++i) {
        const size_t c = i * columns / nb;
        first[c] = std::min(first[c], i), last[c] = i;
        for (double v : h.builds[i].values)
            if (drawable(v)) ++counts[c * kColumnBins + bin_index(v, lo, hi, kColumnBins)];
    }
    const size_t most = *std::max_element(counts.begin(), counts.end());
    const double half = std::clamp(slot * 0.3, 0.5, 6.0);
    for (size_t c = 0; c < columns; ++c) {
        if (first[c] == SIZE_MAX) continue;
        if (columns == nb)
            draw_bin_column(s, variant_class(0), h.builds[c].label, centre(c) - half, centre(c) + half,
                            &counts[c * kColumnBins], nullptr, most, lo, hi, y);
        else
            draw_bin_column(s, variant_class(0), h.builds[first[c]].label + " to " + h.builds[last[c]].label,
                            centre(first[c]) - slot / 2, centre(last[c]) + slot / 2, &counts[c * kColumnBins], nullptr,
                            most, lo, hi, y);
    }
}

}  // namespace

std::string history_svg(const HistoryPlot& h, const ChartOptions& o) {
    Page p = page_of(o);
    Scene s = start_scene(p, h.metric + ": history");
    s.description = "Each run of " + h.metric + " over the builds, segment levels and change points.";

    size_t skipped = 0, runs_drawn = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& b : h.builds)
        for (double v : b.values) {
            if (!drawable(v)) {
                ++skipped;
                continue;
            }
            ++runs_drawn;
            lo = std::min(lo, v), hi = std::max(hi, v);
        }
    size_t nb = h.builds.size();
    // Past kMaxRunMarks runs in the chart, whatever the builds, each build's
    // runs as one column of bins: the chart grows with the builds, not with
    // their runs.
    const bool binned = drawn_as_bins(runs_drawn);
    const size_t columns = binned ? build_columns(nb, p.width - 96) : 0;  // the frame's width, below
    for (const auto& seg : h.segments)
        if (drawable(seg.level) && seg.first <= seg.last && seg.last < nb)
            lo = std::min(lo, seg.level), hi = std::max(hi, seg.level);
    if (lo > hi) lo = 0, hi = 1;

    std::vector<std::string> caption;
    if (binned)
        caption.push_back(bins_caption(bins_note(std::to_string(nb) + (nb == 1 ? " build" : " builds"), runs_drawn,
                                                 std::to_string(columns) + " x " + std::to_string(kColumnBins) + " bins"),
                                       "in the chart"));
    if (nb == 0) caption.push_back("no builds to draw");
    if (!h.changes.empty()) caption.push_back("dashed: change points, with the step between the segment levels");
    caption.push_back(skipped_note(skipped));
    auto lines = wrap_caption(caption, p.width);
    Frame f{76, 44, p.width - 20, p.height - 46 - caption_height(lines)};
    ValueAxis y = value_axis(h.metric, h.unit, lo, hi, f.bottom, f.top, 5);
    auto& axes = s.group("axes");
    draw_y_axis(axes, y, f);
    axes.add(Line{f.left, f.bottom, f.right, f.bottom, "axis", {}});
    axes.add(Text{(f.left + f.right) / 2, f.bottom + 34, "build", "axis-label", Anchor::middle, 0, 0});

    double slot = f.width() / static_cast<double>(std::max<size_t>(nb, 1));
    auto centre = [&](size_t i) { return f.left + slot * (static_cast<double>(i) + 0.5); };
    // Build labels: as many as fit about 64 px apart, the rest thinned.
    size_t every = static_cast<size_t>(std::max(1.0, std::ceil(64 / slot)));
    for (size_t i = 0; i < nb; i += every) {
        axes.add(Line{centre(i), f.bottom, centre(i), f.bottom + 4, "axis", {}});
        axes.add(Text{centre(i), f.bottom + 16, h.builds[i].label, "tick-label", Anchor::middle, 0,
                      static_cast<size_t>(std::max(4.0, slot * static_cast<double>(every) / 6.5))});
    }

    auto& seg_group = s.group();
    for (const auto& seg : h.segments) {
        if (!drawable(seg.level) || seg.first > seg.last || seg.last >= nb) continue;
        double ly = y.at(seg.level);
        seg_group.add(Line{f.left + slot * static_cast<double>(seg.first) + 1, ly,
                           f.left + slot * static_cast<double>(seg.last + 1) - 1, ly, "segment",
                           "builds " + h.builds[seg.first].label + " to " + h.builds[seg.last].label + ": level " +
                               value_text(seg.level, y)});
    }

    if (binned) draw_build_bins(s, h, columns, lo, hi, y, slot, centre);
    else draw_build_runs(s, h, y, slot, centre);

    auto& changes = s.group();
    for (size_t c : h.changes) {
        if (c == 0 || c >= nb) continue;
        double cx = f.left + slot * static_cast<double>(c);
        // The step's size from the levels on either side, when they are known.
        const HistorySegment *before = nullptr, *after = nullptr;
        for (const auto& seg : h.segments) {
            if (seg.last + 1 == c && drawable(seg.level)) before = &seg;
            if (seg.first == c && drawable(seg.level)) after = &seg;
        }
        std::string size;
        if (before && after) {
            if (before->level != 0) {
                char buf[48];
                std::snprintf(buf, sizeof buf, "%+.1f%%", (after->level / before->level - 1) * 100);
                size = buf;
            } else {
                size = text::scaled_value(after->level - before->level, y.unit, 3, true);
            }
        }
        std::string tip = "change at " + h.builds[c].label + (size.empty() ? "" : ": " + size);
        changes.add(Line{cx, f.top, cx, f.bottom, "change", tip});
        changes.add(Text{cx + 3, f.top + 10, size.empty() ? std::string("change") : size, "change-label",
                         Anchor::start, 0, 0});
    }

    draw_caption(s, lines);
    return finish_charted(s, binned);
}

}  // namespace gfxstat::plot
