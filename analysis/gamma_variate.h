// SPDX-License-Identifier: MIT
// Gamma(shape, 1) variates for the seeded simulations (the bootstrap's
// Bayesian weights, the group-sequential boundary's sums of squares), from
// any generator with normal() and open0() (uniform on (0, 1]).
#pragma once

#include <cmath>

namespace gfxstat::analysis {

// Marsaglia & Tsang (2000), an exact rejection method for shape >= 1
// (acceptance > 95%).
template <class Generator>
double gamma_variate(Generator& g, double shape) {
    const double d = shape - 1.0 / 3, c = 1 / std::sqrt(9 * d);
    for (;;) {
        double x, v;
        do {
            x = g.normal();
            v = 1 + c * x;
        } while (v <= 0);
        v = v * v * v;
        const double u = g.open0();
        const double x2 = x * x;
        if (u < 1 - 0.0331 * x2 * x2) return d * v;
        if (std::log(u) < 0.5 * x2 + d * (1 - v + std::log(v))) return d * v;
    }
}

}  // namespace gfxstat::analysis
