// SPDX-License-Identifier: MIT
// What the runs of one sample recorded about the machine as the series went
// on (the environment probe's load average, temperatures, GPU clocks and
// throttle reasons, docs/results-format.md), so that a drift or a change of
// level is explained by what was measured rather than by a guess: "the
// load average rose from 0.31 to 3.98", not "look for thermal throttling".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "data/results_model.h"
#include "data/results_select.h"

namespace gfxstat::cli {

// The readings, stretch by stretch of values in one environment, in run
// order. Empty (known() false) when some run recorded no environment, or
// no run recorded any of the fields read.
struct RecordedSeries {
    std::vector<std::string> fields;  // "load_average", "temp_coretemp", "gpu_act_freq_mhz", ...
    struct Stretch {
        size_t values = 0;
        std::vector<double> readings;  // one per field; NaN where this environment lacks it
    };
    std::vector<Stretch> stretches;
    bool known() const { return !fields.empty() && !stretches.empty(); }
};

// From the environments the layout names (data::BootLayout::environments).
RecordedSeries recorded_series(const data::ResultsFile& file, const data::BootLayout& layout);

}  // namespace gfxstat::cli
