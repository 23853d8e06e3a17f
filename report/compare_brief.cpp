// SPDX-License-Identifier: MIT
// compare --brief: the answer in one line per metric (and candidate), for
// a reply that quotes nine benchmarks, not 278 lines of statistics. A
// header line says what was compared and how; one row per comparison gives
// the means (in a readable unit), the headline change with its interval
// and the verdict; one last line counts what the full report says besides.
// Text fits --width; markdown is a table.
#include <algorithm>
#include <cmath>
#include <string>

#include "findings/compare_findings.h"
#include "report/compare_renderers.h"
#include "report/diagnostic_words.h"
#include "report/headline_words.h"
#include "report/image_check_words.h"
#include "report/invalid_runs.h"
#include "report/settling_advice_words.h"
#include "report/verdict_rows.h"
#include "text/name_cutter.h"
#include "text/readable_units.h"
#include "text/text_escape.h"
#include "text/text_width.h"
#include "text/print_wrapped.h"

namespace gfxstat::cli {

namespace {

using text::escape_text;

// One comparison's cells, from data but not yet escaped.
struct BriefRow {
    std::string metric, candidate;
    std::string means;   // "1144 -> 1202"
    std::string unit;    // as shown: "fps", "ms"
    std::string change;  // "+5.07% [+1.23%, +8.91%]"
    std::string verdict;
    // An inconclusive ab verdict's settling advice (settling_advice_words),
    // said under the table: the one sentence its row cannot hold.
    std::string advice;
    bool secondary = false;
};

std::vector<BriefRow> brief_rows(const CompareReport& r) {
    std::vector<BriefRow> rows;
    for (const auto& m : r.metrics) {
        if (m.comparisons.empty()) continue;
        const text::DisplayUnit du = text::readable_unit(m.unit, m.comparisons[0].baseline.mean);
        for (size_t k = 0; k < m.comparisons.size(); ++k) {
            const auto& c = m.comparisons[k];
            BriefRow row;
            row.metric = metric_title(m);
            row.candidate = m.candidates[k].label;
            row.means = text::scaled_number(c.baseline.mean, du, 4) + " -> " + text::scaled_number(c.candidate.mean, du, 4);
            row.unit = du.unit;
            row.change = change_cell(c, m.verdicts[k], du);
            row.verdict = report::verdict_outcome_words(m, k);
            if (m.verdicts[k].settling) row.advice = report::settling_advice_words(*m.verdicts[k].settling);
            row.secondary = !m.primary;
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

// What compared with what, and how: the header line.
std::string header_words(const CompareReport& r) {
    std::string who, design;
    std::vector<std::string> candidates;
    bool one_design = true;
    for (const auto& m : r.metrics) {
        if (who.empty()) who = m.baseline.label;
        for (size_t k = 0; k < m.candidates.size(); ++k) {
            if (std::find(candidates.begin(), candidates.end(), m.candidates[k].label) == candidates.end())
                candidates.push_back(m.candidates[k].label);
            const std::string d = design_words(m, k);
            if (design.empty()) design = d;
            else if (d != design) one_design = false;
        }
    }
    std::string t = who + " vs ";
    // A few candidates by name; more are in the rows.
    if (candidates.size() <= 3)
        for (size_t i = 0; i < candidates.size(); ++i) t += (i ? ", " : "") + candidates[i];
    else
        t += fmt("%zu candidates", candidates.size());
    if (r.metrics.size() == 1) t += ": " + metric_title(r.metrics[0]) + "; ";
    else t += fmt(": %zu metrics; ", r.metrics.size());
    t += one_design ? design : std::string("designs differ (see the full report)");
    if (r.family_size > 1)
        t += fmt("; %s-adjusted p over %zu", r.adjustment == "holm" ? "Holm" : "BH", r.family_size);
    t += fmt("; %g%% CI, threshold %g%%", r.confidence * 100, r.threshold * 100);
    return t;
}

// How many sentences the full report adds: diagnostics, dropped values,
// runs left out for kernel trouble, throttling, geomean notes.
size_t note_count(const CompareReport& r) {
    size_t n = invalid_run_lines(r).size() + r.geomean_notes.size() + (r.throttle ? 1 : 0);
    for (const auto& m : r.metrics) {
        n += m.baseline.dropped.empty() ? 0 : 1;
        if (!m.comparisons.empty() && m.comparisons[0].baseline_diagnostics)
            n += sample_findings("baseline", *m.comparisons[0].baseline_diagnostics, m.unit, r.confidence).size();
        for (size_t k = 0; k < m.comparisons.size(); ++k) {
            const auto& c = m.comparisons[k];
            n += m.candidates[k].dropped.empty() ? 0 : 1;
            if (c.candidate_diagnostics)
                n += sample_findings("candidate", *c.candidate_diagnostics, m.unit, r.confidence).size();
            n += comparison_findings("baseline", "candidate", c, m.unit, r.confidence).size();
        }
    }
    return n;
}

std::string geomean_words(const GeomeanReport& g) {
    std::string t = fmt("geomean %s: %.4g", g.candidate.c_str(), g.geomean.ratio);
    if (g.geomean.ci_defined) t += fmt(" [%.4g, %.4g]", g.geomean.ci[0], g.geomean.ci[1]);
    t += fmt(" over %zu metric%s, above 1 is better", g.metrics.size(), g.metrics.size() == 1 ? "" : "s");
    return t;
}

// Each candidate's frames against the baseline's, one sentence a
// candidate (the notes are the full report's): "patched vs main: renders
// differently: 3 of 120 frames (first: 42)". None without image checks.
std::vector<std::string> image_sentences(const CompareReport& r) {
    std::vector<std::string> out;
    if (r.images)
        for (const auto& c : r.images->comparisons)
            out.push_back("images, " + c.candidate + " vs " + c.baseline + ": " + report::image_verdict_words(c));
    return out;
}

// "gl_manhattan, patch: at this noise +-1% cannot likely be settled ..."
std::string advice_words(const BriefRow& b) { return b.metric + ", " + b.candidate + ": " + b.advice; }

std::string closing_words(const CompareReport& r, const std::vector<BriefRow>& rows) {
    const bool secondary = std::any_of(rows.begin(), rows.end(), [](const BriefRow& b) { return b.secondary; });
    const size_t notes = note_count(r);
    std::string t;
    if (secondary) t = "* secondary metric: it does not gate";
    if (notes)
        t += (t.empty() ? "" : "; ") + fmt("%zu note%s: run without --brief to read %s", notes, notes == 1 ? "" : "s",
                                           notes == 1 ? "it" : "them");
    return t;
}

}  // namespace

void render_brief_text(const CompareReport& r, FILE* out) {
    const size_t width = static_cast<size_t>(std::max(r.width, text::kMinWidth));
    const std::vector<BriefRow> rows = brief_rows(r);
    text::print_wrapped(out, escape_text(header_words(r)), width, 0, 2);
    bool several = false;
    for (const auto& m : r.metrics) several |= m.candidates.size() > 1;
    // One metric (named in the header) and several candidates: the rows
    // are the candidates.
    const bool by_candidate = several && r.metrics.size() == 1;
    if (by_candidate) several = false;
    // Cells as printed (escaped); the metric (and candidate) column is cut
    // to what the others leave, a cut name marked "~" and given whole below.
    struct Cells {
        std::string metric, candidate, means, change, verdict;
    };
    // One unit for every row goes into the heading ("means, fps").
    const bool one_unit = !rows.empty() && std::all_of(rows.begin(), rows.end(), [&](const BriefRow& b) {
        return b.unit == rows[0].unit;
    });
    std::vector<Cells> cells;
    cells.push_back({by_candidate ? "candidate" : "metric", "candidate",
                     one_unit && !rows[0].unit.empty() ? "means, " + escape_text(rows[0].unit) : std::string("means"),
                     fmt("change, %g%% CI", r.confidence * 100), "verdict"});
    for (const BriefRow& b : rows)
        cells.push_back({escape_text(by_candidate ? b.candidate : b.metric), escape_text(b.candidate),
                         escape_text(one_unit || b.unit.empty() ? b.means : b.means + " " + b.unit), b.change,
                         b.verdict + (b.secondary ? "*" : "")});
    size_t wm = 0, wc = 0, wv = 0, wch = 0, wvd = 0;
    for (const Cells& c : cells) {
        wm = std::max(wm, text::display_width(c.metric));
        wc = std::max(wc, text::display_width(c.candidate));
        wv = std::max(wv, text::display_width(c.means));
        wch = std::max(wch, text::display_width(c.change));
        wvd = std::max(wvd, text::display_width(c.verdict));
    }
    if (!several) wc = 0;
    const size_t rest = (several ? 2 : 0) + wc + 2 + wv + 2 + wch + 2 + wvd;
    const size_t min_label = 8;
    text::NameCutter names;  // two names cut alike are told apart by a number after the mark
    if (rest + std::min(wm, min_label) <= width) {
        // One line per comparison; names cut only when the width says so.
        const size_t room = std::min(wm, width - rest);
        const auto cut = [&](const std::string& s, size_t n) { return names.cut(s, n); };
        for (size_t i = 0; i < cells.size(); ++i) {
            const Cells& c = cells[i];
            std::string line = text::pad_right(i ? cut(c.metric, room) : c.metric, room);
            if (several) line += "  " + text::pad_right(c.candidate, wc);
            line += "  " + text::pad_left(c.means, wv) + "  " + text::pad_right(c.change, wch) + "  " + c.verdict;
            while (!line.empty() && line.back() == ' ') line.pop_back();
            std::fprintf(out, "%s\n", line.c_str());
        }
    } else {
        // Too narrow for a row: the name on its line, the numbers under it.
        for (size_t i = 1; i < cells.size(); ++i) {
            const Cells& c = cells[i];
            text::print_wrapped(out, c.metric + (several ? " " + c.candidate : std::string()), width, 0, 2);
            const std::string unit = one_unit && !rows[i - 1].unit.empty() ? " " + escape_text(rows[i - 1].unit) : "";
            text::print_wrapped(out, c.means + unit + ", " + c.change + ", " + c.verdict, width, 2, 4);
        }
    }
    for (const auto& [cut, whole] : names.legend()) text::print_wrapped(out, cut + " is " + whole, width, 0, 2);
    for (const BriefRow& b : rows)
        if (!b.advice.empty())
            text::print_wrapped(out, escape_text(advice_words(b)), width, 0, 2);
    for (const auto& g : r.geomeans) text::print_wrapped(out, escape_text(geomean_words(g)), width, 0, 2);
    for (const std::string& s : image_sentences(r)) text::print_wrapped(out, escape_text(s), width, 0, 2);
    const std::string closing = closing_words(r, rows);
    if (!closing.empty()) text::print_wrapped(out, closing, width, 0, 2);
}

void render_brief_markdown(const CompareReport& r, FILE* out) {
    const std::vector<BriefRow> rows = brief_rows(r);
    std::fprintf(out, "%s\n\n", text::escape_markdown(header_words(r)).c_str());
    std::fprintf(out, "| metric | candidate | means | change, %g%% CI | verdict |\n", r.confidence * 100);
    std::fprintf(out, "| --- | --- | ---: | --- | --- |\n");
    // Markdown is not width-limited: the unit on every row.
    for (const BriefRow& b : rows) {
        std::string verdict = b.verdict;
        if (verdict == "regression" || verdict == "improvement" || verdict == "renders differently") verdict = "**" + verdict + "**";
        if (b.secondary) verdict += " (secondary)";
        std::fprintf(out, "| %s | %s | %s | %s | %s |\n", text::escape_markdown(b.metric).c_str(),
                     text::escape_markdown(b.candidate).c_str(),
                     text::escape_markdown(b.unit.empty() ? b.means : b.means + " " + b.unit).c_str(),
                     b.change.c_str(), verdict.c_str());
    }
    for (const BriefRow& b : rows)
        if (!b.advice.empty()) std::fprintf(out, "\n%s\n", text::escape_markdown(advice_words(b)).c_str());
    for (const auto& g : r.geomeans) std::fprintf(out, "\n%s\n", text::escape_markdown(geomean_words(g)).c_str());
    for (const std::string& s : image_sentences(r)) std::fprintf(out, "\n%s\n", text::escape_markdown(s).c_str());
    const size_t notes = note_count(r);
    if (notes)
        std::fprintf(out, "\n_%zu note%s: run without --brief to read %s_\n", notes, notes == 1 ? "" : "s",
                     notes == 1 ? "it" : "them");
}

}  // namespace gfxstat::cli
