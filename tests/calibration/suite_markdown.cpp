// SPDX-License-Identifier: MIT
#include "tests/calibration/suite_markdown.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "tests/calibration/suite_bars.h"

namespace gfxstat::calibration {

namespace {

double rate(size_t hits, size_t count) {
    return count ? static_cast<double>(hits) / static_cast<double>(count) : std::nan("");
}

std::string pct(double x) {
    if (std::isnan(x)) return "—";
    // A few suites in 40000 are not none.
    if (x > 0 && x < 0.0001) return "<0.01%";
    char b[32];
    std::snprintf(b, sizeof b, x > 0 && x < 0.001 ? "%.2f%%" : "%.1f%%", x * 100);
    return b;
}

// A rate against its bar: bold with a cross when it misses.
std::string judged(size_t hits, size_t count, const Bar* bar) {
    if (count == 0) return "—";
    const std::string s = pct(rate(hits, count));
    return bar && !bar->met(hits, count) ? "**" + s + "** ✗" : s;
}

const SuiteCellResult* find(const std::vector<SuiteCellResult>& rs, size_t noise, size_t k, SuiteChange c) {
    for (const SuiteCellResult& r : rs)
        if (r.spec.noise == noise && r.spec.k == k && r.spec.change == c) return &r;
    return nullptr;
}

std::vector<size_t> sizes_of(const std::vector<SuiteCellResult>& rs) {
    std::vector<size_t> out;
    for (size_t k : kSuiteSizes)
        if (std::any_of(rs.begin(), rs.end(), [&](const SuiteCellResult& r) { return r.spec.k == k; }))
            out.push_back(k);
    return out;
}

using CellText = std::function<std::string(const SuiteCellResult&)>;

// Rows: each noise under each of `changes` (the change named in the row
// when there are several); columns: the suite sizes.
void table(std::FILE* out, const std::vector<SuiteCellResult>& rs, std::initializer_list<SuiteChange> changes,
           const CellText& text) {
    const std::vector<size_t> sizes = sizes_of(rs);
    std::fprintf(out, "| noise |%s", changes.size() > 1 ? " change |" : "");
    for (size_t k : sizes) std::fprintf(out, " k=%zu |", k);
    std::fprintf(out, "\n|---|%s", changes.size() > 1 ? "---|" : "");
    for (size_t i = 0; i < sizes.size(); ++i) std::fprintf(out, "---:|");
    std::fprintf(out, "\n");
    for (size_t ni = 0; ni < suite_noises().size(); ++ni)
        for (SuiteChange c : changes) {
            bool any = false;
            for (size_t k : sizes) any |= find(rs, ni, k, c) != nullptr;
            if (!any) continue;
            std::fprintf(out, "| %s |", suite_noises()[ni].name);
            if (changes.size() > 1) std::fprintf(out, " %s |", suite_change_name(c));
            for (size_t k : sizes) {
                const SuiteCellResult* r = find(rs, ni, k, c);
                std::fprintf(out, " %s |", r ? text(*r).c_str() : " ");
            }
            std::fprintf(out, "\n");
        }
    std::fprintf(out, "\n");
}

std::string bar_words(const Bar& b, size_t count) {
    char s[160];
    std::snprintf(s, sizeof s, "%s %.1f%% (with slack at %zu: %.2f%%)", b.upper ? "≤" : "≥", b.nominal * 100,
                  count, b.limit(count) * 100);
    return s;
}

// Power: the share called an improvement, and the share wrongly shown
// equivalent ("no change") when there is any.
std::string power_text(const SuiteCellResult& r) {
    std::string s = pct(rate(r.correct, r.reps));
    if (power_bar_applies(r) && static_cast<double>(r.correct) < kSuitePowerFloor * static_cast<double>(r.reps))
        s = "**" + s + "** ✗";
    if (r.no_change) s += " (" + pct(rate(r.no_change, r.reps)) + " no change)";
    if (r.wrong_way) s += " (" + pct(rate(r.wrong_way, r.reps)) + " regression)";
    return s;
}

std::string hl_text(const SuiteCellResult& r) {
    const Bar bar = hl_coverage_bar(r);
    std::string s = judged(r.hl_covered, r.hl_defined, &bar);
    if (bar.nominal < kSuiteCoverageBar.nominal) s += " (level " + pct(bar.nominal) + ")";
    return s;
}

}  // namespace

void write_suite_text(std::FILE* out, const std::vector<SuiteCellResult>& rs, const RunInfo& info) {
    std::fprintf(out, "# gfxstat calibration, suites measured once a side: seed %llu, R = %zu%s, %.1f s\n",
                 static_cast<unsigned long long>(info.seed), info.reps, info.quick ? " (quick)" : "", info.seconds);
    std::fprintf(out, "# noise k change: gate significant correct wrong_way no_change inconclusive | signed_rank "
                      "(significant) | p < alpha: primary (signed-rank chosen) t wilcoxon | coverage geomean hl "
                      "(achieved) headline (signed-rank chosen)\n");
    for (const SuiteCellResult& r : rs)
        std::fprintf(out,
                     "%-15s %3zu %-11s: %6.4f %6.4f %6.4f %6.4f %6.4f %6.4f | %6.4f (%6.4f) | %6.4f (%6.4f) %6.4f "
                     "%6.4f | %6.4f %6.4f (%6.4f) %6.4f (%6.4f)\n",
                     suite_noises()[r.spec.noise].name, r.spec.k, suite_change_name(r.spec.change),
                     rate(r.gate_fails, r.reps), rate(r.significant, r.reps), rate(r.correct, r.reps),
                     rate(r.wrong_way, r.reps), rate(r.no_change, r.reps), rate(r.inconclusive, r.reps),
                     rate(r.by_signed_rank, r.reps), rate(r.significant_by_signed_rank, r.by_signed_rank),
                     rate(r.rejects, r.reps), rate(r.rejects_by_signed_rank, r.by_signed_rank),
                     rate(r.t_rejects, r.reps), rate(r.wilcoxon_rejects, r.reps),
                     rate(r.geomean_covered, r.geomean_defined), rate(r.hl_covered, r.hl_defined),
                     r.reps ? r.hl_achieved_sum / static_cast<double>(r.reps) : std::nan(""),
                     rate(r.headline_covered, r.headline_defined),
                     rate(r.signed_rank_covered, r.signed_rank_defined));
}

void write_suite_markdown(std::FILE* out, const std::vector<SuiteCellResult>& rs, const RunInfo& info) {
    const size_t R = info.reps;
    std::fprintf(out, "\n## Suites measured once a side, tested as pairs\n\n");
    std::fprintf(out,
                 "Generated %s by `gfxstat_calibration` (tests/calibration/suite_sim.cpp; `make calibration`)%s%s: "
                 "seed %llu, R = %zu suites per cell%s, %zu cells, %.0f s. Reproducible from the seed: "
                 "`gfxstat_calibration --suites --seed %llu --suite-reps %zu --markdown`.\n\n",
                 info.date.c_str(), info.label.empty() ? "" : " on ", info.label.c_str(),
                 static_cast<unsigned long long>(info.seed), R, info.quick ? " (quick subset)" : "", rs.size(),
                 info.seconds, static_cast<unsigned long long>(info.seed), R);
    std::fprintf(out,
                 "### How to read this\n\n"
                 "Each cell simulates R suites of k benchmarks, each measured once a side (the per-test averages "
                 "a thread pastes, one rate per IGT row), and runs exactly what `gfxstat compare` runs on them "
                 "(findings/compare_suite.cpp, analysis/paired_suite_verdict.h; default `--confidence 0.95 "
                 "--threshold 1`, one candidate so Holm's adjustment changes nothing): the benchmarks are the "
                 "pairs, the differences are their log ratios turned so that above 0 is better, and the primary "
                 "test is the paired t, or the Wilcoxon signed-rank test when 8 or more nonzero differences look "
                 "far from normal.\n\n"
                 "* The benchmarks' levels differ widely, log-uniform between 50 and 5000 (GfxBench tests, IGT "
                 "rates); each value has its own lognormal noise (the *noise* column, below), so the two values of "
                 "a benchmark differ by about 1.4 times that sd.\n"
                 "* **A/A** suites change nothing: every *improvement* or *regression* is a false alarm, and a "
                 "false `--gate` failure is a regression beyond the 1%% threshold; *no change* (equivalence "
                 "within 1%% shown) is the right answer, when the suite can show it.\n"
                 "* **Power**: every benchmark 2%% or 5%% better (all rows higher is better); *mixed x1.05*: "
                 "every benchmark 5%% better in a suite where one row in four is lower is better (a time, divided "
                 "by 1.05), so the raw values move both ways. The rate is the share called an *improvement*; in "
                 "brackets the share wrongly called *no change* or a *regression*, when any.\n"
                 "* **Coverage** is how often an interval holds the true ratio (1, 1.02 or 1.05): the geomean's "
                 "(exp of the paired t interval), the Hodges-Lehmann one (exact below 50 nonzero differences "
                 "without ties; its level is what the signed-rank distribution reaches, 87.5%% at k = 4, shown "
                 "when below 95%%) and the *headline* one, the interval of the test that decided: what the suite "
                 "row prints.\n"
                 "* The **signed-rank** tables show how often the shape rule chose that test, and what it did "
                 "where it was chosen: the choice is made on the data, so a test can be right on average and "
                 "wrong where it is picked.\n\n"
                 "Bars at R = %zu: A/A any significant verdict %s; A/A `--gate` %s; coverage %s for the geomean "
                 "and the headline interval (the latter judged where the signed-rank test decided at least "
                 "once), and the interval's own level minus the same slack for Hodges-Lehmann; power at x1.05 with "
                 "sd 0.5%% and k ≥ 8 at least %.0f%%. A procedure exactly at its nominal rate misses a bar about "
                 "once in 700 checks.\n\n",
                 R, bar_words(kAnyVerdictBar, R).c_str(), bar_words(kGateBar, R).c_str(),
                 bar_words(kSuiteCoverageBar, R).c_str(), kSuitePowerFloor * 100);

    std::fprintf(out, "### Noise\n\n| noise | each value |\n|---|---|\n");
    for (const SuiteNoise& n : suite_noises()) std::fprintf(out, "| %s | %s |\n", n.name, n.description);
    std::fprintf(out, "\n");

    std::fprintf(out, "### A/A: any significant verdict (improvement or regression)\n\n");
    table(out, rs, {SuiteChange::aa}, [](const SuiteCellResult& r) {
        return judged(r.significant, r.reps, &kAnyVerdictBar);
    });
    std::fprintf(out, "### A/A: false `--gate` failures (regression beyond the threshold)\n\n");
    table(out, rs, {SuiteChange::aa}, [](const SuiteCellResult& r) { return judged(r.gate_fails, r.reps, &kGateBar); });
    std::fprintf(out, "### A/A: \"no change\" (equivalence within 1%% shown; the right answer)\n\n");
    table(out, rs, {SuiteChange::aa}, [](const SuiteCellResult& r) { return judged(r.no_change, r.reps, nullptr); });
    std::fprintf(out,
                 "### A/A: p below 5%%, whatever the verdict: the primary test, the paired t alone, the "
                 "signed-rank test alone\n\nEquivalence shown comes first in the verdict and hides a significant "
                 "p (a real but negligible change), so the false-alarm rates above can sit under 5%%; these are "
                 "the tests' own sizes.\n\n");
    table(out, rs, {SuiteChange::aa}, [](const SuiteCellResult& r) {
        return pct(rate(r.rejects, r.reps)) + " / " + pct(rate(r.t_rejects, r.reps)) + " / " +
               pct(rate(r.wilcoxon_rejects, r.reps));
    });

    std::fprintf(out, "### Power: every benchmark better, called an improvement\n\n");
    table(out, rs, {SuiteChange::better2, SuiteChange::better5, SuiteChange::mixed5}, power_text);

    const CellText geomean = [](const SuiteCellResult& r) {
        return judged(r.geomean_covered, r.geomean_defined, &kSuiteCoverageBar);
    };
    const CellText headline = [](const SuiteCellResult& r) {
        return judged(r.headline_covered, r.headline_defined, r.by_signed_rank ? &kSuiteCoverageBar : nullptr);
    };
    const auto all = {SuiteChange::aa, SuiteChange::better2, SuiteChange::better5, SuiteChange::mixed5};
    std::fprintf(out, "### Coverage of the geomean interval (the paired t's)\n\n");
    table(out, rs, all, geomean);
    std::fprintf(out, "### Coverage of the Hodges-Lehmann interval\n\n");
    table(out, rs, all, hl_text);
    std::fprintf(out, "### Coverage of the headline interval (the deciding test's)\n\n");
    table(out, rs, all, headline);

    std::fprintf(out, "### The signed-rank test: how often it decided\n\n");
    table(out, rs, all, [](const SuiteCellResult& r) { return pct(rate(r.by_signed_rank, r.reps)); });
    std::fprintf(out,
                 "### The signed-rank test where it decided: p below 5%% in A/A, and its interval's coverage\n\n"
                 "Over the suites where it was chosen (how many, in brackets; no bar). On noise without cliffs "
                 "it is chosen only when a suite happens to look far from normal, typically when the bulk of "
                 "the differences lies unusually tight around one far value: a test chosen that way can be wrong "
                 "more often where it is picked than over all suites, so read these against 5%% and 95%%, and "
                 "the rates over all suites above for what a user meets.\n\nA/A: p below 5%% / coverage "
                 "(suites)\n\n");
    table(out, rs, {SuiteChange::aa}, [](const SuiteCellResult& r) {
        if (!r.by_signed_rank) return std::string("—");
        return pct(rate(r.rejects_by_signed_rank, r.by_signed_rank)) + " / " +
               pct(rate(r.signed_rank_covered, r.signed_rank_defined)) + " (" + std::to_string(r.by_signed_rank) +
               ")";
    });
    std::fprintf(out, "Under a change: coverage (suites)\n\n");
    table(out, rs, {SuiteChange::better2, SuiteChange::better5, SuiteChange::mixed5}, [](const SuiteCellResult& r) {
        if (!r.by_signed_rank) return std::string("—");
        return pct(rate(r.signed_rank_covered, r.signed_rank_defined)) + " (" + std::to_string(r.by_signed_rank) +
               ")";
    });

    const std::vector<Miss> m = suite_misses(rs);
    std::fprintf(out, "### Suite cells that miss their bars (%zu)\n\n", m.size());
    if (m.empty()) std::fprintf(out, "None.\n");
    for (const Miss& x : m) std::fprintf(out, "* %s: %s\n", x.cell.c_str(), x.what.c_str());
}

}  // namespace gfxstat::calibration
