// SPDX-License-Identifier: MIT
#include "tests/calibration/cells.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "analysis/comparison.h"
#include "tests/calibration/verdict_probe.h"

namespace gfxstat::calibration {

using analysis::Better;
using analysis::PrimaryTest;

const char* condition_name(Condition c) {
    switch (c) {
        case Condition::aa: return "A/A";
        case Condition::scale2: return "x1.02";
        case Condition::scale5: return "x1.05";
        case Condition::scale10: return "x1.10";
        case Condition::shift5: return "+5% shift";
    }
    return "?";
}

Change change_for(const Family& f, Condition c) {
    Change ch;
    switch (c) {
        case Condition::aa: break;
        case Condition::scale2: ch.scale = 1.02; break;
        case Condition::scale5: ch.scale = 1.05; break;
        case Condition::scale10: ch.scale = 1.10; break;
        case Condition::shift5: ch.shift = kCoverageShift * f.mean; break;
    }
    return ch;
}

namespace {

// The quick subset: one family of each kind of trouble (plain, skewed,
// quantised, discrete, clustered, drifting, constant, exact, detection)
// at a small, a middling and a large n.
bool in_quick(const Family& f, size_t n, Condition c) {
    static const char* const names[] = {"normal", "lognormal-0.5", "latency-1us", "fps-60-30",   "boot-modes",
                                        "drift",  "constant",      "deterministic", "mixture-D4", "outlier"};
    bool family = false;
    for (const char* name : names) family |= std::string(name) == f.name;
    return family && (n == 3 || n == 10 || n == 50) && (c == Condition::aa || c == Condition::scale10);
}

// The outlier sentence as the reports write it (report/diagnostic_words.cpp,
// sample_findings): values beyond the calibrated cutoff c(n)
// (Outlier::reported), and none when the sample is bimodal (its second
// mode is not a set of outliers).
bool outlier_sentence(const analysis::SampleDiagnostics& d) {
    return !d.bimodality.bimodal && d.outliers.reported > 0;
}

bool planted_reported(const analysis::SampleDiagnostics& d, size_t at) {
    if (d.bimodality.bimodal) return false;
    for (const auto& o : d.outliers.outliers)
        if (o.index == at && o.reported) return true;
    return false;
}

void count_sample(const analysis::SampleDiagnostics& d, const Sample& s, CellResult& r) {
    ++r.samples;
    r.bimodal += d.bimodality.bimodal;
    r.outlier_sentence += outlier_sentence(d);
    if (s.planted) r.planted_found += planted_reported(d, *s.planted);
    r.drift += d.trending || d.shifted || d.trending_within_boots;
    r.first_run += d.first_run_differs;
}

}  // namespace

std::vector<CellSpec> table_cells(uint64_t seed, size_t reps, bool quick) {
    std::vector<CellSpec> out;
    const auto& fams = families();
    for (size_t fi = 0; fi < fams.size(); ++fi)
        for (size_t ni = 0; ni < std::size(kSizes); ++ni)
            for (size_t ci = 0; ci < std::size(kConditions); ++ci) {
                const Condition c = kConditions[ci];
                if (!fams[fi].verdicts && c != Condition::aa) continue;
                if (quick && !in_quick(fams[fi], kSizes[ni], c)) continue;
                CellSpec s;
                s.family = fi;
                s.n = kSizes[ni];
                s.condition = c;
                s.reps = reps;
                // The cell's identity, not its position in the list: a
                // quick run draws the same replicates as the full table.
                s.seed = analysis::mix64(seed ^ analysis::mix64((fi + 1) * 1000003 + kSizes[ni] * 101 + ci));
                out.push_back(s);
            }
    return out;
}

CellResult run_cell(const CellSpec& spec) {
    const Family& f = families()[spec.family];
    const Change change = change_for(f, spec.condition);
    const double truth = change.shift;  // every location estimand moves by the shift; 0 in A/A
    CellResult r;
    r.spec = spec;
    analysis::ComparisonOptions opt;
    opt.confidence = 1 - kAlpha;
    opt.threshold = kThreshold;
    opt.bootstrap_resamples = 0;  // the bootstrap does not feed the verdict
    opt.diagnostics = true;
    opt.threads = 1;              // cells run in parallel instead
    ProbeInputs in;
    in.better = f.better;
    in.confidence = opt.confidence;
    in.threshold = opt.threshold;
    opt.exact = f.exact;  // the verdict follows the comparison
    // Which significant outcome is the right one under a scale > 1.
    const analysis::Outcome right = f.better == Better::lower ? analysis::Outcome::regression
                                                              : analysis::Outcome::improvement;
    Sample a, b;
    for (size_t rep = 0; rep < spec.reps; ++rep) {
        Rng rng(analysis::mix64(spec.seed + rep));
        generate(f, spec.n, Change{}, "b", rng, a);
        generate(f, spec.n, change, "c", rng, b);
        // compare_samples reorders the values (median selection): hand it
        // copies and keep the samples in run order for the planted index.
        std::vector<double> va = a.values, vb = b.values;
        const auto c = analysis::compare_samples(
            analysis::MutableScaledValues{std::span<double>(va), 0},
            analysis::MutableScaledValues{std::span<double>(vb), 0}, opt, a.layout(), b.layout());
        const Probe p = probe_verdict(c, in);
        ++r.reps;
        r.gate_fails += p.gate_fails;
        r.significant += p.significant;
        r.correct += p.verdict.outcome == right;
        r.no_change += p.verdict.outcome == analysis::Outcome::no_change;
        r.inconclusive += p.verdict.outcome == analysis::Outcome::inconclusive;
        switch (c.primary.test) {
            case PrimaryTest::welch: ++r.by_welch; break;
            case PrimaryTest::mann_whitney: ++r.by_mann_whitney; break;
            case PrimaryTest::welch_boot_means:
            case PrimaryTest::paired_boot_means: ++r.by_boot_means; break;
            // Fleets: these families have no machines (the machine-level
            // test is calibrated in tests/unit/analysis/fleet_calibration_test.cpp).
            case PrimaryTest::paired_machine_means:
            case PrimaryTest::welch_machine_means: ++r.by_other; break;
            default: ++r.by_other; break;  // tests added since (an exact comparison)
        }
        if (p.interval_defined) {
            ++r.interval_defined;
            // On quantised and discrete data the interval's ends are
            // pairwise differences such as (60 + 2.85) - 60, which differ
            // from the shift 2.85 in the last bits: a rounding error of the
            // data, not a miss of the interval, so allow for it.
            const double tol = 1e-9 * std::fabs(f.mean);
            r.covered += p.interval[0] - tol <= truth && truth <= p.interval[1] + tol;
        }
        if (spec.condition == Condition::aa && c.baseline_diagnostics && c.candidate_diagnostics) {
            count_sample(*c.baseline_diagnostics, a, r);
            count_sample(*c.candidate_diagnostics, b, r);
        }
    }
    return r;
}

std::vector<CellResult> run_cells(const std::vector<CellSpec>& specs, unsigned threads) {
    std::vector<CellResult> out(specs.size());
    // Largest cells first, so that the last thread is not left with the
    // n = 50 cells alone.
    std::vector<size_t> order(specs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return specs[x].n * specs[x].reps > specs[y].n * specs[y].reps; });
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t k; (k = next.fetch_add(1)) < order.size();) out[order[k]] = run_cell(specs[order[k]]);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    return out;
}

}  // namespace gfxstat::calibration
