// SPDX-License-Identifier: MIT
// run_order_svg: each variant's values in the order they ran, one panel
// per variant on a shared value axis. Runs are coloured by boot (by the
// variant when boots are unknown); boot changes are dashed vertical lines,
// `ab` block boundaries light ones; warm-ups hollow grey, invalid runs
// crossed red, dropped outliers dashed.
#include <algorithm>
#include <cmath>
#include <map>

#include "plot/chart_parts.h"
#include "plot/charts.h"
#include "plot/palette.h"

namespace gfxstat::plot {

using namespace detail;

std::string run_order_svg(const MetricPlot& m, const ChartOptions& o) {
    Page p = page_of(o);
    Scene s = start_scene(p, m.metric + ": runs in order");
    s.description = "Each run of " + m.metric + " in the order it ran, one panel per variant, coloured by boot.";

    size_t skipped = 0;
    double lo = INFINITY, hi = -INFINITY;
    std::map<std::string, size_t> boots;  // boot id -> colour index, by first appearance
    std::vector<std::string> boot_order;
    bool any_warmup = false, any_invalid = false, any_dropped = false, any_block = false;
    for (const auto& v : m.variants) {
        std::vector<const RunPoint*> runs;
        for (const auto& r : v.runs) runs.push_back(&r);
        std::stable_sort(runs.begin(), runs.end(), [](auto* a, auto* b) { return a->order < b->order; });
        for (const auto* r : runs) {
            if (!drawable(r->value)) {
                ++skipped;
                continue;
            }
            lo = std::min(lo, r->value), hi = std::max(hi, r->value);
            if (!r->boot.empty() && boots.emplace(r->boot, boots.size()).second) boot_order.push_back(r->boot);
            any_warmup |= r->warmup, any_invalid |= r->invalid, any_dropped |= r->dropped, any_block |= r->block >= 0;
        }
    }
    if (lo > hi) lo = 0, hi = 1;

    std::vector<std::string> caption;
    std::string marks;
    auto add = [&marks](const char* what) { marks += (marks.empty() ? "" : "; ") + std::string(what); };
    if (boot_order.size() > kBootColours) add("boot colours repeat after 7 boots");
    if (boot_order.size() > 1) add("dashed lines: boot changes");
    if (any_block) add("light lines: block boundaries");
    if (any_warmup) add("hollow grey: warm-up");
    if (any_invalid) add("crossed red: invalid");
    if (any_dropped) add("dashed outline: dropped outlier");
    caption.push_back(marks);
    caption.push_back(m.verdict);
    caption.push_back(skipped_note(skipped));
    auto lines = wrap_caption(caption, p.width);
    Frame full{76, 62, p.width - 20, p.height - 46 - caption_height(lines)};
    ValueAxis y = value_axis(m.metric, m.unit, lo, hi, full.bottom, full.top, 5, m.unit_reference);
    auto& axes = s.group("axes");
    draw_y_axis(axes, y, full);

    size_t nv = std::max<size_t>(m.variants.size(), 1);
    double gap = 12;
    double pw = (full.width() - gap * static_cast<double>(nv - 1)) / static_cast<double>(nv);
    for (size_t i = 0; i < m.variants.size(); ++i) {
        const auto& v = m.variants[i];
        Frame f{full.left + static_cast<double>(i) * (pw + gap), full.top, 0, full.bottom};
        f.right = f.left + pw;
        std::vector<const RunPoint*> runs;
        size_t max_order = 0;
        for (const auto& r : v.runs)
            if (drawable(r.value)) runs.push_back(&r), max_order = std::max(max_order, r.order);
        std::stable_sort(runs.begin(), runs.end(), [](auto* a, auto* b) { return a->order < b->order; });
        LinearScale x{0.5, static_cast<double>(max_order) + 1.5, f.left + 4, f.right - 4};

        auto& frame = s.group();
        frame.add(Rect{f.left, f.top, f.width(), f.height(), "panel", {}});
        frame.add(Text{(f.left + f.right) / 2, f.top - 6, v.label, "panel-label", Anchor::middle, 0,
                       static_cast<size_t>(std::max(8.0, pw / 7))});
        // Run-number ticks: integers only.
        Ticks t = nice_ticks(1, static_cast<double>(max_order) + 1, std::max(2, static_cast<int>(pw / 60)));
        double step = std::max(1.0, t.step);
        for (double k = std::ceil(1 / step) * step; k <= static_cast<double>(max_order) + 1; k += step) {
            if (k < 1) continue;
            double tx = x(k);
            frame.add(Line{tx, f.bottom, tx, f.bottom + 4, "axis", {}});
            frame.add(Text{tx, f.bottom + 16, tick_label(k, t), "tick-label", Anchor::middle, 0, 0});
        }
        frame.add(Line{f.left, f.bottom, f.right, f.bottom, "axis", {}});

        // Boundaries between consecutive runs: boot changes dashed, block
        // changes light.
        auto& lines = s.group();
        for (size_t j = 1; j < runs.size(); ++j) {
            double bx = (x(static_cast<double>(runs[j - 1]->order) + 1) + x(static_cast<double>(runs[j]->order) + 1)) / 2;
            if (runs[j]->boot != runs[j - 1]->boot)
                lines.add(Line{bx, f.top, bx, f.bottom, "boot-change",
                               "boot " + short_boot(runs[j - 1]->boot) + " to " + short_boot(runs[j]->boot)});
            else if (runs[j]->block != runs[j - 1]->block && runs[j]->block >= 0)
                lines.add(Line{bx, f.top, bx, f.bottom, "block", "block " + std::to_string(runs[j]->block)});
        }

        double r = std::clamp(pw / static_cast<double>(max_order + 2) / 2.5, 1.6, 3.5);
        std::map<std::string, Group*> by_colour;
        for (const auto* run : runs) {
            std::string colour = run->boot.empty() ? variant_class(i) : boot_class(boots.at(run->boot));
            auto [it, fresh] = by_colour.emplace(colour, nullptr);
            if (fresh) it->second = &s.group(colour);
            auto& g = *it->second;
            double cx = x(static_cast<double>(run->order) + 1), cy = y.at(run->value);
            std::string tip = v.label + " run " + std::to_string(run->order + 1) + ": " + value_text(run->value, y);
            if (!run->boot.empty()) tip += ", boot " + short_boot(run->boot);
            if (run->block >= 0) tip += ", block " + std::to_string(run->block);
            g.add(Circle{cx, cy, r, run_class(run->warmup, run->invalid, run->dropped), tip});
            if (run->invalid) g.add(invalid_cross(cx, cy, r));
        }
    }
    axes.add(Text{(full.left + full.right) / 2, full.bottom + 34, "run (in the order it ran)", "axis-label",
                  Anchor::middle, 0, 0});

    if (boot_order.size() > 1) {
        std::vector<LegendEntry> legend;
        for (size_t b = 0; b < boot_order.size(); ++b)
            legend.push_back({boot_class(b), "boot " + short_boot(boot_order[b])});
        draw_legend(s, legend, full.left, 34, p.width - 12);
    }

    draw_caption(s, lines);
    return finish(s);
}

}  // namespace gfxstat::plot
