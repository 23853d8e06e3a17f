// SPDX-License-Identifier: MIT
#include "tests/calibration/suite_bars.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace gfxstat::calibration {

Bar hl_coverage_bar(const SuiteCellResult& r) {
    const double achieved = r.reps ? r.hl_achieved_sum / static_cast<double>(r.reps) : 1;
    return Bar{std::min(1 - kAlpha, achieved), false};
}

bool power_bar_applies(const SuiteCellResult& r) {
    return std::string(suite_noises()[r.spec.noise].name) == "suite-sd0.5" && r.spec.k >= 8 &&
           r.spec.change == SuiteChange::better5;
}

namespace {

std::string cell_name(const SuiteCellResult& r) {
    char cell[160];
    std::snprintf(cell, sizeof cell, "%s k=%zu %s", suite_noises()[r.spec.noise].name, r.spec.k,
                  suite_change_name(r.spec.change));
    return cell;
}

void check(std::vector<Miss>& out, const SuiteCellResult& r, const char* what, const Bar& bar, size_t hits,
           size_t count) {
    if (bar.met(hits, count)) return;
    char text[200];
    std::snprintf(text, sizeof text, "%s %.4f (%zu of %zu) %s bar %.4f", what,
                  static_cast<double>(hits) / static_cast<double>(count), hits, count, bar.upper ? ">" : "<",
                  bar.limit(count));
    out.push_back({cell_name(r), text});
}

}  // namespace

std::vector<Miss> suite_misses(const std::vector<SuiteCellResult>& results) {
    std::vector<Miss> out;
    for (const SuiteCellResult& r : results) {
        if (r.spec.change == SuiteChange::aa) {
            check(out, r, "A/A false --gate rate", kGateBar, r.gate_fails, r.reps);
            check(out, r, "A/A significant-verdict rate", kAnyVerdictBar, r.significant, r.reps);
        }
        check(out, r, "geomean interval coverage", kSuiteCoverageBar, r.geomean_covered, r.geomean_defined);
        check(out, r, "Hodges-Lehmann interval coverage", hl_coverage_bar(r), r.hl_covered, r.hl_defined);
        // The headline interval is the geomean's wherever the paired t
        // decided: judged on its own only where the signed-rank test did.
        if (r.by_signed_rank > 0)
            check(out, r, "headline interval coverage", kSuiteCoverageBar, r.headline_covered, r.headline_defined);
        if (power_bar_applies(r) && r.reps &&
            static_cast<double>(r.correct) < kSuitePowerFloor * static_cast<double>(r.reps)) {
            char text[200];
            std::snprintf(text, sizeof text, "power %.4f (%zu of %zu) < %.2f",
                          static_cast<double>(r.correct) / static_cast<double>(r.reps), r.correct, r.reps,
                          kSuitePowerFloor);
            out.push_back({cell_name(r), text});
        }
    }
    return out;
}

}  // namespace gfxstat::calibration
