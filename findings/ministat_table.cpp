// SPDX-License-Identifier: MIT
#include "findings/ministat_table.h"

#include "analysis/student_t.h"

namespace gfxstat::findings {

MinistatStats ministat_stats(data::Sample& s) {
    MinistatStats st;
    st.moments = analysis::moments(s.view());
    const analysis::RangeAndMedian rm = analysis::range_and_median(s.mutable_view());
    st.range = rm.range;
    st.median = rm.median;
    return st;
}

MinistatTable ministat_table(std::vector<data::Sample> samples, std::vector<MinistatStats> stats, double level,
                             bool test) {
    MinistatTable t;
    t.samples = std::move(samples);
    t.stats = std::move(stats);
    if (!test) return t;
    t.against_first.resize(t.stats.size());
    for (size_t i = 1; i < t.stats.size(); ++i) {
        const MinistatStats& s = t.stats[i];
        const int df = static_cast<int>(s.moments.n + t.stats[0].moments.n - 2);
        t.against_first[i] = analysis::pooled_t_interval(t.stats[0].moments, s.moments,
                                                         analysis::ministat_t_critical(level, df));
    }
    return t;
}

}  // namespace gfxstat::findings
