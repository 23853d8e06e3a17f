// SPDX-License-Identifier: MIT
// What ministat's report says of its data sets: each set's count, range,
// median, mean and standard deviation, and Student's t (pooled) of each
// set against the first. Renderer: report/ministat_text.h.
#pragma once

#include <vector>

#include "analysis/moments.h"
#include "analysis/order_stats.h"
#include "analysis/pooled_t.h"
#include "data/sample.h"

namespace gfxstat::findings {

struct MinistatStats {
    analysis::Moments moments;
    analysis::Range range;
    double median = 0;
};

// A data set's statistics (it holds at least 3 values). The median's
// selection reorders the values, as it does on the reading threads.
MinistatStats ministat_stats(data::Sample& s);

struct MinistatTable {
    std::vector<data::Sample> samples;  // at least 3 values each
    std::vector<MinistatStats> stats;   // one per sample
    // Student's t of set i against the first, at [i] for i > 0; empty when
    // no test was asked for (ministat -n).
    std::vector<analysis::PooledTInterval> against_first;
};

// `level`: the confidence in percent, in (0, 100), with ministat's own
// critical values (analysis/student_t.h).
MinistatTable ministat_table(std::vector<data::Sample> samples, std::vector<MinistatStats> stats, double level,
                             bool test);

}  // namespace gfxstat::findings
