// SPDX-License-Identifier: MIT
#include "report/ministat_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "analysis/ministat_plot.h"
#include "report/metric_direction_words.h"
#include "text/text_escape.h"

namespace gfxstat::report {

using text::escape_text;

namespace {

// "95.0" for the levels ministat knows (as it prints them); other levels
// with as many digits as they were given, so 99.95 is not shown as 100.0.
std::string format_level(double level) {
    char buf[64];
    if (std::fabs(level * 10 - std::round(level * 10)) < 1e-9) {
        std::snprintf(buf, sizeof buf, "%.1f", level);
    } else {
        for (int prec = 2; prec <= 17; ++prec) {
            std::snprintf(buf, sizeof buf, "%.*f", prec, level);
            if (std::strtod(buf, nullptr) == level) break;
        }
    }
    return buf;
}

}  // namespace

void print_ministat_report(const findings::MinistatTable& table, const MinistatLayout& o) {
    const std::vector<data::Sample>& samples = table.samples;
    const std::vector<findings::MinistatStats>& stats = table.stats;
    for (size_t i = 0; i < samples.size(); ++i)
        std::printf("%c %s\n", analysis::ministat_symbol(static_cast<int>(i + 1)),
                    escape_text(samples[i].name).c_str());

    if (!o.stats_only && !o.no_plot) {
        std::vector<analysis::PlotSet> sets;
        for (size_t i = 0; i < samples.size(); ++i)
            sets.push_back({samples[i].view(), stats[i].moments.mean, stats[i].median,
                            stats[i].moments.stddev, stats[i].range.min, stats[i].range.max});
        analysis::PlotOptions opt;
        opt.width = o.width;
        opt.separate_bars = o.separate;
        for (const std::string& line : analysis::ministat_plot(sets, opt))
            std::printf("%s\n", line.c_str());
    }

    std::printf("    N           Min           Max        Median           Avg        Stddev\n");
    const std::string level_text = format_level(o.level);
    for (size_t i = 0; i < samples.size(); ++i) {
        const findings::MinistatStats& s = stats[i];
        std::printf("%c %3zu %13.8g %13.8g %13.8g %13.8g %13.8g\n",
                    analysis::ministat_symbol(static_cast<int>(i + 1)), s.moments.n, s.range.min,
                    s.range.max, s.median, s.moments.mean, s.moments.stddev);
        if (i == 0 || o.stats_only) continue;
        const analysis::PooledTInterval& r = table.against_first[i];
        if (r.significant) {
            std::printf("Difference at %s%% confidence\n", level_text.c_str());
            std::printf("\t%g +/- %g\n", r.difference, r.halfwidth);
            std::printf("\t%g%% +/- %g%%\n", r.relative_difference_percent,
                        r.relative_halfwidth_percent);
            std::printf("\t(Student's t, pooled s = %g)\n", r.pooled_sd);
        } else {
            std::printf("No difference proven at %s%% confidence\n", level_text.c_str());
        }
    }
}

// "== gl_manhattan (fps, higher is better) ==": what the report below is of.
std::string ministat_metric_heading(const data::MetricInfo& m) {
    std::string head = "== " + m.name + " (";
    if (!m.unit.empty()) head += m.unit + ", ";
    return head + direction_words(m.direction) + ") ==";
}

}  // namespace gfxstat::report
