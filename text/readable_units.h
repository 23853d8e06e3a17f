// SPDX-License-Identifier: MIT
// Times and sizes in a unit a reader takes in at a glance: "+1.87 ms", not
// "+0.00187275 s"; "512 MiB", not "524288 KiB". A metric's values are
// recorded in one unit (data/results_model.h, MetricInfo::unit: free
// text); for people, each row of a report is shown in one unit chosen from
// that row's reference magnitude (the baseline's mean), so the row's
// numbers can be compared by eye. JSON never goes through here: it keeps
// the raw numbers and the recorded unit.
//
// Recognised units (anything else is shown as recorded, unscaled):
//   times  ns, us, µs (shown as "us": 72-column mail is ASCII), usec,
//          ms, msec, s, sec, secs, seconds
//   sizes  B, bytes, KiB, MiB, GiB, TiB (binary prefixes only: "KB" may
//          mean 1000 or 1024)
// either alone or before a "/" ("ns/op" becomes "us/op", "MiB/s" "GiB/s").
// Seconds are the largest time unit (a minute is not a unit benchmarks
// are read in) and ns the smallest.
//
// The rule, which keeps the unit and the printed number consistent: the
// row is shown in the largest unit in which the reference, printed with 3
// significant digits, reads at least 1. So 999.4 us stays "999 us" and
// 999.5 us (which would print as "1e+03 us") becomes "1 ms". Zero, NaN and
// infinite references keep the recorded unit.
#pragma once

#include <string>
#include <string_view>

namespace gfxstat::text {

struct DisplayUnit {
    std::string unit;       // as shown: "ms", "KiB/s", or the recorded unit unchanged
    std::string recorded;   // the unit the values are recorded in, as given
    // shown value = recorded value * multiplier / divisor; both are exact
    // (powers of 1000 or 1024), so that a value's digits are not disturbed.
    double multiplier = 1, divisor = 1;
    bool scaled() const { return multiplier != divisor; }
    double shown(double v) const { return v * multiplier / divisor; }
};

// The unit to show a row of values recorded in `unit` in, chosen from the
// row's reference magnitude `reference` (its sign does not matter).
DisplayUnit readable_unit(std::string_view unit, double reference);

// The unit for a difference between two of a row's values (and for its
// interval): chosen from the difference's own magnitude, not the row's, so
// that 2.000 s vs 2.001 s differ by "+1 ms", not "+0.001 s", and 5000 B in
// a MiB row reads "+4.88 KiB". `magnitude` is in the recorded unit; when it
// is 0 (no difference) the row's unit is kept.
DisplayUnit difference_unit(const DisplayUnit& row, double magnitude);

// `v` (in the recorded unit) in `u`, with `digits` significant digits
// (printf's %g); with `sign`, a '+' before positive values. No unit.
std::string scaled_number(double v, const DisplayUnit& u, int digits = 3, bool sign = false);

// The same followed by " unit" when the unit is not empty: "+1.87 ms".
std::string scaled_value(double v, const DisplayUnit& u, int digits = 3, bool sign = false);

}  // namespace gfxstat::text
