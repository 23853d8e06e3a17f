// SPDX-License-Identifier: MIT
#include "plot/axes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gfxstat::plot {

bool drawable(double v) {
    if (!std::isfinite(v)) return false;
    double a = std::fabs(v);
    return a == 0 || (a >= 1e-300 && a <= 1e300);
}

Ticks nice_ticks(double lo, double hi, int target) {
    if (!drawable(lo) || !drawable(hi)) lo = 0, hi = 1;
    if (lo > hi) std::swap(lo, hi);
    target = std::clamp(target, 2, 20);
    double mag = std::max(std::fabs(lo), std::fabs(hi));
    // A span below a millionth of the magnitude cannot be labelled with
    // digits a reader tells apart: widen it around its middle.
    double min_span = mag > 0 ? mag * 1e-6 : 1.0;
    if (hi - lo < min_span) {
        double mid = lo / 2 + hi / 2;
        double pad = mag > 0 ? std::max(min_span, mag * 0.05) : 1.0;
        lo = mid - pad / 2;
        hi = mid + pad / 2;
    }
    double raw = (hi - lo) / target;
    double p = std::pow(10.0, std::floor(std::log10(raw)));
    double norm = raw / p;
    double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * p;
    double first = std::floor(lo / step), last = std::ceil(hi / step);
    if (last <= first) last = first + 1;
    Ticks t;
    t.step = step;
    t.lo = first * step;
    t.hi = last * step;
    for (double k = first; k <= last + 0.5; k += 1) t.values.push_back(k == 0 ? 0.0 : k * step);
    return t;
}

std::string tick_label(double v, const Ticks& t) {
    if (v == 0) return "0";
    double mag = std::max(std::fabs(t.lo), std::fabs(t.hi));
    char buf[64];
    if (mag >= 1e-4 && mag < 1e6) {
        // Plain decimals, as many as the step has: steps are 1, 2 or 5
        // times a power of ten.
        int decimals = std::clamp(static_cast<int>(-std::floor(std::log10(t.step) + 1e-9)), 0, 10);
        std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
        return buf;
    }
    int sig = static_cast<int>(std::floor(std::log10(mag)) - std::floor(std::log10(t.step))) + 1;
    sig = std::clamp(sig, 1, 15);
    std::snprintf(buf, sizeof buf, "%.*g", sig, v);
    std::string s = buf;
    // "1e+06" -> "1e6", "5e-07" -> "5e-7".
    auto e = s.find('e');
    if (e != std::string::npos) {
        std::string mant = s.substr(0, e), exp = s.substr(e + 1);
        bool neg = !exp.empty() && exp[0] == '-';
        if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.erase(0, 1);
        while (exp.size() > 1 && exp[0] == '0') exp.erase(0, 1);
        s = mant + "e" + (neg ? "-" : "") + exp;
    }
    return s;
}

ValueAxis value_axis(const std::string& metric, const std::string& unit, double lo, double hi, double r0, double r1,
                     int target, std::optional<double> reference) {
    ValueAxis a;
    double ref = reference && drawable(*reference)
                     ? std::fabs(*reference)
                     : std::max(drawable(lo) ? std::fabs(lo) : 0.0, drawable(hi) ? std::fabs(hi) : 0.0);
    a.unit = text::readable_unit(unit, ref);
    a.ticks = nice_ticks(a.unit.shown(lo), a.unit.shown(hi), target);
    a.scale = {a.ticks.lo, a.ticks.hi, r0, r1};
    a.label = a.unit.unit.empty() ? metric : metric + " (" + a.unit.unit + ")";
    return a;
}

ValueAxis plain_axis(const std::string& label, double lo, double hi, double r0, double r1, int target) {
    ValueAxis a;
    a.ticks = nice_ticks(lo, hi, target);
    a.scale = {a.ticks.lo, a.ticks.hi, r0, r1};
    a.label = label;
    return a;
}

void draw_y_axis(Group& g, const ValueAxis& a, const Frame& f) {
    for (double v : a.ticks.values) {
        double y = a.scale(v);
        g.add(Line{f.left, y, f.right, y, "grid", {}});
        g.add(Line{f.left - 4, y, f.left, y, "axis", {}});
        g.add(Text{f.left - 6, y + 4, tick_label(v, a.ticks), "tick-label", Anchor::end, 0, 0});
    }
    g.add(Line{f.left, f.top, f.left, f.bottom, "axis", {}});
    double mid = (f.top + f.bottom) / 2;
    g.add(Text{f.left - 46, mid, a.label, "axis-label", Anchor::middle, -90, 60});
}

void draw_x_axis(Group& g, const ValueAxis& a, const Frame& f) {
    for (double v : a.ticks.values) {
        double x = a.scale(v);
        g.add(Line{x, f.top, x, f.bottom, "grid", {}});
        g.add(Line{x, f.bottom, x, f.bottom + 4, "axis", {}});
        g.add(Text{x, f.bottom + 16, tick_label(v, a.ticks), "tick-label", Anchor::middle, 0, 0});
    }
    g.add(Line{f.left, f.bottom, f.right, f.bottom, "axis", {}});
    g.add(Text{(f.left + f.right) / 2, f.bottom + 34, a.label, "axis-label", Anchor::middle, 0, 80});
}

}  // namespace gfxstat::plot
