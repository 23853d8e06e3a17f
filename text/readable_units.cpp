// SPDX-License-Identifier: MIT
#include "text/readable_units.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace gfxstat::text {

namespace {

struct Step {
    const char* name;  // as shown
    double size;       // in the ladder's smallest unit
};

// The two ladders, smallest first.
constexpr Step kTimes[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
constexpr Step kSizes[] = {{"B", 1},
                           {"KiB", 1024.0},
                           {"MiB", 1024.0 * 1024},
                           {"GiB", 1024.0 * 1024 * 1024},
                           {"TiB", 1024.0 * 1024 * 1024 * 1024}};

struct Known {
    const Step* ladder = nullptr;
    size_t steps = 0;
    size_t at = 0;  // the recorded unit's step
};

Known recognise(std::string_view base) {
    static const struct {
        const char* spelling;
        bool time;
        size_t step;
    } kSpellings[] = {{"ns", true, 0},   {"us", true, 1},      {"\xc2\xb5s", true, 1}, {"usec", true, 1},
                      {"ms", true, 2},   {"msec", true, 2},    {"s", true, 3},         {"sec", true, 3},
                      {"secs", true, 3}, {"seconds", true, 3}, {"B", false, 0},        {"bytes", false, 0},
                      {"KiB", false, 1}, {"MiB", false, 2},    {"GiB", false, 3},      {"TiB", false, 4}};
    for (const auto& k : kSpellings)
        if (base == k.spelling)
            return k.time ? Known{kTimes, std::size(kTimes), k.step} : Known{kSizes, std::size(kSizes), k.step};
    return {};
}

// |v| as printf("%.{digits}g") prints it, read back: the magnitude a reader sees.
double as_printed_digits(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, std::fabs(v));
    return std::strtod(buf, nullptr);
}

double as_printed(double v) { return as_printed_digits(v, 3); }

}  // namespace

DisplayUnit readable_unit(std::string_view unit, double reference) {
    DisplayUnit out;
    out.unit = std::string(unit);
    out.recorded = out.unit;
    const size_t slash = unit.find('/');
    const std::string_view base = unit.substr(0, slash);
    const std::string suffix = slash == std::string_view::npos ? "" : std::string(unit.substr(slash));
    const Known k = recognise(base);
    if (!k.ladder) return out;
    const Step& recorded = k.ladder[k.at];
    out.unit = recorded.name + suffix;
    if (!std::isfinite(reference) || reference == 0) return out;
    // From the largest unit down, the first in which the reference reads
    // at least 1; the smallest when none does.
    size_t pick = 0;
    for (size_t i = k.steps; i-- > 0;) {
        if (as_printed(reference * recorded.size / k.ladder[i].size) >= 1) {
            pick = i;
            break;
        }
    }
    out.unit = k.ladder[pick].name + suffix;
    out.multiplier = recorded.size;
    out.divisor = k.ladder[pick].size;
    return out;
}

DisplayUnit difference_unit(const DisplayUnit& row, double magnitude) {
    if (!std::isfinite(magnitude) || magnitude == 0) return row;
    return readable_unit(row.recorded, magnitude);
}

std::string scaled_number(double v, const DisplayUnit& u, int digits, bool sign) {
    char buf[64];
    const double x = u.shown(v);
    // %g turns 1000 at 3 digits into "1e+03"; below a million the whole
    // number reads better (a KiB row can reach 1023, a unit that is not
    // scaled any value).
    if (std::isfinite(x) && std::fabs(as_printed_digits(x, digits)) >= std::pow(10.0, digits) && std::fabs(x) < 1e6)
        std::snprintf(buf, sizeof buf, sign ? "%+.0f" : "%.0f", x);
    else
        std::snprintf(buf, sizeof buf, sign ? "%+.*g" : "%.*g", digits, x);
    return buf;
}

std::string scaled_value(double v, const DisplayUnit& u, int digits, bool sign) {
    std::string s = scaled_number(v, u, digits, sign);
    if (!u.unit.empty()) s += " " + u.unit;
    return s;
}

}  // namespace gfxstat::text
