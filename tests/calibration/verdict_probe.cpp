#include "tests/calibration/verdict_probe.h"

#include <cmath>

namespace gfxstat::calibration {

using analysis::Outcome;
using analysis::PrimaryTest;

Probe probe_verdict(const analysis::TwoSampleComparison& c, const ProbeInputs& in) {
    analysis::VerdictInputs vi;
    vi.better = in.better;
    vi.confidence = in.confidence;
    vi.threshold = in.threshold;
    vi.primary = c.primary;
    vi.p_adjusted = c.primary_p;  // holm_adjust({p}) == {p}
    vi.change = c.change;
    vi.relative_change = c.relative_change;
    vi.equivalence = c.primary_equivalence;
    vi.cv = c.cv;
    vi.by_boots = c.clustering.by_boots;

    Probe p;
    p.verdict = analysis::decide(vi);
    p.gate_fails = p.verdict.outcome == Outcome::regression && p.verdict.beyond_threshold;
    p.significant = p.verdict.outcome == Outcome::regression || p.verdict.outcome == Outcome::improvement ||
                    p.verdict.outcome == Outcome::changed;
    p.change = c.change;
    switch (c.primary.test) {
        case PrimaryTest::welch: p.interval = c.welch.ci; break;
        case PrimaryTest::mann_whitney: p.interval = c.hodges_lehmann.ci; break;
        case PrimaryTest::welch_boot_means:
        case PrimaryTest::paired_boot_means: p.interval = c.clustering.boot_means_test.ci; break;
        default:
            // A test added later (an exact comparison of a deterministic
            // metric): the change is known exactly until rewired here.
            p.interval = {c.change, c.change};
            break;
    }
    p.interval_defined = std::isfinite(p.interval[0]) && std::isfinite(p.interval[1]);
    return p;
}

}  // namespace gfxstat::calibration
