// SPDX-License-Identifier: MIT
// What the runs of a sample recorded about the machine
// (findings/recorded_context.h), in the words of the drift sentences
// (report/diagnostic_words.h).
#pragma once

#include <cstddef>
#include <string>

#include "findings/recorded_context.h"

namespace gfxstat::cli {

// What moved between the values before `split` and those from it on (value
// positions in the original run order), in words: "the load average rose
// from 0.31 to 3.98 and temp_coretemp from 52.3 to 71.0 °C"; "" when
// nothing moved by more than a reading's own noise would (load average by
// 0.5 and half again, a temperature by 5 °C, a clock by 10%, throttle
// reasons appearing or going).
std::string recorded_change(const RecordedSeries& series, size_t split);

// "load average, temp_coretemp, gpu_act_freq_mhz": the fields recorded.
std::string recorded_fields(const RecordedSeries& series);

}  // namespace gfxstat::cli
