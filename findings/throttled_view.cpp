// SPDX-License-Identifier: MIT
#include "findings/throttled_view.h"

#include "data/input_error.h"
#include "data/throttled_runs.h"

namespace gfxstat::cli {

std::optional<ThrottleReport> throttle_sides(const std::vector<data::ResultsFile>& files, const MetricReport& first) {
    std::vector<const ReportSample*> sides = {&first.baseline};
    for (const auto& c : first.candidates) sides.push_back(&c);
    ThrottleReport t;
    // One file: its variants' counts from one pass, not a pass per side (a
    // suite of 20,000 variants compared with its baseline).
    const auto by_variant =
        files.size() == 1 ? data::count_throttled_by_variant(files[0])
                          : std::unordered_map<std::string, data::ThrottledCount>{};
    for (size_t i = 0; i < sides.size(); ++i) {
        data::ThrottledCount n;
        if (files.size() == 1) {
            if (sides[i]->label.empty()) {
                // count_throttled's "every variant": the sum of the one pass's
                // counts, not a second pass over the runs.
                for (const auto& [variant, count] : by_variant) {
                    n.measured += count.measured;
                    n.throttled += count.throttled;
                }
            } else if (const auto it = by_variant.find(sides[i]->label); it != by_variant.end()) {
                n = it->second;
            }
        } else if (i < files.size()) {
            n = data::count_throttled(files[i]);
        }
        t.sides.push_back({sides[i]->label, n.throttled, n.measured});
    }
    if (t.throttled() == 0) return std::nullopt;
    return t;
}

void check_runs_left(const std::vector<std::string>& names, const std::vector<data::ResultsFile>& files,
                     const std::vector<data::ResultsFile>& kept) {
    if (files.size() < 2) return;  // one file: compare says which variant has too few runs
    for (size_t i = 0; i < files.size() && i < kept.size() && i < names.size(); ++i) {
        const auto before = files[i].variants();
        if (before.size() != 1 || !kept[i].variants().empty()) continue;
        const data::ThrottledCount n = data::count_throttled(files[i]);
        throw data::input_error(names[i], 0,
                                "every measured run of '" + before[0] + "' was throttled (" +
                                    std::to_string(n.throttled) + " of " + std::to_string(n.measured) +
                                    "): none is left without them");
    }
}

std::vector<VerdictWithout> verdicts_without(const CompareReport& with, const CompareReport& without) {
    std::vector<VerdictWithout> out;
    for (const MetricReport& m : with.metrics)
        for (size_t k = 0; k < m.candidates.size() && k < m.verdicts.size(); ++k) {
            VerdictWithout v;
            v.metric = m.metric;
            v.candidate = m.candidates[k].label;
            v.with = m.verdicts[k].outcome;
            v.why_not = "the unthrottled runs do not hold this comparison";
            for (const MetricReport& w : without.metrics) {
                if (w.metric != m.metric) continue;
                for (size_t j = 0; j < w.candidates.size() && j < w.verdicts.size(); ++j) {
                    if (w.candidates[j].label != v.candidate) continue;
                    v.compared = true;
                    v.without = w.verdicts[j].outcome;
                    v.relative_change = w.comparisons[j].relative_change;
                    v.change = w.comparisons[j].change;
                }
            }
            out.push_back(std::move(v));
        }
    return out;
}

}  // namespace gfxstat::cli
