// SPDX-License-Identifier: MIT
// Scales, ticks and axes: where a value lands in pixels, which round
// numbers label the axis, and the unit they are shown in. A metric's
// values are recorded in one unit; the axis shows them in the readable
// unit chosen from the axis's largest magnitude (text/readable_units.h),
// so a frame-time axis reads "0.5 1 1.5 ms", not "0.0005 0.001 s".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plot/scene.h"
#include "text/readable_units.h"

namespace gfxstat::plot {

// Whether a value can be placed on an axis: finite, and 0 or within
// [1e-300, 1e300] in magnitude (so that spans, pads and steps computed
// from it stay finite and normal). Charts skip the others and say so.
bool drawable(double v);

// Round tick values (1, 2 or 5 times a power of ten) covering [lo, hi],
// about `target` of them. The domain is widened to the outer ticks; an
// empty or nearly empty range (all values equal) is padded around its
// value, so a single value sits in the middle of the axis.
struct Ticks {
    double lo = 0, hi = 1, step = 1;
    std::vector<double> values;
};
Ticks nice_ticks(double lo, double hi, int target = 5);

// A tick's label: as many significant digits as the step needs to tell
// neighbouring ticks apart, exponents as "1e6" rather than "1e+06".
std::string tick_label(double v, const Ticks& t);

// Domain [d0, d1] (d0 < d1) onto pixels [r0, r1] (r1 < r0 for a y axis).
struct LinearScale {
    double d0 = 0, d1 = 1, r0 = 0, r1 = 1;
    double operator()(double v) const { return r0 + (v - d0) / (d1 - d0) * (r1 - r0); }
};

// The plotting area inside a chart's margins.
struct Frame {
    double left = 0, top = 0, right = 0, bottom = 0;
    double width() const { return right - left; }
    double height() const { return bottom - top; }
};

// A value axis for a metric: its display unit, ticks, scale and label
// ("frame time (ms)"; the metric alone when the unit is unknown).
struct ValueAxis {
    text::DisplayUnit unit;
    Ticks ticks;
    LinearScale scale;  // in shown units
    std::string label;
    // A recorded value's pixel.
    double at(double recorded) const { return scale(unit.shown(recorded)); }
};
// [lo, hi] in recorded units onto [r0, r1] pixels, shown in the unit
// readable at `reference` (recorded units), else at the larger end of [lo, hi].
ValueAxis value_axis(const std::string& metric, const std::string& unit, double lo, double hi, double r0, double r1,
                     int target = 5, std::optional<double> reference = std::nullopt);
// The same for a quantity with no unit conversion ("runs", "change (%)").
ValueAxis plain_axis(const std::string& label, double lo, double hi, double r0, double r1, int target = 5);

// Draws the axis line, ticks with labels, light grid lines across the
// frame and the axis label (class "axis-label") into `g`.
void draw_y_axis(Group& g, const ValueAxis& a, const Frame& f);
void draw_x_axis(Group& g, const ValueAxis& a, const Frame& f);

}  // namespace gfxstat::plot
