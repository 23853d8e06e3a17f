// SPDX-License-Identifier: MIT
#include "tests/calibration/markdown.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "tests/calibration/bars.h"

namespace gfxstat::calibration {

namespace {

const CellResult* find(const std::vector<CellResult>& rs, size_t family, size_t n, Condition c) {
    for (const CellResult& r : rs)
        if (r.spec.family == family && r.spec.n == n && r.spec.condition == c) return &r;
    return nullptr;
}

double rate(size_t hits, size_t count) {
    return count ? static_cast<double>(hits) / static_cast<double>(count) : std::nan("");
}

std::string pct(double x) {
    if (std::isnan(x)) return "—";
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

std::string bar_words(const Bar& b, size_t count) {
    char s[160];
    std::snprintf(s, sizeof s, "%s %.1f%% (with slack at %zu: %.2f%%)", b.upper ? "≤" : "≥", b.nominal * 100,
                  count, b.limit(count) * 100);
    return s;
}

using CellText = std::function<std::string(const CellResult&)>;

// Rows: the families that `keep` selects; columns: the sample sizes.
void table(std::FILE* out, const std::vector<CellResult>& rs, Condition c, const std::function<bool(const Family&)>& keep,
           const CellText& text) {
    // Only the sizes measured (a quick run has a few).
    std::vector<size_t> sizes;
    for (size_t n : kSizes)
        if (std::any_of(rs.begin(), rs.end(), [&](const CellResult& r) { return r.spec.n == n; }))
            sizes.push_back(n);
    std::fprintf(out, "| family |");
    for (size_t n : sizes) std::fprintf(out, " n=%zu |", n);
    std::fprintf(out, "\n|---|");
    for (size_t i = 0; i < sizes.size(); ++i) std::fprintf(out, "---:|");
    std::fprintf(out, "\n");
    const auto& fams = families();
    for (size_t fi = 0; fi < fams.size(); ++fi) {
        if (!keep(fams[fi])) continue;
        bool any = false;
        for (size_t n : sizes) any |= find(rs, fi, n, c) != nullptr;
        if (!any) continue;
        std::fprintf(out, "| %s |", fams[fi].name);
        for (size_t n : sizes) {
            const CellResult* r = find(rs, fi, n, c);
            std::fprintf(out, " %s |", r ? text(*r).c_str() : " ");
        }
        std::fprintf(out, "\n");
    }
    std::fprintf(out, "\n");
}

bool verdict_family(const Family& f) { return f.verdicts; }
bool clean_family(const Family& f) { return f.clean; }

const char* better_words(analysis::Better b) {
    return b == analysis::Better::lower ? "lower is better" : b == analysis::Better::higher ? "higher is better" : "unknown";
}

// The summary by n: the worst verdict family for each false rate, and the
// power on plain normal data, so a user can look up their run count.
void summary_by_n(std::FILE* out, const std::vector<CellResult>& rs) {
    std::fprintf(out,
                 "| n a side | worst A/A --gate false alarm | worst A/A false verdict | power at 5%% (normal) | "
                 "power at 10%% (normal) | worst coverage (A/A, shift) | worst false bimodal / outlier / drift "
                 "sentence |\n|---:|---|---|---:|---:|---|---|\n");
    const auto& fams = families();
    for (size_t n : kSizes) {
        struct Worst {
            double v = -1;
            std::string who;
        } gate, any, cover{2, ""}, bim, out_s, drift;
        std::optional<double> p5, p10;
        bool seen = false;
        const auto worse = [](Worst& w, double v, const char* who, bool higher_is_worse) {
            if (std::isnan(v)) return;
            if (higher_is_worse ? v > w.v : v < w.v) w = {v, who};
        };
        for (size_t fi = 0; fi < fams.size(); ++fi) {
            const Family& f = fams[fi];
            if (const CellResult* r = find(rs, fi, n, Condition::aa)) {
                seen = true;
                if (f.verdicts) {
                    worse(gate, rate(r->gate_fails, r->reps), f.name, true);
                    worse(any, rate(r->significant, r->reps), f.name, true);
                    worse(cover, rate(r->covered, r->interval_defined), f.name, false);
                }
                if (f.clean) {
                    worse(bim, rate(r->bimodal, r->samples), f.name, true);
                    worse(out_s, rate(r->outlier_sentence, r->samples), f.name, true);
                    worse(drift, rate(r->drift, r->samples), f.name, true);
                }
            }
            if (const CellResult* r = find(rs, fi, n, Condition::shift5); r && f.verdicts)
                worse(cover, rate(r->covered, r->interval_defined), f.name, false);
            if (std::string(f.name) == "normal") {
                if (const CellResult* r = find(rs, fi, n, Condition::scale5)) p5 = rate(r->correct, r->reps);
                if (const CellResult* r = find(rs, fi, n, Condition::scale10)) p10 = rate(r->correct, r->reps);
            }
        }
        if (!seen) continue;
        // No family named when every one is at 0: none is worst.
        const auto w = [](const Worst& x) {
            if (x.v < 0 || x.v > 1) return std::string("—");
            return x.v == 0 ? pct(0) : pct(x.v) + " (" + x.who + ")";
        };
        std::fprintf(out, "| %zu | %s | %s | %s | %s | %s | %s / %s / %s |\n", n, w(gate).c_str(), w(any).c_str(),
                     p5 ? pct(*p5).c_str() : "—", p10 ? pct(*p10).c_str() : "—", w(cover).c_str(), w(bim).c_str(),
                     w(out_s).c_str(), w(drift).c_str());
    }
    std::fprintf(out, "\n");
}

}  // namespace

void write_text(std::FILE* out, const std::vector<CellResult>& rs, const RunInfo& info) {
    std::fprintf(out, "# gfxstat calibration: seed %llu, R = %zu%s, %.1f s\n",
                 static_cast<unsigned long long>(info.seed), info.reps, info.quick ? " (quick)" : "", info.seconds);
    std::fprintf(out, "# family n condition: gate significant correct no_change inconclusive | welch mw boots | "
                      "coverage (defined of reps) | samples: bimodal outlier planted drift first_run\n");
    for (const CellResult& r : rs) {
        const Family& f = families()[r.spec.family];
        std::fprintf(out,
                     "%-15s %3zu %-9s: %6.4f %6.4f %6.4f %6.4f %6.4f | %5.3f %5.3f %5.3f | %6.4f (%zu of %zu) | %zu: "
                     "%6.4f %6.4f %6.4f %6.4f %6.4f\n",
                     f.name, r.spec.n, condition_name(r.spec.condition), rate(r.gate_fails, r.reps),
                     rate(r.significant, r.reps), rate(r.correct, r.reps), rate(r.no_change, r.reps),
                     rate(r.inconclusive, r.reps), rate(r.by_welch, r.reps), rate(r.by_mann_whitney, r.reps),
                     rate(r.by_boot_means, r.reps), rate(r.covered, r.interval_defined), r.interval_defined, r.reps,
                     r.samples, rate(r.bimodal, r.samples), rate(r.outlier_sentence, r.samples),
                     rate(r.planted_found, r.samples), rate(r.drift, r.samples), rate(r.first_run, r.samples));
    }
}

void write_markdown(std::FILE* out, const std::vector<CellResult>& rs, const RunInfo& info) {
    const size_t R = info.reps;
    std::fprintf(out, "# How often gfxstat compare is wrong: calibration by simulation\n\n");
    std::fprintf(out,
                 "Generated %s by `gfxstat_calibration` (tests/calibration/; `make calibration`)%s%s%s: seed %llu, R = %zu replicates per "
                 "cell%s, %zu cells, %.0f s. Every number below is reproducible from the seed: "
                 "`gfxstat_calibration --seed %llu --reps %zu%s --markdown`.\n\n",
                 info.date.c_str(), info.label.empty() ? "" : " on ", info.label.c_str(), "",
                 static_cast<unsigned long long>(info.seed), R, info.quick ? " (quick subset)" : "", rs.size(),
                 info.seconds, static_cast<unsigned long long>(info.seed), R,
                 info.suite_reps ? (" --suite-reps " + std::to_string(info.suite_reps)).c_str() : "");
    std::fprintf(out,
                 "## How to read this\n\n"
                 "Each cell simulates R comparisons of a baseline and a candidate of n runs each, drawn from a "
                 "known distribution (a *family*, below), and runs exactly what `gfxstat compare` runs "
                 "(default `--confidence 0.95 --threshold 1`, diagnostics on, no bootstrap, one metric so Holm's "
                 "adjustment changes nothing). A rate is the share of those comparisons in which gfxstat said "
                 "something.\n\n"
                 "* **A/A** cells compare two samples of the same distribution: every *regression* or "
                 "*improvement* there is a false alarm. The `--gate` column is how often a CI gate would fail "
                 "a change that changed nothing; it should stay near 2.5%% (one side of a 5%% test).\n"
                 "* **Power** is how often a real 2, 5 or 10%% change (every value scaled) is reported as "
                 "significant in the right direction. Where it is low, *inconclusive* is the expected answer "
                 "at that n, and it means \"not enough runs\", not \"no change\": read the runs-needed hint.\n"
                 "* **Coverage** is how often the interval printed for the headline change contains the true "
                 "change (0 in A/A; the shift when every value is shifted by 5%% of the family's mean). At 95%% "
                 "confidence it should be about 95%%; much less means the interval is too narrow to trust.\n"
                 "* **Diagnostic sentences** (bimodal, outliers, drift, first run differs) are counted per "
                 "sample on families that have no modes, outliers or drift: each one that fires is false. The "
                 "detection table shows how often each fires when the thing is really there.\n"
                 "* A **bold** rate with ✗ misses its bar. Bars include binomial slack, 3 sqrt(p (1 - p) / R) "
                 "at the bar p, so a procedure exactly at its nominal rate misses about one cell in 700. "
                 "— means not measured or not defined (e.g. no interval).\n\n"
                 "Bars at R = %zu: A/A `--gate` %s; A/A any significant verdict %s; coverage %s (over the "
                 "replicates with an interval); false bimodal and outlier sentences %s per sample (2R samples); "
                 "false drift and first-run sentences %s.\n\n",
                 R, bar_words(kGateBar, R).c_str(), bar_words(kAnyVerdictBar, R).c_str(),
                 bar_words(kCoverageBar, R).c_str(), bar_words(kSampleBar, 2 * R).c_str(),
                 bar_words(kDriftBar, 2 * R).c_str());

    std::fprintf(out, "## At your n\n\nThe worst family for each false rate, and power on normal data "
                      "(N(100, 2), a cv of 2%%).\n\n");
    summary_by_n(out, rs);

    std::fprintf(out, "## Families\n\n| family | distribution | stands for | direction |\n|---|---|---|---|\n");
    for (const Family& f : families())
        std::fprintf(out, "| %s | %s | %s | %s%s |\n", f.name, f.description, f.unit, better_words(f.better),
                     f.verdicts ? "" : " (diagnostics only)");
    std::fprintf(out,
                 "\nChanges: power cells scale every value by 1 + δ before any quantisation (the timer rounds the "
                 "changed latency); coverage cells add 5%% of the family's mean after quantisation, so every "
                 "location estimand (mean, median, Hodges-Lehmann shift, boot mean) moves by exactly that. Each "
                 "variant runs in its own boots (boot-modes). The deterministic family is not yet compared "
                 "\"exactly\": it goes through the same tests as the others.\n\n");

    const auto all_verdicts = [](const Family& f) { return verdict_family(f); };
    std::fprintf(out, "## Verdicts when nothing changed (A/A)\n\n### False `--gate` failures (regression beyond "
                      "the threshold)\n\n");
    table(out, rs, Condition::aa, all_verdicts,
          [](const CellResult& r) { return judged(r.gate_fails, r.reps, &kGateBar); });
    std::fprintf(out, "### Any significant verdict (improvement or regression)\n\n");
    table(out, rs, Condition::aa, all_verdicts,
          [](const CellResult& r) { return judged(r.significant, r.reps, &kAnyVerdictBar); });
    std::fprintf(out, "### \"No change\" (equivalence within 1%% shown; the right answer, reported)\n\n");
    table(out, rs, Condition::aa, all_verdicts, [](const CellResult& r) { return judged(r.no_change, r.reps, nullptr); });
    std::fprintf(out, "### Which test decided (A/A): Mann-Whitney / Welch on boot means; the rest Welch\n\n");
    table(out, rs, Condition::aa, all_verdicts, [](const CellResult& r) {
        return pct(rate(r.by_mann_whitney, r.reps)) + " / " + pct(rate(r.by_boot_means, r.reps));
    });

    std::fprintf(out, "## Power: a real change reported significant in the right direction\n\n");
    for (Condition c : {Condition::scale2, Condition::scale5, Condition::scale10}) {
        std::fprintf(out, "### Every candidate value %s\n\n", condition_name(c));
        table(out, rs, c, all_verdicts, [](const CellResult& r) { return judged(r.correct, r.reps, nullptr); });
    }

    std::fprintf(out, "## Coverage of the headline change's interval\n\nWelch's CI of the mean difference, the "
                      "Hodges-Lehmann CI when Mann-Whitney decides, the boot-means test's CI when boots do. In "
                      "brackets: the share of replicates without a finite interval, when any.\n\n");
    const CellText cover = [](const CellResult& r) {
        std::string s = judged(r.covered, r.interval_defined, &kCoverageBar);
        if (r.interval_defined < r.reps) s += " (" + pct(1 - rate(r.interval_defined, r.reps)) + " none)";
        return s;
    };
    std::fprintf(out, "### A/A (true change 0)\n\n");
    table(out, rs, Condition::aa, all_verdicts, cover);
    std::fprintf(out, "### Every candidate value shifted by 5%% of the family mean\n\n");
    table(out, rs, Condition::shift5, all_verdicts, cover);

    std::fprintf(out, "## False diagnostic sentences (per sample, A/A, families without modes, outliers or drift)\n\n");
    std::fprintf(out, "### \"... is bimodal\"\n\n");
    table(out, rs, Condition::aa, clean_family, [](const CellResult& r) { return judged(r.bimodal, r.samples, &kSampleBar); });
    std::fprintf(out, "### \"... has N outliers\"\n\n");
    table(out, rs, Condition::aa, clean_family,
          [](const CellResult& r) { return judged(r.outlier_sentence, r.samples, &kSampleBar); });
    std::fprintf(out, "### \"... drifts\" or \"... changes level\" (trend, change point, drift within boots)\n\n");
    table(out, rs, Condition::aa, clean_family, [](const CellResult& r) { return judged(r.drift, r.samples, &kDriftBar); });
    std::fprintf(out, "### \"The first value ... differs from the rest\"\n\n");
    table(out, rs, Condition::aa, clean_family,
          [](const CellResult& r) { return judged(r.first_run, r.samples, &kDriftBar); });

    std::fprintf(out, "## Detection: the sentence when the thing is there (per sample, reported)\n\n");
    std::fprintf(out, "### \"... is bimodal\"\n\n");
    table(out, rs, Condition::aa,
          [](const Family& f) { return f.detects == Detects::bimodality || std::string(f.name) == "boot-modes"; },
          [](const CellResult& r) { return judged(r.bimodal, r.samples, nullptr); });
    std::fprintf(out, "### The planted outlier (10 sd out) reported in the outlier sentence\n\n");
    table(out, rs, Condition::aa, [](const Family& f) { return f.detects == Detects::outlier; },
          [](const CellResult& r) { return judged(r.planted_found, r.samples, nullptr); });
    std::fprintf(out, "### \"... drifts\" or \"... changes level\" on the drift family (+3%% over the series)\n\n");
    table(out, rs, Condition::aa, [](const Family& f) { return f.detects == Detects::drift; },
          [](const CellResult& r) { return judged(r.drift, r.samples, nullptr); });

    const std::vector<Miss> m = misses(rs);
    std::fprintf(out, "## Cells that miss their bars (%zu)\n\n", m.size());
    if (m.empty()) std::fprintf(out, "None.\n");
    for (const Miss& x : m) std::fprintf(out, "* %s: %s\n", x.cell.c_str(), x.what.c_str());
}

}  // namespace gfxstat::calibration
