// SPDX-License-Identifier: MIT
#include "formats/recorded_metric.h"

#include <utility>

namespace gfxstat::formats {

data::MetricInfo metric_declaration(const ParsedMetric& m) {
    data::MetricInfo info;
    info.name = m.name;
    info.unit = m.unit;
    info.direction = m.direction;
    info.primary = m.primary;
    info.per = m.per;
    return info;
}

data::MetricValues metric_values(ParsedMetric&& m) {
    data::MetricValues mv;
    mv.name = m.name;
    mv.array = m.values.size() != 1;
    mv.values = std::move(m.values);
    return mv;
}

}  // namespace gfxstat::formats
