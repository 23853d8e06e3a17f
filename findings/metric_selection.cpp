// SPDX-License-Identifier: MIT
#include "findings/metric_selection.h"

#include "data/input_error.h"
#include "text/nearest_word.h"

namespace gfxstat::cli {

data::MetricSelection select_metric_suggesting(const data::ResultsFile& file, const std::string& name,
                                               std::string_view metric, const std::vector<std::string>& variants) {
    try {
        return data::select_metric(file, name, metric, variants);
    } catch (const data::UnknownMetricError& e) {
        throw data::InputError(e.what() + text::did_you_mean(e.typed, e.known));
    }
}

}  // namespace gfxstat::cli
