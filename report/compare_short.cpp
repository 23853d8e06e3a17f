// SPDX-License-Identifier: MIT
// compare's default text: the answer as it fits a mail reply. A header
// line says what was compared and how; the ministat histogram of the
// primary metric shows the samples; a benchstat-style table per group of
// metrics (report/metric_groups.h) gives each comparison's means, change
// with its interval, p and verdict; then one sentence per diagnostic that
// fired (report/diagnostic_digest.h). --full prints the whole report
// (compare_text.cpp): every test, effect size and paragraph.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "findings/compare_findings.h"
#include "report/compare_distribution.h"
#include "report/compare_renderers.h"
#include "report/diagnostic_digest.h"
#include "report/diagnostic_words.h"
#include "report/image_check_words.h"
#include "report/invalid_runs.h"
#include "report/metric_direction_words.h"
#include "report/metric_groups.h"
#include "report/throttle_note.h"
#include "report/verdict_rows.h"
#include "text/number_format.h"
#include "text/print_wrapped.h"
#include "text/readable_units.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::cli {

namespace {

using text::escape_text;

// The metric whose samples are drawn: the first primary one compared.
const MetricReport* drawn_metric(const CompareReport& r) {
    for (const auto& m : r.metrics)
        if (m.primary && !m.comparisons.empty()) return &m;
    for (const auto& m : r.metrics)
        if (!m.comparisons.empty()) return &m;
    return nullptr;
}

// The design in a few words: "blocked, 14 blocks (gfxstat ab,
// sequential)"; its order and stop rule are the whole report's.
std::string short_design_words(const MetricReport& m, size_t k) {
    if (const DesignUse* u = m.design(k)) {
        const size_t n = u->pairs.blocks.size();
        std::string t = fmt("blocked, %zu block%s (gfxstat ", n, n == 1 ? "" : "s");
        t += u->design.kind.empty() ? std::string("ab") : u->design.kind;
        if (!u->design.stopping.empty()) t += ", " + u->design.stopping;
        return t + ")";
    }
    // Several candidates measured apart: samples, not a pair of them.
    if (m.candidates.size() > 1 && std::string(design_kind(m, k)) == "independent") return "independent samples";
    return design_words(m, k);
}

std::string header_words(const CompareReport& r, const MetricReport& drawn) {
    std::vector<std::string> candidates;
    for (const auto& m : r.metrics)
        for (const auto& c : m.candidates)
            if (std::find(candidates.begin(), candidates.end(), c.label) == candidates.end())
                candidates.push_back(c.label);
    std::string t = drawn.baseline.label + " vs ";
    if (candidates.size() <= 3)
        for (size_t i = 0; i < candidates.size(); ++i) t += (i ? ", " : "") + candidates[i];
    else
        t += fmt("%zu candidates", candidates.size());
    t += r.metrics.size() == 1 ? ": " + metric_title(drawn) : fmt(": %zu metrics", r.metrics.size());
    t += "; " + short_design_words(drawn, 0);
    if (r.family_size > 1)
        t += fmt("; %s-adjusted p over %zu primary comparisons", r.adjustment == "holm" ? "Holm" : "BH",
                 r.family_size);
    t += fmt("; %g%% confidence, threshold %g%%", r.confidence * 100, r.threshold * 100);
    return t;
}

std::string p_cell(double p) {
    if (std::isnan(p)) return "-";
    if (p < 0.001) return "<0.001";
    return text::number_g(p, 2);
}

const char* direction_name(analysis::Better b) {
    return b == analysis::Better::higher ? "higher" : b == analysis::Better::lower ? "lower" : "";
}

// One table's cells, escaped, before they are laid out.
struct Row {
    std::string label, candidate, base, cand, change, p, verdict;
};

struct Table {
    std::string title;  // "" for the table of whole names
    std::vector<std::string> head;
    // The heads with the histogram's keys for the samples ("x", "+"), for
    // when the labels leave the names too little room; empty: none.
    std::vector<std::string> keyed_head;
    std::vector<Row> rows;
};

// A verdict in the words of a table cell: "no change", not "no_change".
std::string verdict_cell(const MetricReport& m, size_t k) {
    std::string w = report::verdict_outcome_words(m, k);
    std::replace(w.begin(), w.end(), '_', ' ');
    return w;
}

// The change column holds the verdict's estimate (the mean of the blocks'
// log ratios, a Hodges-Lehmann shift, ...), which can lie on the other
// side of 0 than the difference of the means beside it.
bool estimate_against_means(const analysis::TwoSampleComparison& c) {
    const double means = c.candidate.mean - c.baseline.mean;
    const double change = std::isfinite(c.relative_change) ? c.relative_change : c.change;
    return (means > 0 && change < 0) || (means < 0 && change > 0);
}

Table group_table(const CompareReport& r, const MetricGroup& g, bool several, bool& secondary, bool& against) {
    Table t;
    // A titled group's numbers share one unit, readable for its middle
    // baseline mean; the table of whole names gives each row's own.
    std::vector<double> means;
    for (size_t i : g.members)
        if (!r.metrics[i].comparisons.empty()) means.push_back(std::fabs(r.metrics[i].comparisons[0].baseline.mean));
    std::sort(means.begin(), means.end());
    const MetricReport& first = r.metrics[g.members[0]];
    const text::DisplayUnit shared = text::readable_unit(first.unit, means.empty() ? 0.0 : means[means.size() / 2]);
    if (!g.title.empty()) {
        std::string title = g.title + " (";
        if (!shared.unit.empty() && shared.unit != g.title) title += shared.unit + ", ";
        title += std::string(report::direction_words(first.better)) + ")";
        if (!g.common.empty()) title += ", each " + g.common;
        t.title = escape_text(title);
    }
    const MetricReport* any = nullptr;
    for (size_t i : g.members)
        if (!r.metrics[i].comparisons.empty()) any = &r.metrics[i];
    // The means are headed by the samples' labels where they are short;
    // else by their keys in the histogram's legend ("x", "+") with one
    // candidate, or by their roles with several (the rows name them).
    const auto fits = [](const std::string& label) { return text::display_width(label) <= 10; };
    std::string base_head = several ? "baseline" : "x", cand_head = several ? "candidate" : "+";
    if (any && !several && fits(escape_text(any->baseline.label)) && fits(escape_text(any->candidates[0].label))) {
        base_head = escape_text(any->baseline.label);
        cand_head = escape_text(any->candidates[0].label);
    } else if (any && several && fits(escape_text(any->baseline.label))) {
        base_head = escape_text(any->baseline.label);
    }
    t.head = {g.title.empty() ? "metric" : "", "vs", base_head, cand_head, fmt("change, %g%% CI", r.confidence * 100),
              "p", "verdict"};
    if (!several && base_head != "x") {
        t.keyed_head = t.head;
        t.keyed_head[2] = "x";
        t.keyed_head[3] = "+";
    }
    for (size_t j = 0; j < g.members.size(); ++j) {
        const MetricReport& m = r.metrics[g.members[j]];
        const text::DisplayUnit du =
            g.title.empty() ? text::readable_unit(m.unit, m.comparisons.empty() ? 0.0 : m.comparisons[0].baseline.mean)
                            : shared;
        // The table of whole names gives each row's unit after its
        // candidate's mean ("60.07  61.86 fps").
        const std::string unit = g.title.empty() && !du.unit.empty() ? " " + du.unit : "";
        for (size_t k = 0; k < m.comparisons.size(); ++k) {
            const auto& c = m.comparisons[k];
            Row row;
            row.label = escape_text(g.labels[j]);
            row.candidate = escape_text(m.candidates[k].label);
            row.base = escape_text(text::scaled_number(c.baseline.mean, du, 4));
            row.cand = escape_text(text::scaled_number(c.candidate.mean, du, 4) + unit);
            row.change = escape_text(change_cell(c, m.verdicts[k], du));
            row.p = p_cell(m.verdicts[k].p_adjusted);
            row.verdict = verdict_cell(m, k) + (m.primary ? "" : "*");
            against |= estimate_against_means(c);
            secondary |= !m.primary;
            t.rows.push_back(std::move(row));
        }
    }
    return t;
}

// The widths of a table's columns under `head`, and what the columns
// after the names take in all.
struct Measure {
    std::vector<std::vector<std::string>> cells;
    std::vector<size_t> w;
    size_t rest = 0;
};

Measure measure(const Table& t, const std::vector<std::string>& head, bool several) {
    Measure m;
    m.cells = {head};
    for (const Row& r : t.rows) m.cells.push_back({r.label, r.candidate, r.base, r.cand, r.change, r.p, r.verdict});
    m.w.assign(7, 0);
    for (const auto& row : m.cells)
        for (size_t i = 0; i < row.size(); ++i) m.w[i] = std::max(m.w[i], text::display_width(row[i]));
    if (!several) m.w[1] = 0;
    for (size_t i = 1; i < 7; ++i) m.rest += m.w[i] ? m.w[i] + 2 : 0;
    return m;
}

// The rows whose names the numbers leave too little room under `head`
// (each then goes on a line of its own); past the table's width, all.
size_t names_apart(const Table& t, const std::vector<std::string>& head, bool several, size_t width) {
    const Measure m = measure(t, head, several);
    if (m.rest + 2 > width) return t.rows.size() + 1;
    size_t n = 0;
    for (const Row& r : t.rows) n += text::display_width(r.label) > width - m.rest ? 1 : 0;
    return n;
}

// Whether the histogram's keys, heading the means, put more names beside
// their numbers than the labels would.
bool wants_keys(const Table& t, bool several, size_t width) {
    if (t.keyed_head.empty()) return false;
    return names_apart(t, t.keyed_head, several, width) < names_apart(t, t.head, several, width);
}

// The table in columns when the width holds them (a name too long for
// what they leave on a line of its own above its row), else each row as
// its name on a line and its numbers on the next.

void print_table(FILE* out, const Table& t, bool several, size_t width, bool keyed) {
    if (!t.title.empty()) text::print_wrapped(out, t.title, width, 0, 2);
    const Measure mm = measure(t, keyed && !t.keyed_head.empty() ? t.keyed_head : t.head, several);
    const auto& cells = mm.cells;
    const auto& w = mm.w;
    const size_t rest = mm.rest;
    if (rest + 2 <= width) {
        // A name longer than the room the numbers leave goes on a line of
        // its own above its row: read whole, and no longer than a legend.
        const size_t room = std::min(w[0], width - rest);
        for (size_t i = 0; i < cells.size(); ++i) {
            const auto& c = cells[i];
            std::string label = c[0];
            if (text::display_width(label) > room) {
                if (i) text::print_wrapped(out, label, width, 0, 2);
                label.clear();
            }
            std::string line = text::pad_right(label, room);
            if (several) line += "  " + text::pad_right(c[1], w[1]);
            // Numbers to the right, words to the left.
            line += "  " + text::pad_left(c[2], w[2]) + "  " + text::pad_left(c[3], w[3]) + "  " +
                    text::pad_right(c[4], w[4]) + "  " + text::pad_left(c[5], w[5]) + "  " + c[6];
            while (!line.empty() && line.back() == ' ') line.pop_back();
            std::fprintf(out, "%s\n", line.c_str());
        }
        return;
    }
    for (size_t i = 1; i < cells.size(); ++i) {
        const auto& c = cells[i];
        text::print_wrapped(out, c[0] + (several ? " vs " + c[1] : std::string()), width, 0, 2);
        text::print_wrapped(out,
                            cells[0][2] + " " + c[2] + ", " + cells[0][3] + " " + c[3] + ", " + c[4] + ", p " + c[5] +
                                ", " + c[6],
                            width, 2, 4);
    }
}

}  // namespace

