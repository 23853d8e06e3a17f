// SPDX-License-Identifier: MIT
#include "formats/recorded_metric.h"

#include <utility>

namespace gfxstat::formats {

data::MetricInfo metric_declaration(const ParsedMetric& m) {
    data::MetricInfo info(m.name, m.unit, m.direction);
    info.primary = m.primary;
    info.per = m.per;
    return info;
}

data::MetricValues metric_values(ParsedMetric&& m) {
    data::PackedTokens none;
    return metric_values(std::move(m), none);
}

data::MetricValues metric_values(ParsedMetric&& m, data::PackedTokens& packed) {
    const bool array = m.values.size() + m.packed.size() != 1;
    packed = std::move(m.packed);
    return data::MetricValues{.name = data::SharedString(m.name), .values = std::move(m.values), .array = array};
}

}  // namespace gfxstat::formats
