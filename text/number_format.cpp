// SPDX-License-Identifier: MIT
#include "text/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace gfxstat::text {

std::string number_g(double v, int digits) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

std::string signed_number_g(double v, int digits) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%+.*g", digits, v);
    return buf;
}

std::string shortest_number(double v) {
    char buf[40];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string percent_g(double fraction) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%g%%", fraction * 100);
    return buf;
}

std::string signed_percent(double fraction, int digits) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%+.*g%%", digits, fraction * 100);
    return buf;
}

std::string signed_percent_or_words(double fraction) {
    if (std::isnan(fraction)) return "n/a";
    if (!std::isfinite(fraction)) return fraction > 0 ? "+inf" : "-inf";
    return signed_percent(fraction, 3);
}

std::string readable_number(double v) {
    if (!std::isfinite(v)) return "n/a";
    char buf[64];
    const double a = std::fabs(v);
    if (a == 0 || (a >= 1e-3 && a < 1e6)) {
        const int decimals = a == 0 ? 0 : std::max(0, 3 - static_cast<int>(std::floor(std::log10(a))));
        std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    } else {
        std::snprintf(buf, sizeof buf, "%.4g", v);
    }
    return buf;
}

}  // namespace gfxstat::text
