// One line of EzBench's "unified" test output, `SubTestName: type(value)
// unit`, and what its unit says about direction: shared by the EzBench
// importer (data/import_ezbench.cpp, which defines them) and gfxstat run's
// ezbench parser.
#pragma once

#include <optional>
#include <string_view>

#include "data/results_model.h"

namespace gfxstat::data {

struct EzbenchLine {
    std::string_view name, type, value, unit;  // views into the line
};

// Splits `name: type(value) unit`; nullopt when the line has another shape.
std::optional<EzbenchLine> split_ezbench_line(std::string_view text);

// Times shrink as drivers improve, frame and operation rates grow.
Direction ezbench_unit_direction(std::string_view unit);

}  // namespace gfxstat::data
