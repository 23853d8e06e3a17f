// SPDX-License-Identifier: MIT
// A parsed metric as a results file records it: its declaration (the
// metric record) and the values of the run that measured it. Shared by
// `run`, which records what it runs, and `import`, which records saved
// outputs, so that both write the same records for the same output.
#pragma once

#include "data/results_model.h"
#include "formats/output_parser.h"

namespace gfxstat::formats {

// The metric record: name, unit, direction, primary, per.
data::MetricInfo metric_declaration(const ParsedMetric& m);

// The run's values, moved out of `m`; written as an array unless there is
// exactly one.
data::MetricValues metric_values(ParsedMetric&& m);
// The same, with packed values (m.packed) moved to `packed`, which the
// caller keeps beside the record and hands to the writer.
data::MetricValues metric_values(ParsedMetric&& m, data::PackedTokens& packed);

}  // namespace gfxstat::formats
