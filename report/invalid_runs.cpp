// SPDX-License-Identifier: MIT
#include "report/invalid_runs.h"

#include <set>
#include <utility>

namespace gfxstat::cli {

std::vector<std::string> invalid_run_lines(const CompareReport& r) {
    std::vector<std::string> lines;
    std::set<std::pair<std::string, uint64_t>> seen;
    const auto add = [&](const ReportSample& s) {
        for (const auto& [run, reason] : s.counts.invalid_runs)
            if (seen.insert({s.label, run}).second)
                lines.push_back(s.label + " run " + std::to_string(run) + ": " + reason);
    };
    for (const auto& m : r.metrics) {
        add(m.baseline);
        for (const auto& c : m.candidates) add(c);
    }
    return lines;
}

}  // namespace gfxstat::cli
