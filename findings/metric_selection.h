// SPDX-License-Identifier: MIT
// One metric of a results file selected for the commands that compare or
// summarise it, a metric the file lacks answered with the names it holds.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "data/results_model.h"
#include "data/results_select.h"

namespace gfxstat::cli {

// data::select_metric, a --metric the file lacks answered with the nearest
// names it holds ("did you mean latency?", text/nearest_word.h). Throws
// data::InputError.
data::MetricSelection select_metric_suggesting(const data::ResultsFile& file, const std::string& name,
                                               std::string_view metric, const std::vector<std::string>& variants);

}  // namespace gfxstat::cli
