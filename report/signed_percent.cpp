// SPDX-License-Identifier: MIT
#include "report/signed_percent.h"

#include <cmath>
#include <cstdio>

namespace gfxstat::report {

std::string signed_percent(double ratio) {
    if (std::isnan(ratio)) return "n/a";
    if (!std::isfinite(ratio)) return ratio > 0 ? "+inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.3g%%", 100 * ratio);
    return buf;
}

}  // namespace gfxstat::report
