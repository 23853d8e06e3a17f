// SPDX-License-Identifier: MIT
// The stored-boots cells (stored_boots_sim.h) as text, one line a cell, and
// as the section "One new boot against stored history" of docs/calibration.md.
#include <cmath>
#include <functional>
#include <string>

#include "analysis/stored_boots.h"
#include "tests/calibration/stored_boots_sim.h"

namespace gfxstat::calibration {

namespace {

double rate(size_t hits, size_t count) {
    return count ? static_cast<double>(hits) / static_cast<double>(count) : std::nan("");
}

std::string pct(size_t hits, size_t count) {
    if (count == 0) return "—";
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", rate(hits, count) * 100);
    return b;
}

const StoredCellResult* find(const std::vector<StoredCellResult>& rs, BootLevels l, double ratio, size_t runs,
                             size_t k, size_t boots, bool regression) {
    for (const StoredCellResult& r : rs)
        if (r.spec.levels == l && r.spec.ratio == ratio && r.spec.runs == runs && r.spec.k == k &&
            r.spec.boots == boots && r.spec.regression == regression)
            return &r;
    return nullptr;
}

using CellText = std::function<std::string(const StoredCellResult&)>;

// Rows: boot levels, sb/sw, runs a boot; columns: k new boots x B stored
// boots (those judged: B >= the minimum).
void table(std::FILE* out, const std::vector<StoredCellResult>& rs, bool regression, const CellText& text) {
    std::fprintf(out, "| boot levels | sb/sw | runs a boot |");
    // The columns: k <= B (history, and k = B: two sets of boots), B at
    // the minimum or more (judged).
    const auto column = [](size_t k, size_t B) { return k <= B && B >= analysis::kStoredBootsMinBaseline; };
    for (size_t k : kCandidateBoots)
        for (size_t B : kBaselineBoots)
            if (column(k, B)) std::fprintf(out, " k=%zu B=%zu |", k, B);
    std::fprintf(out, "\n|---|---:|---:|");
    for (size_t k : kCandidateBoots)
        for (size_t B : kBaselineBoots)
            if (column(k, B)) std::fprintf(out, "---:|");
    std::fprintf(out, "\n");
    for (BootLevels l : {BootLevels::normal, BootLevels::t3})
        for (double ratio : kBootRatios)
            for (size_t runs : kRunsPerBoot) {
                if (!find(rs, l, ratio, runs, 1, kBaselineBoots[1], regression)) continue;
                std::fprintf(out, "| %s | %g | %zu |", boot_levels_name(l), ratio, runs);
                for (size_t k : kCandidateBoots)
                    for (size_t B : kBaselineBoots) {
                        if (!column(k, B)) continue;
                        const StoredCellResult* r = find(rs, l, ratio, runs, k, B, regression);
                        std::fprintf(out, " %s |", r ? text(*r).c_str() : " ");
                    }
                std::fprintf(out, "\n");
            }
    std::fprintf(out, "\n");
}

}  // namespace

void write_stored_text(std::FILE* out, const std::vector<StoredCellResult>& rs, const RunInfo& info) {
    std::fprintf(out, "# gfxstat calibration, one new boot against stored history: seed %llu, R = %zu%s, %.1f s\n",
                 static_cast<unsigned long long>(info.seed), info.reps, info.quick ? " (quick)" : "", info.seconds);
    std::fprintf(out, "# levels sb/sw runs k B change: by_design not_judged regression gate significant no_change | "
                      "run-level welch regression\n");
    for (const StoredCellResult& r : rs)
        std::fprintf(out, "%-6s %3g %2zu %zu %2zu %-5s: %6.4f %6.4f %6.4f %6.4f %6.4f %6.4f | %6.4f\n",
                     boot_levels_name(r.spec.levels), r.spec.ratio, r.spec.runs, r.spec.k, r.spec.boots,
                     r.spec.regression ? "x0.95" : "A/A", rate(r.by_design, r.reps), rate(r.not_judged, r.reps),
                     rate(r.regressions, r.reps), rate(r.gate_fails, r.reps), rate(r.significant, r.reps),
                     rate(r.no_change, r.reps), rate(r.naive_regressions, r.reps));
}

void write_stored_markdown(std::FILE* out, const std::vector<StoredCellResult>& rs, const RunInfo& info) {
    std::fprintf(out, "\n## One new boot against stored history\n\n");
    std::fprintf(out,
                 "Generated %s by `gfxstat_calibration` (tests/calibration/stored_boots_sim.cpp; `make "
                 "calibration`)%s%s: seed %llu, R = %zu replicates per cell%s, %zu cells, %.0f s. Reproducible "
                 "from the seed: `gfxstat_calibration --stored-boots --seed %llu --reps %zu --markdown`.\n\n",
                 info.date.c_str(), info.label.empty() ? "" : " on ", info.label.c_str(),
                 static_cast<unsigned long long>(info.seed), info.reps, info.quick ? " (quick subset)" : "",
                 rs.size(), info.seconds, static_cast<unsigned long long>(info.seed), info.reps);
    std::fprintf(out,
                 "### How to read this\n\n"
                 "A CI job gates a merge request on one boot of its own (k = 1), or a few, against the results "
                 "of main stored from B earlier boots of the same machine. Each cell draws R such histories: a "
                 "boot's level is 100 + sb z (z normal, or Student's t with 3 df scaled to sd 1: now and then a "
                 "boot far off), each of its runs adds noise of sd sw = 1 (1%%); higher is better. It then runs "
                 "exactly what `gfxstat compare` runs (analysis/comparison.h with the boot ids, then the "
                 "verdict; `--confidence 0.95 --threshold 1`). In every cell with fewer new boots than stored "
                 "ones and B >= %zu the verdict is the stored-boots design's: the prediction t on boot means "
                 "(analysis/stored_boots.h). Below %zu baseline boots it says a sentence instead (B = 3 below: "
                 "not judged in every replicate). The column k=5 B=5 is not history but an A/B of two sets of "
                 "boots as many a side, which compare tests as before (Welch's t on boot means when boots "
                 "matter; docs/diagnostics.md, *Boot clustering*): its cells are what a user gets who gates "
                 "5 new boots against 5 stored ones.\n\n"
                 "The bar: a false regression (A/A, outcome regression) in at most 5%% of the replicates "
                 "judged, and any significant verdict in at most 5%%, with the binomial slack of the other "
                 "tables. Beside it, the run-level Welch t on the same runs, every run counted as independent: "
                 "what a user gets who pools the history's runs and the new boot's (and what compare gave "
                 "before for k = 1). Power: every candidate run x0.95 (a 5%% regression), called a "
                 "regression.\n\n",
                 analysis::kStoredBootsMinBaseline, analysis::kStoredBootsMinBaseline);
    std::fprintf(out, "### A/A: false regressions, compare's verdict\n\n");
    table(out, rs, false, [](const StoredCellResult& r) {
        const size_t judged = r.reps - r.not_judged;
        const std::string s = pct(r.regressions, judged);
        constexpr Bar bar{kAlpha, true};
        return bar.met(r.regressions, judged) ? s : "**" + s + "** ✗";
    });
    std::fprintf(out, "### A/A: false regressions, the run-level Welch t (every run independent)\n\n");
    table(out, rs, false, [](const StoredCellResult& r) { return pct(r.naive_regressions, r.reps); });
    std::fprintf(out, "### A/A: any significant verdict (improvement or regression), compare\n\n");
    table(out, rs, false, [](const StoredCellResult& r) {
        const size_t judged = r.reps - r.not_judged;
        const std::string s = pct(r.significant, judged);
        return kAnyVerdictBar.met(r.significant, judged) ? s : "**" + s + "** ✗";
    });
    std::fprintf(out, "### Power: every candidate run x0.95, called a regression by compare\n\n");
    table(out, rs, true, [](const StoredCellResult& r) { return pct(r.regressions, r.reps); });
    size_t below = 0, said = 0;
    for (const StoredCellResult& r : rs)
        if (r.spec.boots < analysis::kStoredBootsMinBaseline) below += r.reps, said += r.not_judged;
    std::fprintf(out,
                 "### Below the minimum\n\n"
                 "With B = 3 compare said \"not judged: the baseline holds 3 boots\" in %s of %zu replicates "
                 "(all cells with B = 3), and the gate passed. %zu is the minimum because below it the "
                 "prediction interval is too wide to be of use: its t quantile is 4.30 at B = 3 and 3.18 at "
                 "B = 4 against 2.78 at B = 5 and 2.26 at B = 10, so at sb = sw and 5 runs a boot the smallest "
                 "regression one boot can show is some 5.4 sw at B = 3; and with heavy-tailed boot levels "
                 "three boots say little about the tails.\n\n",
                 pct(said, below).c_str(), below, analysis::kStoredBootsMinBaseline);
    const std::vector<Miss> m = stored_misses(rs);
    std::fprintf(out, "### Stored-boots cells that miss their bars (%zu)\n\n", m.size());
    if (m.empty()) std::fprintf(out, "None.\n");
    for (const Miss& x : m) std::fprintf(out, "- %s: %s\n", x.cell.c_str(), x.what.c_str());
}

}  // namespace gfxstat::calibration
