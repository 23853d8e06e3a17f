// SPDX-License-Identifier: MIT
#include "analysis/rank_formulas.h"

#include <cmath>

namespace gfxstat::analysis {

double tie_sum_sorted(const std::vector<double>& sorted) {
    double sum = 0;
    for (size_t i = 0; i < sorted.size();) {
        size_t j = i + 1;
        while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
        const double t = static_cast<double>(j - i);
        sum += t * t * t - t;
        i = j;
    }
    return sum;
}

double normal_upper(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

double mean_of_middles(double a, double b) {
    const double s = a + b;
    return std::isfinite(s) ? s / 2 : a / 2 + b / 2;
}

}  // namespace gfxstat::analysis
