// SPDX-License-Identifier: MIT
// forest_svg: a suite's per-benchmark changes, one row each: the point
// estimate as a diamond, its interval as a line, the ±threshold band
// shaded, a zero line, the geomean last and emphasised.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "plot/chart_parts.h"
#include "plot/charts.h"
#include "text/name_cutter.h"

namespace gfxstat::plot {

using namespace detail;

namespace {

std::string verdict_class(const std::string& verdict) {
    for (const char* known : {"regression", "improvement", "equivalent", "inconclusive"})
        if (verdict == known) return known;
    if (verdict == "no change") return "no-change";
    return "other";
}

// A relative change as a percentage for people: "+3.2%", "-0.04%".
std::string percent(double rel) {
    double pc = rel * 100;
    char buf[48];
    std::snprintf(buf, sizeof buf, std::fabs(pc) < 1 ? "%+.2f%%" : "%+.1f%%", pc);
    return std::string(buf) == "-0.00%" ? "+0.00%" : buf;
}

Path diamond(double x, double y, double r, const std::string& tip) {
    Path d;
    d.points = {{x, y - r}, {x + r, y}, {x, y + r}, {x - r, y}};
    d.closed = true;
    d.cls = "estimate";
    d.tip = tip;
    return d;
}

}  // namespace

std::string forest_svg(const ForestPlot& fp, const ChartOptions& o) {
    std::vector<const ForestRow*> rows;
    for (const auto& r : fp.rows) rows.push_back(&r);
    if (fp.geomean) rows.push_back(&*fp.geomean);

    double threshold = drawable(fp.threshold) ? std::fabs(fp.threshold) : 0;
    auto finite_change = [](double v) { return drawable(v) && std::fabs(v) < 1e12; };
    double lo = std::min(0.0, -threshold), hi = std::max(0.0, threshold);
    size_t skipped = 0;
    for (const auto* r : rows) {
        skipped += !finite_change(r->change);
        for (double v : {r->change, r->low, r->high})
            if (finite_change(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    }
    std::vector<std::string> caption;
    if (rows.empty()) caption.push_back("no benchmarks to draw");
    caption.push_back("shaded: the ±" + percent(threshold).substr(1) +
                      " threshold; diamonds: changes; lines: their intervals");
    caption.push_back(skipped_note(skipped));

    // The chart grows with its rows: 20 px a row at least, 34 at most.
    Page p = page_of(o);
    auto lines = wrap_caption(caption, p.width);
    double top = 44, bottom_margin = 46 + caption_height(lines);
    double nrows = static_cast<double>(std::max<size_t>(rows.size(), 1));
    p.height = std::max(p.height, top + 20 * nrows + 6 + bottom_margin);
    double row_h = std::clamp((p.height - top - bottom_margin - 6) / nrows, 20.0, 34.0);
    Scene s = start_scene(p, fp.title.empty() ? std::string("changes") : fp.title);
    s.description = "Each benchmark's relative change with its interval; the shaded band is the threshold.";

    // Labels on the left, the change in words on the right.
    Frame f{std::min(190.0, p.width * 0.26), top, p.width - std::min(196.0, p.width * 0.27), top + row_h * nrows + 6};
    ValueAxis x = plain_axis("change (%)", lo * 100, hi * 100, f.left, f.right, 6);
    auto at = [&x](double rel) { return x.scale(rel * 100); };

    auto& axes = s.group("axes");
    if (threshold > 0) axes.add(Rect{at(-threshold), f.top, at(threshold) - at(-threshold), f.height(), "band",
                                      "threshold ±" + percent(threshold).substr(1)});
    draw_x_axis(axes, x, f);
    axes.add(Line{at(0), f.top, at(0), f.bottom, "zero", {}});

    // Labels end 8 px left of the frame and must not pass the page's left
    // edge: at 12 px sans-serif a character is about 7 px wide. Cut, a
    // label keeps its start and its end (a benchmark's metrics differ at
    // their ends: "fps", "frame_time"), and two labels cut alike are told
    // apart by a number after the mark; the whole label is in the tooltip.
    const size_t label_columns = static_cast<size_t>(std::max(5.0, (f.left - 8 - 4) / 7.0));
    text::NameCutter labels(text::NameCutter::Keep::both_ends);
    for (size_t i = 0; i < rows.size(); ++i) {
        const ForestRow& r = *rows[i];
        bool geo = fp.geomean && i + 1 == rows.size();
        double cy = f.top + 3 + row_h * (static_cast<double>(i) + 0.5);
        if (geo) s.group().add(Line{8, cy - row_h / 2, p.width - 8, cy - row_h / 2, "axis", {}});
        auto& g = s.group(geo ? "geomean " + verdict_class(r.verdict) : verdict_class(r.verdict));
        const std::string label = geo && r.label.empty() ? std::string("geomean") : r.label;
        g.add(Text{f.left - 8, cy + 4, labels.cut(label, label_columns), "row-label", Anchor::end, 0, 0});
        bool iv = finite_change(r.low) && finite_change(r.high);
        if (!finite_change(r.change)) {
            g.add(Text{f.right + 8, cy + 4, "not drawn", "note", Anchor::start, 0, 0});
            continue;
        }
        std::string words = percent(r.change);
        if (iv) words += " [" + percent(r.low) + ", " + percent(r.high) + "]";
        std::string tip = r.label + ": " + words + (r.verdict.empty() ? "" : ", " + r.verdict);
        if (iv) g.add(Line{at(r.low), cy, at(r.high), cy, "interval", tip});
        g.add(diamond(at(r.change), cy, geo ? 7 : 5, tip));
        g.add(Text{f.right + 8, cy + 4, words, "row-value", Anchor::start, 0, 0});
    }

    draw_caption(s, lines);
    return finish(s);
}

}  // namespace gfxstat::plot
