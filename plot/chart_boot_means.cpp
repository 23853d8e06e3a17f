// SPDX-License-Identifier: MIT
// boot_means_svg: per variant, each boot's mean as a short bar with its
// interval, labelled with its n; the variant's median as a dashed line
// across its group. No circles: circles are runs, and runs are not drawn
// here.
#include <algorithm>
#include <cmath>

#include "plot/chart_parts.h"
#include "plot/charts.h"
#include "plot/palette.h"

namespace gfxstat::plot {

using namespace detail;

namespace {

bool interval_drawable(const Interval& i) {
    return i.n > 0 && drawable(i.center) && drawable(i.low) && drawable(i.high);
}

}  // namespace

std::string boot_means_svg(const MetricPlot& m, const ChartOptions& o) {
    Page p = page_of(o);
    Scene s = start_scene(p, m.metric + ": boot means");
    s.description = "The mean of " + m.metric + " in each boot with its interval, grouped by variant.";

    size_t skipped = 0, slots = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& v : m.variants) {
        slots += std::max<size_t>(v.boots.size(), 1);
        for (const auto& b : v.boots) {
            if (!interval_drawable(b)) {
                skipped += b.n > 0;
                continue;
            }
            lo = std::min({lo, b.low, b.center}), hi = std::max({hi, b.high, b.center});
        }
        if (interval_drawable(v.median)) lo = std::min(lo, v.median.center), hi = std::max(hi, v.median.center);
    }
    if (lo > hi) lo = 0, hi = 1;

    std::vector<std::string> caption;
    if (m.variants.empty()) caption.push_back("no variants to draw");
    caption.push_back("bars: each boot's mean; lines: its interval; dashed: the variant's median");
    caption.push_back(m.verdict);
    if (skipped) caption.push_back(std::to_string(skipped) + " boot intervals not drawn (not finite)");
    auto lines = wrap_caption(caption, p.width);
    Frame f{76, 44, p.width - 20, p.height - 60 - caption_height(lines)};
    ValueAxis y = value_axis(m.metric, m.unit, lo, hi, f.bottom, f.top, 5, m.unit_reference);
    auto& axes = s.group("axes");
    draw_y_axis(axes, y, f);
    axes.add(Line{f.left, f.bottom, f.right, f.bottom, "axis", {}});

    // Slots of equal width, a half-slot gap between variants.
    double gaps = m.variants.empty() ? 0 : 0.5 * static_cast<double>(m.variants.size() - 1);
    double slot = f.width() / std::max(1.0, static_cast<double>(slots) + gaps);
    double label_every = std::ceil(46 / slot);  // boot labels about 46 px apart at least
    double x = f.left;
    for (size_t i = 0; i < m.variants.size(); ++i) {
        const auto& v = m.variants[i];
        auto& g = s.group(variant_class(i));
        size_t n = std::max<size_t>(v.boots.size(), 1);
        double x0 = x, x1 = x + slot * static_cast<double>(n);
        if (interval_drawable(v.median)) {
            double my = y.at(v.median.center);
            g.add(Line{x0 + 2, my, x1 - 2, my, "variant-median",
                       v.label + " median: " + value_text(v.median.center, y)});
        }
        if (v.boots.empty())
            g.add(Text{(x0 + x1) / 2, (f.top + f.bottom) / 2, "boots unknown", "note", Anchor::middle, 0, 0});
        for (size_t b = 0; b < v.boots.size(); ++b) {
            const auto& boot = v.boots[b];
            double cx = x0 + slot * (static_cast<double>(b) + 0.5);
            if (b % static_cast<size_t>(label_every) == 0)
                g.add(Text{cx, f.bottom + 14, short_boot(boot.label), "tick-label", Anchor::middle, 0,
                           static_cast<size_t>(std::max(4.0, slot * label_every / 7))});
            if (!interval_drawable(boot)) continue;
            double w = std::clamp(slot * 0.5, 4.0, 18.0);
            std::string what = v.label + ", boot " + short_boot(boot.label) + ": mean " + value_text(boot.center, y) +
                               ", interval " + value_text(boot.low, y) + " to " + value_text(boot.high, y) +
                               ", n=" + std::to_string(boot.n);
            g.add(Line{cx, y.at(boot.high), cx, y.at(boot.low), "interval", what});
            g.add(Rect{cx - w / 2, y.at(boot.center) - 1.5, w, 3, "mean-bar", what});
            if (slot >= 22)
                g.add(Text{cx, y.at(boot.high) - 4, "n=" + std::to_string(boot.n), "note", Anchor::middle, 0, 0});
        }
        // The variant's name under its boots, with a swatch.
        size_t room = static_cast<size_t>(std::max(6.0, (x1 - x0 - 14) / 7));
        double half = 3.4 * static_cast<double>(std::min(v.label.size(), room));
        g.add(Rect{(x0 + x1) / 2 - half - 7, f.bottom + 24, 8, 8, "swatch", {}});
        g.add(Text{(x0 + x1) / 2 + 7, f.bottom + 32, v.label, "variant-label", Anchor::middle, 0, room});
        x = x1 + slot * 0.5;
    }
    axes.add(Text{(f.left + f.right) / 2, f.bottom + 48, "boot, grouped by variant", "axis-label", Anchor::middle, 0, 0});

    draw_caption(s, lines);
    return finish(s);
}

}  // namespace gfxstat::plot
