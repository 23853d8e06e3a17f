// SPDX-License-Identifier: MIT
// gfxstat summary --json: every row at full precision (shortest
// round-trip); NaN (the standard deviation of one value) is null.
#pragma once

#include <string>
#include <vector>

#include "findings/sample_summary.h"

namespace gfxstat::report {

// {"inputs": [...]}, and with `every_metric` the same rows again in an
// array per metric; indented by 2, without a final newline.
std::string summary_json(const std::vector<findings::SampleSummary>& rows, bool every_metric);

}  // namespace gfxstat::report
