// SPDX-License-Identifier: MIT
#include "findings/compare_findings.h"

namespace gfxstat::cli {

// Column files compare one unnamed metric: its values.
std::string metric_title(const MetricReport& m) { return m.metric.empty() ? "value" : m.metric; }

const findings::ImageComparison* CompareReport::image_comparison(const std::string& label) const {
    if (!images) return nullptr;
    for (const auto& c : images->comparisons)
        if (c.candidate == label) return &c;
    return nullptr;
}

}  // namespace gfxstat::cli
