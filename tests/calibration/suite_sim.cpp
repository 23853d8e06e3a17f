// SPDX-License-Identifier: MIT
#include "tests/calibration/suite_sim.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "analysis/paired_suite_verdict.h"
#include "analysis/t_tests.h"
#include "tests/calibration/cells.h"

namespace gfxstat::calibration {

using analysis::Better;
using analysis::Outcome;
using analysis::PrimaryTest;

namespace {

const std::vector<SuiteNoise> kNoises = {
    {"suite-sd0.5", "lognormal, sd 0.5% a value", 0.005, 0},
    {"suite-sd2", "lognormal, sd 2% a value", 0.02, 0},
    {"suite-sd5", "lognormal, sd 5% a value", 0.05, 0},
    {"suite-cliffs", "lognormal, sd 2% a value; one benchmark in eight (drawn) x0.25 or x1.5 on one side", 0.02,
     0.125},
    {"suite-sd0.5-int", "lognormal, sd 0.5% a value, rounded to an integer", 0.005, 0, true},
};

// A benchmark is lower is better in the mixed suite every fourth row.
bool lower_is_better(SuiteChange c, size_t i) { return c == SuiteChange::mixed5 && i % 4 == 3; }

}  // namespace

const std::vector<SuiteNoise>& suite_noises() { return kNoises; }

const SuiteNoise* find_suite_noise(const std::string& name) {
    for (const SuiteNoise& n : kNoises)
        if (name == n.name) return &n;
    return nullptr;
}

const char* suite_change_name(SuiteChange c) {
    switch (c) {
        case SuiteChange::aa: return "A/A";
        case SuiteChange::better2: return "x1.02";
        case SuiteChange::better5: return "x1.05";
        case SuiteChange::mixed5: return "mixed x1.05";
    }
    return "?";
}

double suite_change_ratio(SuiteChange c) {
    switch (c) {
        case SuiteChange::aa: return 1;
        case SuiteChange::better2: return 1.02;
        case SuiteChange::better5:
        case SuiteChange::mixed5: return 1.05;
    }
    return 1;
}

void draw_suite(const SuiteNoise& noise, size_t k, SuiteChange change, Rng& rng,
                std::vector<analysis::PairedValue>& out) {
    out.resize(k);
    const double ratio = suite_change_ratio(change);
    for (size_t i = 0; i < k; ++i) {
        const bool lower = lower_is_better(change, i);
        const double level = 50 * std::pow(100.0, rng.uniform());
        double b = level * std::exp(noise.sd * rng.normal());
        double c = level * (lower ? 1 / ratio : ratio) * std::exp(noise.sd * rng.normal());
        // Three draws a benchmark, cliff or not: the draws of one
        // benchmark never depend on whether an earlier one had a cliff.
        const double u_cliff = rng.uniform(), u_side = rng.uniform(), u_factor = rng.uniform();
        if (u_cliff < noise.cliff_share) (u_side < 0.5 ? b : c) *= u_factor < 0.5 ? 0.25 : 1.5;
        if (noise.integers) {
            b = std::round(b);
            c = std::round(c);
        }
        out[i] = {b, c, lower ? Better::lower : Better::higher};
    }
}

std::vector<SuiteCellSpec> suite_cells(uint64_t seed, size_t reps, bool quick) {
    std::vector<SuiteCellSpec> out;
    for (size_t ni = 0; ni < kNoises.size(); ++ni)
        for (size_t k : kSuiteSizes)
            for (size_t ci = 0; ci < std::size(kSuiteChanges); ++ci) {
                const SuiteChange c = kSuiteChanges[ci];
                if (quick && !(c == SuiteChange::aa || (c == SuiteChange::better5 && k >= 8))) continue;
                SuiteCellSpec s;
                s.noise = ni;
                s.k = k;
                s.change = c;
                s.reps = reps;
                // The cell's identity, kept apart from the two-sample cells'
                // (cells.cpp) by its own offset.
                s.seed = analysis::mix64(seed ^ analysis::mix64(0x5117e0000ULL + (ni + 1) * 1000003 + k * 101 + ci));
                out.push_back(s);
            }
    return out;
}

SuiteCellResult run_suite_cell(const SuiteCellSpec& spec) {
    const SuiteNoise& noise = kNoises[spec.noise];
    const double truth = suite_change_ratio(spec.change);
    SuiteCellResult r;
    r.spec = spec;
    analysis::PairedSuiteOptions opt;
    opt.confidence = 1 - kAlpha;
    opt.threshold = kThreshold;
    std::vector<analysis::PairedValue> pairs;
    std::vector<double> baseline;
    const auto holds = [&](const std::array<double, 2>& ci, size_t& defined, size_t& covered) {
        if (!std::isfinite(ci[0]) || !std::isfinite(ci[1])) return;
        ++defined;
        covered += ci[0] <= truth && truth <= ci[1];
    };
    for (size_t rep = 0; rep < spec.reps; ++rep) {
        Rng rng(analysis::mix64(spec.seed + rep));
        draw_suite(noise, spec.k, spec.change, rng, pairs);
        // compare's path (findings/compare_suite.cpp, analyse_paired_suite) for
        // one candidate: Holm over a family of one leaves p as it is.
        const analysis::PairedSuite s = analysis::analyse_paired_suite(pairs, opt);
        const analysis::PrimaryChoice primary = analysis::paired_suite_primary(s);
        const std::vector<double> adjusted = analysis::holm_adjust({analysis::paired_suite_p(s, primary)});
        baseline.clear();
        for (const analysis::PairedValue& p : pairs) baseline.push_back(p.baseline);
        const analysis::Verdict v = analysis::decide(analysis::paired_suite_verdict_inputs(
            s, primary, baseline, opt.confidence, opt.threshold, adjusted[0], "p"));

        ++r.reps;
        const bool significant =
            v.outcome == Outcome::improvement || v.outcome == Outcome::regression || v.outcome == Outcome::changed;
        r.significant += significant;
        r.gate_fails += v.outcome == Outcome::regression && v.beyond_threshold;
        r.correct += spec.change != SuiteChange::aa && v.outcome == Outcome::improvement;
        r.wrong_way += spec.change != SuiteChange::aa && v.outcome == Outcome::regression;
        r.no_change += v.outcome == Outcome::no_change;
        r.inconclusive += v.outcome == Outcome::inconclusive;
        const bool signed_rank = primary.test == PrimaryTest::signed_rank_benchmarks;
        r.by_signed_rank += signed_rank;
        r.significant_by_signed_rank += signed_rank && significant;
        const bool reject = adjusted[0] < kAlpha;
        r.rejects += reject;
        r.rejects_by_signed_rank += signed_rank && reject;
        r.t_rejects += s.t.p < kAlpha;
        r.wilcoxon_rejects += s.wilcoxon.p < kAlpha;

        holds(s.geomean_ci, r.geomean_defined, r.geomean_covered);
        holds(s.hl_ratio_ci, r.hl_defined, r.hl_covered);
        r.hl_achieved_sum += s.hodges_lehmann.achieved_confidence;
        holds(signed_rank ? s.hl_ratio_ci : s.geomean_ci, r.headline_defined, r.headline_covered);
        if (signed_rank) holds(s.hl_ratio_ci, r.signed_rank_defined, r.signed_rank_covered);
    }
    return r;
}

std::vector<SuiteCellResult> run_suite_cells(const std::vector<SuiteCellSpec>& specs, unsigned threads) {
    std::vector<SuiteCellResult> out(specs.size());
    // Largest suites first, so that the last thread is not left with the
    // k = 30 cells alone.
    std::vector<size_t> order(specs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return specs[x].k * specs[x].reps > specs[y].k * specs[y].reps; });
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < order.size();) out[order[i]] = run_suite_cell(specs[order[i]]);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    return out;
}

}  // namespace gfxstat::calibration
