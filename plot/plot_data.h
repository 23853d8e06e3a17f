// SPDX-License-Identifier: MIT
// What the pictures draw, as plain data: filled by cli/ from the same
// analysis results the text report prints (compare's MetricReport, the
// suite table, history's change points). Nothing in plot/ computes a
// statistic: medians, intervals, boot means, verdicts arrive here ready;
// plot/ only places and draws them (binning a histogram is drawing).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gfxstat::plot {

// One run of one variant, in the order it ran.
struct RunPoint {
    double value = 0;
    size_t order = 0;        // 0-based position in the variant's run order
    std::string boot;        // boot id ("" unknown): runs are coloured by boot
    int block = -1;          // gfxstat ab's block, -1 when none
    bool warmup = false;     // recorded as a warm-up, left out of the analysis
    bool invalid = false;    // the kernel reported GPU trouble during it
    bool dropped = false;    // --drop-outliers left it out
};

// A mean (or median) with its interval: per boot, or per variant.
struct Interval {
    std::string label;       // the boot id (short) or the variant
    size_t n = 0;            // runs it summarises
    double center = 0, low = 0, high = 0;
};

struct VariantPlot {
    std::string label;
    std::vector<RunPoint> runs;          // every run with a value, warm-ups and invalid ones marked
    Interval median;                     // the median and its interval, as the report gives it
    std::vector<Interval> boots;         // per-boot means with intervals (empty: boots unknown)
};

// One metric of a comparison: the baseline first.
struct MetricPlot {
    std::string metric, unit;            // unit "" when unknown
    // The magnitude the shown unit is chosen from (text/readable_units.h):
    // compare's, the baseline's mean, so that every chart of the metric, the
    // page's heading and the text report use one unit. Unset: each chart's
    // drawn range.
    std::optional<double> unit_reference;
    std::string direction;               // "lower", "higher" or "unknown" (is better)
    std::vector<VariantPlot> variants;
    // The verdict and the change, in words, for captions ("+3.2% [+1.1%, +5.3%],
    // slower: a regression beyond the 1% threshold").
    std::string verdict;
};

// A suite's per-benchmark changes (compare on a suite, `ab` of several
// benchmarks): a forest plot.
struct ForestRow {
    std::string label;
    double change = 0, low = 0, high = 0;  // relative, 0.032 for +3.2%
    std::string verdict;                   // "regression", "improvement", "equivalent", "inconclusive", "no change"
};
struct ForestPlot {
    std::string title;
    double threshold = 0.01;               // drawn as a band around 0
    std::vector<ForestRow> rows;
    std::optional<ForestRow> geomean;      // drawn last, emphasised
};

// A metric along a series of builds with its change points (history).
struct HistoryBuild {
    std::string label;                     // short commit id or build name
    std::vector<double> values;            // its runs
};
struct HistorySegment {
    size_t first = 0, last = 0;            // build indices, inclusive
    double level = 0;                      // the segment's mean
};
struct HistoryPlot {
    std::string metric, unit;
    std::vector<HistoryBuild> builds;
    std::vector<HistorySegment> segments;
    std::vector<size_t> changes;           // index of the first build after each change
};

}  // namespace gfxstat::plot
