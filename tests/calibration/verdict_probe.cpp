// SPDX-License-Identifier: MIT
#include "tests/calibration/verdict_probe.h"

#include <cmath>

namespace gfxstat::calibration {

using analysis::Outcome;

Probe probe_verdict(const analysis::TwoSampleComparison& c, const ProbeInputs& in) {
    // The CLI's own path (findings/comparison_analysis.cpp, analyse_comparisons).
    const analysis::VerdictInputs vi = analysis::verdict_inputs(c, in.better, in.confidence, in.threshold,
                                                                c.primary_p, "p");

    Probe p;
    p.verdict = analysis::decide(vi);
    p.gate_fails = p.verdict.outcome == Outcome::regression && p.verdict.beyond_threshold;
    p.significant = p.verdict.outcome == Outcome::regression || p.verdict.outcome == Outcome::improvement ||
                    p.verdict.outcome == Outcome::changed;
    p.change = c.change;
    // The headline interval, as every format prints it.
    p.interval = c.change_ci;
    p.interval_defined = std::isfinite(p.interval[0]) && std::isfinite(p.interval[1]);
    return p;
}

}  // namespace gfxstat::calibration
