// SPDX-License-Identifier: MIT
#include "analysis/ministat_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gfxstat::analysis {

char ministat_symbol(int k) {
    static const char symbols[] = {' ', 'x', '+', '*', '%', '#', '@', 'O'};
    return (k >= 0 && k < 8) ? symbols[k] : '?';
}

namespace {

// Plot geometry in floating type F: double, exactly as ministat computes it,
// or long double when the double range overflows (values near 1e308).
template <class F>
struct Axis {
    F x0 = 0, dx = 0, span = 0;
    int width = 0;

    int bin(F v) const {
        F pos = (v - x0) / dx;
        // ministat truncates without bounds; rounding at the right edge can
        // land one past the last column, which it writes out of bounds.
        if (!(pos >= 0)) return 0;
        if (pos >= static_cast<F>(width)) return width - 1;
        return static_cast<int>(pos);
    }
};

template <class F>
bool make_axis(const std::vector<PlotSet>& sets, int width, Axis<F>& axis) {
    F lo = static_cast<F>(999e99), hi = static_cast<F>(-999e99);
    auto adj = [&](F a) {
        if (a < lo) lo = a;
        if (a > hi) hi = a;
    };
    for (const PlotSet& s : sets) {
        // ministat widens the range by min, max, mean - sd and mean + sd.
        adj(static_cast<F>(s.min));
        adj(static_cast<F>(s.max));
        adj(static_cast<F>(s.mean) - static_cast<F>(s.stddev));
        adj(static_cast<F>(s.mean) + static_cast<F>(s.stddev));
    }
    axis.width = width;
    axis.span = hi - lo;
    axis.dx = axis.span / (width - static_cast<F>(1.0));
    axis.x0 = lo - static_cast<F>(.5) * axis.dx;
    return std::isfinite(static_cast<long double>(axis.span)) &&
           std::isfinite(static_cast<long double>(axis.dx)) &&
           std::isfinite(static_cast<long double>(axis.x0));
}

template <class F>
std::vector<std::string> draw(const std::vector<PlotSet>& sets, const PlotOptions& opt,
                              const Axis<F>& axis) {
    const int width = opt.width;
    const size_t nsets = sets.size();
    // Per set, how many values fall in each column.
    std::vector<std::vector<size_t>> counts(nsets, std::vector<size_t>(width, 0));
    size_t tallest = 0;
    for (size_t k = 0; k < nsets; ++k) {
        const ScaledValues& v = sets[k].values;
        for (size_t i = 0; i < v.size(); ++i) ++counts[k][axis.bin(static_cast<F>(v.at(i)))];
        tallest = std::max(tallest, *std::max_element(counts[k].begin(), counts[k].end()));
    }
    size_t per_row = 1;
    if (tallest > opt.max_rows && opt.max_rows > 0)
        per_row = (tallest + opt.max_rows - 1) / opt.max_rows;
    const size_t rows = (tallest + per_row - 1) / per_row;

    std::vector<std::string> out;
    const std::string border = "+" + std::string(width, '-') + "+";
    out.push_back(border);
    for (size_t r = rows; r >= 1; --r) {  // top row first
        std::string line(width + 2, '|');
        for (int x = 0; x < width; ++x) {
            int cell = 0;
            for (size_t k = 0; k < nsets; ++k)
                if ((counts[k][x] + per_row - 1) / per_row >= r) cell |= static_cast<int>(k + 1);
            line[x + 1] = ministat_symbol(cell);
        }
        out.push_back(std::move(line));
    }
    // Bars: one shared line, or one per set with -s. Later sets overwrite
    // earlier ones, except that '_' only fills empty cells.
    std::vector<std::string> bars(opt.separate_bars ? nsets : 1, std::string(width, '\0'));
    for (size_t k = 0; k < nsets; ++k) {
        std::string& bar = bars[opt.separate_bars ? k : 0];
        const PlotSet& s = sets[k];
        const F mean = s.mean, sd = s.stddev;
        if (!std::isnan(s.stddev)) {
            const int lo = axis.bin(mean - sd), hi = axis.bin(mean + sd);
            bar[hi] = '|';
            bar[lo] = '|';
            for (int x = lo + 1; x < hi; ++x)
                if (bar[x] == '\0') bar[x] = '_';
        }
        bar[axis.bin(static_cast<F>(s.median))] = 'M';
        bar[axis.bin(mean)] = 'A';
    }
    for (std::string& bar : bars) {
        std::replace(bar.begin(), bar.end(), '\0', ' ');
        out.push_back("|" + bar + "|");
    }
    out.push_back(border);
    if (per_row > 1)
        out.push_back("[histogram scaled: each row stands for up to " + std::to_string(per_row) +
                      " values]");
    return out;
}

}  // namespace

std::vector<std::string> ministat_plot(const std::vector<PlotSet>& sets, const PlotOptions& opt) {
    if (!plot_can_draw(sets.size())) throw std::invalid_argument("ministat_plot: 1 to 7 sets");
    if (opt.width < 2)
        return {"[no plot, width " + std::to_string(opt.width) + " is too narrow]"};
    Axis<double> axis;
    const bool finite = make_axis(sets, opt.width, axis);
    if (finite && axis.span == 0) return {"[no plot, span is zero width]"};
    if (finite) return draw(sets, opt, axis);
    Axis<long double> wide;
    make_axis(sets, opt.width, wide);
    if (wide.span == 0) return {"[no plot, span is zero width]"};
    return draw(sets, opt, wide);
}

}  // namespace gfxstat::analysis
