// SPDX-License-Identifier: MIT
// The markdown report, for a merge-request comment: one summary table of
// verdicts, then a table of statistics per metric.
#include <cmath>
#include <string>

#include "findings/compare_findings.h"
#include "report/compare_renderers.h"
#include "report/invalid_runs.h"
#include "report/metric_direction_words.h"
#include "report/diagnostic_words.h"
#include "report/throttle_note.h"
#include "report/fleet_report.h"
#include "report/headline_words.h"
#include "report/image_check_words.h"
#include "report/settling_advice_words.h"
#include "text/readable_units.h"
#include "text/plural.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

namespace {

// Text from data in a cell, heading or list item: no '|' that ends a cell,
// no newline that ends a row, no control that reaches a terminal
// (text/text_escape.h).
std::string cell(const std::string& s) { return text::escape_markdown(s); }

}  // namespace

// Each candidate's frames against the baseline's, when checked: a list
// item per candidate, its notes under it.
static void render_image_checks_markdown(const CompareReport& r, FILE* out) {
    if (!r.images) return;
    std::fprintf(out, "\n**images** (frame checksums of the checking runs)\n\n");
    for (const std::string& note : report::image_variant_notes(r.images->baseline))
        std::fprintf(out, "- %s\n", cell(note).c_str());
    for (size_t k = 0; k < r.images->comparisons.size(); ++k) {
        const findings::ImageComparison& c = r.images->comparisons[k];
        const std::string verdict = report::image_verdict_words(c);
        std::fprintf(out, "- %s vs %s: %s\n", cell(c.candidate).c_str(), cell(c.baseline).c_str(),
                     c.outcome == findings::ImageOutcome::differ ? ("**" + cell(verdict) + "**").c_str()
                                                                 : cell(verdict).c_str());
        std::vector<std::string> notes;
        if (k < r.images->candidates.size()) notes = report::image_variant_notes(r.images->candidates[k]);
        for (const std::string& n : report::image_comparison_notes(c)) notes.push_back(n);
        for (const std::string& n : notes) std::fprintf(out, "  - %s\n", cell(n).c_str());
    }
}

