// SPDX-License-Identifier: MIT
// run_order_svg: each variant's values in the order they ran, one panel
// per variant on a shared value axis. Runs are coloured by boot (by the
// variant when boots are unknown); boot changes are dashed vertical lines,
// `ab` block boundaries light ones; warm-ups hollow grey, invalid runs
// crossed red, dropped outliers dashed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include "plot/chart_parts.h"
#include "plot/charts.h"
#include "plot/palette.h"
#include "plot/run_bins.h"

namespace gfxstat::plot {

using namespace detail;

namespace {

// A variant of more than kMaxRunMarks runs as a grid of bins: columns of
// consecutive runs (about 4 px each) by kColumnBins equal bands of value.
std::string grid_words(size_t columns) {
    return std::to_string(columns) + " x " + std::to_string(kColumnBins) + " bins";
}

bool marked(const RunPoint& r) { return r.warmup || r.invalid || r.dropped; }

struct RunGrid {
    bool binned = false, marked_binned = false;
    size_t columns = 0, orders = 1;             // orders: the largest run order + 1
    double lo = 0, hi = 1;                      // the value range the rows divide
    std::vector<size_t> counts, marked;         // columns x kColumnBins, column-major
    std::vector<size_t> first, last;            // per column: its first and last run order
    std::vector<const std::string*> boot;       // per column: the one boot of its runs, else nullptr
    size_t column(size_t order) const { return std::min(order * columns / orders, columns - 1); }
    // Whether run r is counted in the grid (not drawn as a circle).
    bool holds(const RunPoint& r) const { return marked_binned || !plot::marked(r); }
};

// `runs`: the variant's drawable runs in order.
RunGrid grid_of(const std::vector<const RunPoint*>& runs, size_t max_order, double panel_width, double lo,
                double hi) {
    RunGrid g;
    g.binned = drawn_as_bins(runs.size());
    if (!g.binned) return g;
    g.marked_binned = drawn_as_bins(
        static_cast<size_t>(std::count_if(runs.begin(), runs.end(), [](auto* r) { return marked(*r); })));
    g.columns = bin_columns(panel_width);
    g.orders = max_order + 1;
    g.lo = lo, g.hi = hi;
    g.counts.assign(g.columns * kColumnBins, 0);
    g.marked.assign(g.columns * kColumnBins, 0);
    g.first.assign(g.columns, SIZE_MAX);
    g.last.assign(g.columns, 0);
    g.boot.assign(g.columns, nullptr);
    std::vector<bool> mixed(g.columns, false);
    for (const RunPoint* r : runs) {
        if (!g.holds(*r)) continue;
        const size_t c = g.column(r->order), cell = c * kColumnBins + bin_index(r->value, lo, hi, kColumnBins);
        ++g.counts[cell];
        g.marked[cell] += marked(*r);
        if (g.first[c] == SIZE_MAX) g.boot[c] = &r->boot;
        else if (!mixed[c] && *g.boot[c] != r->boot) mixed[c] = true;
        g.first[c] = std::min(g.first[c], r->order), g.last[c] = std::max(g.last[c], r->order);
    }
    for (size_t c = 0; c < g.columns; ++c)
        if (mixed[c]) g.boot[c] = nullptr;
    return g;
}

// The grid's columns (run_bins.h's draw_bin_column), coloured by the boot
// of their column's runs when they share one (else the variant's colour),
// grey ("marked") where every run in a bin is a warm-up, invalid or dropped.
void draw_grid(Scene& s, const RunGrid& g, const std::string& label, size_t variant,
               const std::map<std::string, size_t>& boots, const LinearScale& x, const ValueAxis& y) {
    const size_t most = *std::max_element(g.counts.begin(), g.counts.end());
    const double per_column = static_cast<double>(g.orders) / static_cast<double>(g.columns);
    for (size_t c = 0; c < g.columns; ++c) {
        if (g.first[c] == SIZE_MAX) continue;
        const bool by_boot = g.boot[c] && !g.boot[c]->empty();
        draw_bin_column(s, by_boot ? boot_class(boots.at(*g.boot[c])) : variant_class(variant),
                        label + " runs " + std::to_string(g.first[c] + 1) + " to " + std::to_string(g.last[c] + 1),
                        x(per_column * static_cast<double>(c) + 0.5), x(per_column * static_cast<double>(c + 1) + 0.5),
                        &g.counts[c * kColumnBins], &g.marked[c * kColumnBins], most, g.lo, g.hi, y);
    }
}

}  // namespace

std::string run_order_svg(const MetricPlot& m, const ChartOptions& o) {
    Page p = page_of(o);
    Scene s = start_scene(p, m.metric + ": runs in order");
    s.description = "Each run of " + m.metric + " in the order it ran, one panel per variant, coloured by boot.";

    size_t skipped = 0;
    double lo = INFINITY, hi = -INFINITY;
    std::map<std::string, size_t> boots;  // boot id -> colour index, by first appearance
    std::vector<std::string> boot_order;
    bool any_warmup = false, any_invalid = false, any_dropped = false, any_block = false;
    size_t nv = std::max<size_t>(m.variants.size(), 1);
    double gap = 12;
    // The panels' width: the frame's sides do not depend on the caption.
    double pw = (p.width - 20 - 76 - gap * static_cast<double>(nv - 1)) / static_cast<double>(nv);
    std::string notes;  // the variants drawn as bins
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
        size_t drawn = 0;
        if (runs_drawn_as_bins(v, &drawn))
            notes += (notes.empty() ? "" : "; ") + bins_note(v.label, drawn, grid_words(bin_columns(pw)));
    }
    if (lo > hi) lo = 0, hi = 1;

