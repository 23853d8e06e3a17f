// SPDX-License-Identifier: MIT
#include "drivers/timing_summary.h"

#include <algorithm>
#include <vector>

#include "analysis/order_stats.h"

namespace gfxstat::drivers {

TimingSummary summarize_times(std::span<const double> values) {
    TimingSummary s;
    s.count = values.size();
    if (values.empty()) return s;
    double sum = 0;
    for (double x : values) sum += x;
    s.mean = sum / static_cast<double>(values.size());
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    s.min = *lo;
    s.max = *hi;
    std::vector<double> scratch(values.begin(), values.end());  // quantile_type7 reorders its input
    analysis::MutableScaledValues m{std::span<double>(scratch), 0};
    s.median = analysis::quantile_type7(m, 1, 2);
    s.p99 = analysis::quantile_type7(m, 99, 100);
    return s;
}

}  // namespace gfxstat::drivers
