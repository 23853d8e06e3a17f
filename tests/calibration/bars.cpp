// SPDX-License-Identifier: MIT
#include "tests/calibration/bars.h"

#include <cmath>
#include <cstdio>

namespace gfxstat::calibration {

double Bar::limit(size_t count) const {
    const double slack = count ? 3 * std::sqrt(nominal * (1 - nominal) / static_cast<double>(count)) : 0;
    return upper ? nominal + slack : nominal - slack;
}

bool Bar::met(size_t hits, size_t count) const {
    if (count == 0) return true;
    const double rate = static_cast<double>(hits) / static_cast<double>(count);
    return upper ? rate <= limit(count) : rate >= limit(count);
}

namespace {

void check(std::vector<Miss>& out, const CellResult& r, const char* what, const Bar& bar, size_t hits,
           size_t count) {
    if (bar.met(hits, count)) return;
    const Family& f = families()[r.spec.family];
    char cell[160], text[200];
    std::snprintf(cell, sizeof cell, "%s n=%zu %s", f.name, r.spec.n, condition_name(r.spec.condition));
    std::snprintf(text, sizeof text, "%s %.4f (%zu of %zu) %s bar %.4f", what,
                  static_cast<double>(hits) / static_cast<double>(count), hits, count, bar.upper ? ">" : "<",
                  bar.limit(count));
    out.push_back({cell, text});
}

}  // namespace

std::vector<Miss> misses(const std::vector<CellResult>& results) {
    std::vector<Miss> out;
    for (const CellResult& r : results) {
        const Family& f = families()[r.spec.family];
        if (f.verdicts) {
            if (r.spec.condition == Condition::aa) {
                check(out, r, "A/A false --gate rate", kGateBar, r.gate_fails, r.reps);
                check(out, r, "A/A significant-verdict rate", kAnyVerdictBar, r.significant, r.reps);
            }
            if (r.spec.condition == Condition::aa || r.spec.condition == Condition::shift5)
                check(out, r, "coverage", kCoverageBar, r.covered, r.interval_defined);
        }
        if (f.clean && r.spec.condition == Condition::aa) {
            check(out, r, "false bimodal rate", kSampleBar, r.bimodal, r.samples);
            check(out, r, "false outlier-sentence rate", kSampleBar, r.outlier_sentence, r.samples);
            check(out, r, "false drift rate", kDriftBar, r.drift, r.samples);
            check(out, r, "false first-run rate", kDriftBar, r.first_run, r.samples);
        }
    }
    return out;
}

}  // namespace gfxstat::calibration