    std::vector<std::string> caption;
    caption.push_back(bins_caption(notes));
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

        // Past kMaxRunMarks runs: a grid of bins (run order by value), one
        // boundary line a column at most, the marked runs still one circle
        // each while there are few enough of them.
        const RunGrid grid = grid_of(runs, max_order, pw, lo, hi);

        // Boundaries between consecutive runs: boot changes dashed, block
        // changes light.
        auto& lines = s.group();
        std::vector<char> boundary(grid.binned ? grid.columns : 0, 0);  // per column: 1 boot, 2 block line drawn
        for (size_t j = 1; j < runs.size(); ++j) {
            const bool boot = runs[j]->boot != runs[j - 1]->boot;
            const bool block = !boot && runs[j]->block != runs[j - 1]->block && runs[j]->block >= 0;
            if (!boot && !block) continue;
            if (grid.binned) {
                char& drawn = boundary[grid.column(runs[j]->order)];
                if (drawn & (boot ? 1 : 2)) continue;
                drawn |= boot ? 1 : 2;
            }
            double bx = (x(static_cast<double>(runs[j - 1]->order) + 1) + x(static_cast<double>(runs[j]->order) + 1)) / 2;
            if (boot)
                lines.add(Line{bx, f.top, bx, f.bottom, "boot-change",
                               "boot " + short_boot(runs[j - 1]->boot) + " to " + short_boot(runs[j]->boot)});
            else
                lines.add(Line{bx, f.top, bx, f.bottom, "block", "block " + std::to_string(runs[j]->block)});
        }

        double r = std::clamp(pw / static_cast<double>(max_order + 2) / 2.5, 1.6, 3.5);
        std::map<std::string, Group*> by_colour;
        auto colour_group = [&](const std::string& colour) -> Group& {
            auto [it, fresh] = by_colour.emplace(colour, nullptr);
            if (fresh) it->second = &s.group(colour);
            return *it->second;
        };
        for (const auto* run : runs) {
            if (grid.binned && grid.holds(*run)) continue;
            auto& g = colour_group(run->boot.empty() ? variant_class(i) : boot_class(boots.at(run->boot)));
            double cx = x(static_cast<double>(run->order) + 1), cy = y.at(run->value);
            std::string tip = v.label + " run " + std::to_string(run->order + 1) + ": " + value_text(run->value, y);
            if (!run->boot.empty()) tip += ", boot " + short_boot(run->boot);
            if (run->block >= 0) tip += ", block " + std::to_string(run->block);
            g.add(Circle{cx, cy, r, run_class(run->warmup, run->invalid, run->dropped), tip});
            if (run->invalid) g.add(invalid_cross(cx, cy, r));
        }
        if (grid.binned) draw_grid(s, grid, v.label, i, boots, x, y);
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
    return finish_charted(s, !notes.empty());
}

}  // namespace gfxstat::plot