void render_markdown(const CompareReport& r, FILE* out) {
    // The change is the headline change of every format (headline_words.h).
    // p is adjusted over the primary comparisons, secondary metrics' not, a
    // sequential design's is anytime-valid: the column is named for what
    // every p in it is ("Holm-adjusted p" only when all are), else "p" with
    // each value saying what it is.
    std::string p_head;
    bool one_kind = true;
    for (const auto& m : r.metrics)
        for (size_t k = 0; k < m.comparisons.size() && k < m.verdicts.size(); ++k) {
            if (std::isnan(m.verdicts[k].p_adjusted)) continue;
            const std::string label = p_label(r, m, k);
            if (p_head.empty()) p_head = label;
            one_kind = one_kind && label == p_head;
        }
    if (p_head.empty() || !one_kind) p_head = "p";
    std::fprintf(out, "| metric | baseline | candidate | change | %s | verdict |\n", p_head.c_str());
    std::fprintf(out, "| --- | --- | --- | ---: | ---: | --- |\n");
    for (const auto& m : r.metrics)
        for (size_t k = 0; k < m.comparisons.size(); ++k) {
            const auto& c = m.comparisons[k];
            const auto& v = m.verdicts[k];
            std::string outcome = report::verdict_outcome_words(m, k);
            if (v.outcome == analysis::Outcome::regression || v.outcome == analysis::Outcome::improvement ||
                m.overruled(k))
                outcome = "**" + outcome + "**";
            char change[48];
            if (std::isnan(c.relative_change)) std::snprintf(change, sizeof change, "%+.3g", c.change);
            else std::snprintf(change, sizeof change, "%+.3g%%", c.relative_change * 100);
            if (!m.primary) outcome += " (secondary)";
            char p[64] = "–";  // no p: the test is undefined or the metric exact
            if (!std::isnan(v.p_adjusted)) {
                // "Holm-adjusted p" -> " (Holm-adjusted)"; a plain "p" says nothing more.
                std::string kind = p_label(r, m, k);
                kind = kind == p_head || kind == "p" ? "" : " (" + kind.substr(0, kind.size() - 2) + ")";
                std::snprintf(p, sizeof p, "%.3g%s", v.p_adjusted, kind.c_str());
            }
            std::fprintf(out, "| %s | %s | %s | %s | %s | %s |\n", cell(metric_title(m)).c_str(),
                         cell(m.baseline.label).c_str(), cell(m.candidates[k].label).c_str(), change, p,
                         outcome.c_str());
        }
    for (const auto& g : r.geomeans) {
        std::string over;
        for (size_t i = 0; i < g.metrics.size(); ++i) over += (i ? ", " : "") + g.metrics[i];
        std::fprintf(out, "\n**geomean** of the ratios of means for %s, turned so that above 1 is better: %.4g",
                     cell(g.candidate).c_str(), g.geomean.ratio);
        if (g.geomean.ci_defined)
            std::fprintf(out, " (%g%% CI %.4g to %.4g)", r.confidence * 100, g.geomean.ci[0], g.geomean.ci[1]);
        std::fprintf(out, " over %s\n", cell(over).c_str());
    }
    for (const auto& note : r.geomean_notes) std::fprintf(out, "\n_geomean: %s_\n", cell(note).c_str());
    render_image_checks_markdown(r, out);
    render_throttle_markdown(r, out);
    for (const auto& m : r.metrics) {
        // The sample table in a readable unit (text/readable_units.h),
        // the tests below in the recorded one, as JSON has them.
        const text::DisplayUnit du =
            text::readable_unit(m.unit, m.comparisons.empty() ? 0.0 : m.comparisons[0].baseline.mean);
        std::fprintf(out, "\n### %s%s (%s)\n\n", cell(metric_title(m)).c_str(),
                     m.unit.empty() ? "" : (", " + cell(m.unit)).c_str(), report::direction_words(m.better));
        if (du.scaled()) std::fprintf(out, "values in %s\n\n", cell(du.unit).c_str());
        std::fprintf(out, "| sample | n | min | median | mean | stddev | max |\n");
        std::fprintf(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (size_t i = 0; i <= m.candidates.size() && !m.comparisons.empty(); ++i) {
            const auto& s = i == 0 ? m.comparisons[0].baseline : m.comparisons[i - 1].candidate;
            const std::string& label = i == 0 ? m.baseline.label : m.candidates[i - 1].label;
            std::fprintf(out, "| %s | %zu |", cell(label).c_str(), s.n);
            for (double v : {s.min, s.median, s.mean, s.stddev, s.max})
                std::fprintf(out, " %s |", text::scaled_number(v, du, 6).c_str());
            std::fprintf(out, "\n");
        }
        for (size_t k = 0; k < m.comparisons.size(); ++k) {
            const auto& c = m.comparisons[k];
            const auto& v = m.verdicts[k];
            const double lvl = r.confidence * 100;
            std::fprintf(out, "\n**%s vs %s**: %s — %s%s\n\n", cell(m.candidates[k].label).c_str(),
                         cell(m.baseline.label).c_str(), report::verdict_outcome_words(m, k).c_str(), cell(report::verdict_reason(v)).c_str(),
                         m.primary ? "" : cell(" (secondary metric: " + m.secondary_why + "; it does not gate)").c_str());
            if (std::string(design_kind(m, k)) != "independent")
                std::fprintf(out, "design: %s\n\n", cell(design_words(m, k)).c_str());
            std::fprintf(out, "change: %s\n\n", cell(headline_change(c, v, r.confidence, &du)).c_str());
            if (m.exact) {
                const std::string varies = exact_variation(c, m.baseline.label, m.candidates[k].label);
                if (!varies.empty()) std::fprintf(out, "**warning**: %s\n\n", cell(varies).c_str());
                if (v.primary == analysis::PrimaryTest::exact) continue;
            }
            // Each interval says its level: TOST's is the 1 - 2 alpha one.
            std::fprintf(out, "| test | statistic | p | CI |\n| --- | ---: | ---: | --- |\n");
            for (const auto& [name, t] : {std::pair<const char*, const analysis::TTest*>{"Welch t", &c.welch},
                                          {"Student t", &c.student}}) {
                if (t->defined)
                    std::fprintf(out, "| %s | t = %.4g, df = %.4g | %.3g | %g%%: [%.6g, %.6g] |\n", name, t->t,
                                 t->df, t->p, lvl, t->ci[0], t->ci[1]);
                else
                    std::fprintf(out, "| %s | undefined: both samples constant, difference exactly %.6g | – | – |\n",
                                 name, t->difference);
            }
            std::fprintf(out, "| Mann-Whitney U / Hodges-Lehmann | U = %.6g, shift %.6g | %.3g | %g%%: [%.6g, %.6g] |\n",
                         c.mann_whitney.u, c.hodges_lehmann.estimate, c.mann_whitney.p, lvl, c.hodges_lehmann.ci[0],
                         c.hodges_lehmann.ci[1]);
            // TOST is two one-sided t tests: undefined where Welch's t is.
            if (c.welch.defined)
                std::fprintf(out, "| TOST within ±%g%% | margin %.6g | %.3g | %g%%: [%.6g, %.6g] |\n", r.threshold * 100,
                             c.equivalence.margin, c.equivalence.p, 100 - 2 * (100 - lvl), c.equivalence.ci[0],
                             c.equivalence.ci[1]);
            else
                std::fprintf(out, "| TOST within ±%g%% | margin %.6g, undefined | – | – |\n", r.threshold * 100,
                             c.equivalence.margin);
            if (c.bootstrap) {
                const auto& b = c.bootstrap->median_difference;
                const auto& iv = b.bca_defined ? b.bca : b.percentile;
                std::fprintf(out, "| bootstrap median difference | %.6g | | %g%%: [%.6g, %.6g] |\n", b.estimate, lvl,
                             iv[0], iv[1]);
            }
            if (c.effect.defined)
                std::fprintf(out, "| Hedges' g | %.3g | | %g%%: [%.3g, %.3g] |\n", c.effect.hedges_g, lvl,
                             c.effect.g_ci[0], c.effect.g_ci[1]);
            // Diagnostics as a list under the table: the baseline's with
            // the first candidate only.
            std::vector<std::string> notes;
            if (k == 0 && c.baseline_diagnostics)
                notes = sample_findings(role_name("baseline", m.baseline.label), *c.baseline_diagnostics, m.unit, r.confidence,
                                        5, &m.baseline.dropped, r.advice, &m.baseline.recorded);
            if (c.candidate_diagnostics)
                for (auto& s : sample_findings(role_name("candidate", m.candidates[k].label), *c.candidate_diagnostics, m.unit,
                                               r.confidence, 5, &m.candidates[k].dropped, r.advice,
                                               &m.candidates[k].recorded))
                    notes.push_back(std::move(s));
            for (auto& s : comparison_findings(role_name("baseline", m.baseline.label), role_name("candidate", m.candidates[k].label), c,
                                               m.unit, r.confidence, r.advice))
                notes.push_back(std::move(s));
            for (const ReportSample* s : {&m.baseline, &m.candidates[k]}) {
                if (s->dropped.empty() || (s == &m.baseline && k != 0)) continue;
                std::string list;
                for (size_t i = 0; i < s->dropped.size(); ++i)
                    list += (i ? ", " : "") + with_unit(s->dropped[i].second, m.unit) +
                            fmt(" (value %zu)", s->dropped[i].first + 1);
                notes.push_back("--drop-outliers left out " + gfxstat::text::plural(s->dropped.size(), "value") + " of " +
                                s->label + ": " + list);
            }
            if (!notes.empty()) std::fprintf(out, "\n");
            for (const auto& s : notes) std::fprintf(out, "- %s\n", cell(s).c_str());
            if (c.fleet.known) {
                // Machines, briefly: the split and each machine's change.
                std::fprintf(out, "\n**Machines**");
                const std::string base = fleet_variance_words(c.fleet.baseline_variance);
                const std::string cand = fleet_variance_words(c.fleet.candidate_variance);
                if (!base.empty()) std::fprintf(out, "; baseline: %s", cell(base).c_str());
                if (!cand.empty()) std::fprintf(out, "; candidate: %s", cell(cand).c_str());
                const std::string needed = machines_needed_words(v, r.threshold);
                if (!needed.empty()) std::fprintf(out, "; machines needed: %s", cell(needed).c_str());
                std::fprintf(out, "\n");
                if (!c.fleet.changes.rows.empty()) {
                    std::fprintf(out, "\n| machine | runs | change | %g%% CI | |\n| --- | ---: | ---: | --- | --- |\n", lvl);
                    for (const analysis::MachineChange& row : c.fleet.changes.rows)
                        std::fprintf(out, "| %s | %zu/%zu | %+.3g%% | %s | %s |\n",
                                     cell(machine_display_name(m, k, row.machine)).c_str(), row.baseline_runs,
                                     row.candidate_runs, row.relative_change * 100,
                                     row.welch.defined && std::isfinite(row.relative_ci[0]) ? fmt("[%+.3g%%, %+.3g%%]", row.relative_ci[0] * 100,
                                                             row.relative_ci[1] * 100).c_str()
                                                       : "–",
                                     row.stands_out ? "**stands out**" : "");
                }
                const std::string odd = odd_machine_sentence(m, k);
                if (!odd.empty()) std::fprintf(out, "\n%s\n", cell(odd).c_str());
            }
        }
    }
    if (const auto invalid = invalid_run_lines(r); !invalid.empty()) {
        std::fprintf(out, "\n_%s:_\n\n", kInvalidRunsHeading);
        for (const auto& line : invalid) std::fprintf(out, "- %s\n", cell(line).c_str());
    }
}

}  // namespace gfxstat::cli
