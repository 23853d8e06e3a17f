// SPDX-License-Identifier: MIT
#include "findings/compare_findings.h"

namespace gfxstat::cli {

// Column files compare one unnamed metric: its values.
std::string metric_title(const MetricReport& m) { return m.metric.empty() ? "value" : m.metric; }

}  // namespace gfxstat::cli
