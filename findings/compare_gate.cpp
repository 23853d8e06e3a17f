// SPDX-License-Identifier: MIT
#include "findings/compare_gate.h"

namespace gfxstat::findings {

int gate_status(const cli::CompareReport& report, bool gate, bool strict) {
    if (!gate) return 0;
    bool regression = false, inconclusive = false;
    // A suite tested as pairs: its verdicts are the suite's, one per candidate.
    for (const auto& p : report.paired) {
        regression |= p.verdict.outcome == analysis::Outcome::regression && p.verdict.beyond_threshold;
        inconclusive |= p.verdict.outcome == analysis::Outcome::inconclusive;
    }
    for (const auto& m : report.metrics)
        for (const auto& v : m.verdicts) {
            if (!m.primary) continue;  // secondary metrics are reported, never gate
            regression |= v.outcome == analysis::Outcome::regression && v.beyond_threshold;
            // A design that could not judge (too few stored boots, another
            // machine's) says so in a sentence; it is not the candidate's failing.
            inconclusive |= v.outcome == analysis::Outcome::inconclusive && !v.not_judged;
        }
    // A candidate whose images differ fails whatever its timing, unless
    // --allow-image-change (findings/image_checks.h).
    if (report.images)
        for (const auto& c : report.images->comparisons) regression |= image_gate_fails(c, report.allow_image_change);
    if (regression) return 1;
    if (strict && inconclusive) return 3;
    return 0;
}

}  // namespace gfxstat::findings