void render_short_text(const CompareReport& r, FILE* out) {
    const MetricReport* drawn = drawn_metric(r);
    if (!drawn) {
        render_text(r, out);
        return;
    }
    const size_t width = static_cast<size_t>(std::max(r.width, text::kMinWidth));
    text::print_wrapped(out, escape_text(header_words(r, *drawn)), width, 0, 2);
    std::fprintf(out, "\n");
    // A short histogram: taller stacks are scaled (and say so).
    print_distribution(r, *drawn, out, 3);

    std::vector<GroupedMetric> named;
    for (const auto& m : r.metrics) named.push_back({metric_title(m), m.unit, direction_name(m.better)});
    bool several = false;
    for (const auto& m : r.metrics) several |= m.candidates.size() > 1;
    bool secondary = false, against = false;
    std::vector<Table> tables;
    for (const MetricGroup& g : metric_groups(named)) {
        Table t = group_table(r, g, several, secondary, against);
        if (!t.rows.empty()) tables.push_back(std::move(t));
    }
    // One way of heading the means for every table of the report.
    const bool keyed =
        std::any_of(tables.begin(), tables.end(), [&](const Table& t) { return wants_keys(t, several, width); });
    for (const Table& t : tables) {
        std::fprintf(out, "\n");
        print_table(out, t, several, width, keyed);
    }
    if (secondary) text::print_wrapped(out, "* secondary metric: it does not gate", width, 0, 2);
    if (against)
        text::print_wrapped(out,
                            "change: the verdict's estimate (a mean of block log ratios, a median shift), "
                            "which can differ in sign from the means beside it",
                            width, 0, 2);
    for (const auto& g : r.geomeans) {
        std::string t = fmt("geomean of %s's ratios: %.4g", g.candidate.c_str(), g.geomean.ratio);
        if (g.geomean.ci_defined) t += fmt(" [%.4g, %.4g]", g.geomean.ci[0], g.geomean.ci[1]);
        t += fmt(" over %zu metric%s, above 1 is better", g.metrics.size(), g.metrics.size() == 1 ? "" : "s");
        text::print_wrapped(out, escape_text(t), width, 0, 2);
    }
    for (const auto& note : r.geomean_notes) text::print_wrapped(out, escape_text("geomean: " + note), width, 0, 2);
    // Each candidate's frames against the baseline's, when checked.
    report::print_image_checks(r, out);
    const auto invalid = invalid_run_lines(r);
    if (!invalid.empty()) {
        std::fprintf(out, "\n");
        text::print_wrapped(out, kInvalidRunsHeading, width, 0, 2);
        for (const auto& line : invalid) text::print_wrapped(out, escape_text(line), width, 2, 4);
    }
    render_throttle_text(r, out);
    const std::vector<std::string> digest = diagnostic_digest(r);
    if (!digest.empty()) std::fprintf(out, "\n");
    for (const std::string& s : digest) text::print_wrapped(out, "- " + escape_text(s), width, 0, 2);
    std::fprintf(out, "\n");
    text::print_wrapped(out, escape_text(r.advice.full_report) + ": every test, effect size and diagnostic", width, 0,
                        2);
}

}  // namespace gfxstat::cli
