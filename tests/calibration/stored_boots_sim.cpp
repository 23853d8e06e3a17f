// SPDX-License-Identifier: MIT
#include "tests/calibration/stored_boots_sim.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <thread>

#include "analysis/comparison.h"
#include "tests/calibration/families.h"
#include "tests/calibration/verdict_probe.h"

namespace gfxstat::calibration {

using analysis::Outcome;

const char* boot_levels_name(BootLevels l) { return l == BootLevels::t3 ? "t3" : "normal"; }

namespace {

// Boots of `count` runs each, levels drawn as the header says; ids
// prefixed by `side` so that no boot is shared.
struct Side {
    std::vector<double> values;
    std::vector<uint32_t> boot_of_value;
    std::vector<std::string> ids;
    analysis::SampleLayout layout() const {
        analysis::SampleLayout l;
        l.boot_of_value = boot_of_value;
        l.boot_ids = ids;
        return l;
    }
};

void draw(const StoredCellSpec& s, size_t boots, double factor, const char* side, Rng& rng, Side& out) {
    out.values.clear();
    out.boot_of_value.clear();
    out.ids.clear();
    for (size_t b = 0; b < boots; ++b) {
        const double z = s.levels == BootLevels::t3 ? rng.student_t3() / std::sqrt(3.0) : rng.normal();
        const double level = 100 + s.ratio * z;
        out.ids.push_back(std::string(side) + std::to_string(b));
        for (size_t r = 0; r < s.runs; ++r) {
            out.values.push_back(factor * (level + rng.normal()));
            out.boot_of_value.push_back(static_cast<uint32_t>(b));
        }
    }
}

}  // namespace

std::vector<StoredCellSpec> stored_cells(uint64_t seed, size_t reps, bool quick) {
    std::vector<StoredCellSpec> out;
    uint64_t id = 0;
    for (BootLevels l : {BootLevels::normal, BootLevels::t3})
        for (double ratio : kBootRatios)
            for (size_t runs : kRunsPerBoot)
                for (bool regression : {false, true})
                    for (size_t k : kCandidateBoots)
                        for (size_t boots : kBaselineBoots) {
                            ++id;
                            // k > B is no gate against history; k = B is compare's A/B of
                            // two sets of boots, kept as the grid asks for it.
                            if (k > boots) continue;
                            // Quick (ctest): A/A at 5 runs a boot against 5 and 10 stored
                            // boots (history only: k < B), B = 3 at k = 1, and one power
                            // cell a kind of level.
                            if (quick && (runs != 5 || boots == 30 || k == boots || (boots == 3 && k != 1) ||
                                          (regression && (ratio != 1 || k != 1 || boots != 10))))
                                continue;
                            out.push_back({l, ratio, runs, k, boots, regression, reps,
                                           analysis::mix64(seed ^ (0x5B0075ULL + id * 0x9E3779B97F4A7C15ULL))});
                        }
    return out;
}

StoredCellResult run_stored_cell(const StoredCellSpec& spec) {
    StoredCellResult r;
    r.spec = spec;
    analysis::ComparisonOptions opt;
    opt.confidence = 1 - kAlpha;
    opt.threshold = kThreshold;
    opt.bootstrap_resamples = 0;
    opt.threads = 1;
    ProbeInputs in;
    in.better = analysis::Better::higher;
    in.confidence = opt.confidence;
    in.threshold = opt.threshold;
    Side a, b;
    for (size_t rep = 0; rep < spec.reps; ++rep) {
        Rng rng(analysis::mix64(spec.seed + rep));
        draw(spec, spec.boots, 1, "b", rng, a);
        draw(spec, spec.k, spec.regression ? kStoredRegression : 1, "c", rng, b);
        std::vector<double> va = a.values, vb = b.values;  // compare_samples reorders its values
        const auto c = analysis::compare_samples(analysis::MutableScaledValues{std::span<double>(va), 0},
                                                 analysis::MutableScaledValues{std::span<double>(vb), 0}, opt,
                                                 a.layout(), b.layout());
        const Probe p = probe_verdict(c, in);
        ++r.reps;
        r.by_design += c.primary.test == analysis::PrimaryTest::stored_boots && !p.verdict.not_judged;
        r.not_judged += p.verdict.not_judged;
        r.regressions += p.verdict.outcome == Outcome::regression;
        r.gate_fails += p.gate_fails;
        r.significant += p.significant;
        r.no_change += p.verdict.outcome == Outcome::no_change;
        r.naive_regressions += c.welch.defined && c.welch.p < kAlpha && c.welch.difference < 0;
    }
    return r;
}

std::vector<StoredCellResult> run_stored_cells(const std::vector<StoredCellSpec>& specs, unsigned threads) {
    std::vector<StoredCellResult> out(specs.size());
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < specs.size();) out[i] = run_stored_cell(specs[i]);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    return out;
}

namespace {

std::string cell_name(const StoredCellSpec& s) {
    char b[160];
    std::snprintf(b, sizeof b, "stored-boots %s sb/sw=%g n=%zu k=%zu B=%zu %s", boot_levels_name(s.levels),
                  s.ratio, s.runs, s.k, s.boots, s.regression ? "x0.95" : "A/A");
    return b;
}

}  // namespace

std::vector<Miss> stored_misses(const std::vector<StoredCellResult>& results) {
    std::vector<Miss> out;
    constexpr Bar kRegressionBar{kAlpha, true};
    for (const StoredCellResult& r : results) {
        if (r.spec.regression) continue;
        const size_t judged = r.reps - r.not_judged;
        for (const auto& [what, hits, bar] : {std::tuple{"A/A false regression rate", r.regressions, kRegressionBar},
                                              std::tuple{"A/A significant-verdict rate", r.significant, kAnyVerdictBar}}) {
            if (bar.met(hits, judged)) continue;
            char text[200];
            std::snprintf(text, sizeof text, "%s %.4f (%zu of %zu judged) > bar %.4f", what,
                          static_cast<double>(hits) / static_cast<double>(judged), hits, judged, bar.limit(judged));
            out.push_back({cell_name(r.spec), text});
        }
        if (r.spec.boots < analysis::kStoredBootsMinBaseline && r.not_judged != r.reps)
            out.push_back({cell_name(r.spec), "judged although the baseline has too few boots"});
    }
    return out;
}

}  // namespace gfxstat::calibration
