// SPDX-License-Identifier: MIT
// The suite table as text (ministat's compactness, at most --width
// columns: a mail reply), markdown (a merge-request comment) and CSV (a
// spreadsheet). The rows come from build_suite_table; this file words them.
#include <algorithm>
#include <cmath>
#include <string>

#include "report/diagnostic_words.h"
#include "report/throttle_note.h"
#include "report/volatile_words.h"
#include "report/headline_words.h"
#include "report/image_check_words.h"
#include "report/invalid_runs.h"
#include "report/metric_direction_words.h"
#include "report/settling_advice_words.h"
#include "report/suite_table.h"
#include "text/fit_table.h"
#include "text/plural.h"
#include "text/name_cutter.h"
#include "text/readable_units.h"
#include "text/text_escape.h"
#include "text/text_width.h"
#include "text/print_wrapped.h"

namespace gfxstat::cli {

using text::escape_text;

namespace {

// "577 +-0.4%"; one value: "577".
std::string centre_cell(double centre, double spread, const text::DisplayUnit& du) {
    if (std::isnan(centre)) return "-";
    std::string t = text::scaled_number(centre, du, 4);
    // "+-": text for mail is ASCII, as ministat's is.
    if (std::isfinite(spread))
        t += spread >= 0.01    ? fmt(" +-%.0f%%", spread * 100)
             : spread >= 0.001 ? fmt(" +-%.1f%%", spread * 100)
                               : fmt(" +-%.2f%%", spread * 100);
    return t;
}

// "+1.04% [+0.61, +1.47]", "+1.04%" without an interval.
// `tested`: the row has a test of its own (not a suite tested as pairs),
// so a missing interval is said.
std::string change_cell(const SuiteCell& c, bool tested) {
    if (std::isnan(c.change)) return "-";
    std::string t = change_percent(c.change);
    if (std::isfinite(c.change_lo) && std::isfinite(c.change_hi)) {
        // Past +-1000% a bound in three digits, not in tenths of a percent.
        const auto bound = [](double x) { return std::fabs(x) >= 10 ? fmt("%+.3g%%", x * 100) : bound_percent(x); };
        std::string lo = bound(c.change_lo), hi = bound(c.change_hi);
        lo.pop_back();  // the % once, after the change
        hi.pop_back();
        t += " [" + lo + ", " + hi + "]";
    } else if (tested) {
        // Said, as --brief and the short answer say it, not left blank.
        t += " (no CI)";
    }
    return t;
}

std::string p_cell(double p) {
    if (std::isnan(p)) return "";
    if (p < 0.001) return "<0.001";
    return fmt("%.2g", p);
}

std::string notes_cell(const std::vector<size_t>& notes) {
    std::string t;
    for (size_t n : notes) t += (t.empty() ? "" : ",") + std::to_string(n);
    return t;
}

std::string row_name(const SuiteRow& row) { return row.name + (row.primary ? "" : "*"); }

// What was compared and how, in a few lines of words (raw).
std::vector<std::string> header_lines(const CompareReport& r, const SuiteTable& t, const std::string& unit) {
    std::vector<std::string> lines;
    std::string who = t.baseline + " vs ";
    for (size_t i = 0; i < t.candidates.size(); ++i) who += (i ? ", " : "") + t.candidates[i];
    std::string what = fmt("%zu benchmark%s", t.benchmarks, t.benchmarks == 1 ? "" : "s");
    if (!unit.empty()) what += ", " + unit;
    if (!t.mixed_directions && t.benchmarks) what += std::string(", ") + report::direction_words(t.direction);
    lines.push_back(who + ": " + what);
    std::string how;
    if (r.paired_by_benchmark)
        how = "paired by benchmark: a benchmark has one value a side (its mean where it has more), so the "
              "benchmarks are the pairs and the suite is tested as one";
    else {
        how = "each benchmark tested on its own";
        if (r.family_size > 1)
            how += fmt(", %s-adjusted p over %zu", r.adjustment == "holm" ? "Holm" : "BH", r.family_size);
    }
    how += fmt("; %g%% CI, threshold %g%%", r.confidence * 100, r.threshold * 100);
    lines.push_back(how);
    return lines;
}

std::string counts_words(const SuiteCounts& n) {
    std::string t = n.candidate + ": ";
    std::vector<std::string> parts;
    parts.push_back(fmt("%zu better (+)", n.better));
    parts.push_back(fmt("%zu worse (-)", n.worse));
    if (n.changed) parts.push_back(fmt("%zu changed, direction unknown (!)", n.changed));
    if (n.renders_differently) parts.push_back(fmt("%zu better but renders differently (!)", n.renders_differently));
    parts.push_back(fmt("%zu equivalent (=)", n.equivalent));
    parts.push_back(fmt("%zu no significant change (~)", n.unchanged));
    if (n.untold) parts.push_back(fmt("%zu untold (?)", n.untold));
    for (size_t i = 0; i < parts.size(); ++i) t += (i ? ", " : "") + parts[i];
    return t;
}

// The paired analysis of one candidate in sentences (raw).
std::vector<std::string> paired_lines(const CompareReport& r, const PairedSuiteReport& p) {
    const analysis::PairedSuite& s = p.suite;
    std::vector<std::string> lines;
    const std::string on = s.log_ratio ? (s.oriented ? "the log ratios, turned so that above 0 is better"
                                                     : "the log ratios ln(candidate/baseline)")
                                       : (s.oriented ? "the differences, turned so that above 0 is better"
                                                     : "the differences candidate - baseline");
    std::string t = fmt("%s over %zu benchmarks: ", p.candidate.c_str(), s.pairs);
    if (s.t.defined) t += fmt("paired t on %s: t = %.3g, df %g, p = %.3g", on.c_str(), s.t.t, s.t.df, s.t.p);
    else
        t += fmt("paired t on %s: undefined (every difference is %.4g: no variability to judge noise by)", on.c_str(),
                 s.t.difference);
    if (!s.wilcoxon.defined) t += "; Wilcoxon signed-rank: undefined (every difference is 0)";
    else
        t += fmt("; Wilcoxon signed-rank V = %.10g, p = %.3g (%s%s)", s.wilcoxon.v, s.wilcoxon.p, s.wilcoxon.method.c_str(),
             s.wilcoxon.zeros ? fmt(", %zu zero difference%s left out", s.wilcoxon.zeros,
                                    s.wilcoxon.zeros == 1 ? "" : "s").c_str()
                              : "");
    lines.push_back(t);
    const char* above = s.oriented ? ", above 1 is better" : "";
    if (s.log_ratio) {
        // The signed-rank interval reaches the level asked only where the
        // Walsh averages allow one that close (R widens it, as here): its
        // own level is printed when it differs.
        const double hl_level = s.hodges_lehmann.achieved_confidence;
        std::string hl = fmt("Hodges-Lehmann %.4g", s.hl_ratio);
        if (hl_level <= 0) hl += " (no interval: the nonzero differences are all equal, or there are none)";
        else if (std::fabs(hl_level - r.confidence) > 5e-4)
            hl += fmt(", %.4g%% CI %.4g to %.4g (the level the signed ranks reach)", hl_level * 100, s.hl_ratio_ci[0],
                      s.hl_ratio_ci[1]);
        else hl += fmt(", CI %.4g to %.4g", s.hl_ratio_ci[0], s.hl_ratio_ci[1]);
        const std::string geomean_ci =
            std::isfinite(s.geomean_ci[0]) && std::isfinite(s.geomean_ci[1])
                ? fmt("%g%% CI %.4g to %.4g%s", r.confidence * 100, s.geomean_ci[0], s.geomean_ci[1], above)
                : std::string("no interval (the paired t is undefined: the ratios do not vary)");
        lines.push_back(fmt("geomean of the ratios %.4g, %s; %s", s.geomean_ratio, geomean_ci.c_str(), hl.c_str()));
    }
    lines.push_back(fmt("as two independent samples of benchmarks instead: Welch p = %.2g%s", s.unpaired_welch_p,
                        s.unpaired_welch_p > 0.2 && p.verdict.p_adjusted < 1 - r.confidence
                            ? ": the benchmarks differ from each other far more than the change moves them, "
                              "which pairing cancels"
                            : ""));
    lines.push_back(std::string("verdict: ") + (p.image_overruled ? "renders differently" : analysis::outcome_name(p.verdict.outcome)) + ": " + report::verdict_reason(p.verdict));
    return lines;
}

// What the last row is (raw).
std::string summary_row_words(const CompareReport& r, const SuiteTable& t) {
    std::string g;
    if (r.paired_by_benchmark)
        g = "suite: the geometric mean of the columns; its change is the primary test's estimate of the "
            "per-benchmark ratio (the geomean for the paired t, Hodges-Lehmann for the signed-rank test) with "
            "its interval and the suite's mark";
    else
        g = "geomean: the geometric mean of the columns; its change is the geomean of the ratios of means, with a "
            "delta-method interval";
    if (t.geomean_turned) g += ", turned so that above 0 is better (the benchmarks' directions differ)";
    return g;
}

// Lines of this report hold benchmark names from data: escaped here.
void print_wrapped(FILE* out, const std::string& raw, size_t width, size_t first, size_t rest) {
    text::print_wrapped(out, escape_text(raw), width, first, rest);
}

// The table within `width`: names cut to what the other columns leave
// (down to 8 columns; a cut name ends in "~" and is given whole below the
// table), else the columns split into several tables (fit_columns).
std::vector<size_t> column_widths(const text::TextTable& tab) {
    std::vector<size_t> w(tab.head.size(), 0);
    for (size_t i = 0; i < tab.head.size(); ++i) w[i] = text::display_width(tab.head[i]);
    for (const auto& row : tab.rows)
        for (size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], text::display_width(row[i]));
    return w;
}

// Whether the table fits `width` with its names cut to 8 columns at most.
bool fits(const text::TextTable& tab, size_t width) {
    const std::vector<size_t> w = column_widths(tab);
    size_t rest = 0;
    for (size_t i = 1; i < w.size(); ++i) rest += 2 + w[i];
    return rest + std::min<size_t>(w[0], 8) <= width;
}

void print_table(text::TextTable tab, size_t width, FILE* out) {
    const std::vector<size_t> w = column_widths(tab);
    size_t rest = 0;
    for (size_t i = 1; i < w.size(); ++i) rest += 2 + w[i];
    if (!fits(tab, width)) {
        // Columns in several tables; where even one column does not fit,
        // each row stacked as "head: value" lines (the mark's head named).
        std::vector<std::string> lines = text::fit_columns(tab, width);
        if (std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return text::display_width(l) > width; })) {
            for (std::string& h : tab.head)
                if (h.empty()) h = "mark";
            lines = text::fit_table(tab, width, 0);
        }
        for (const std::string& line : lines) std::fprintf(out, "%s\n", line.c_str());
        return;
    }
    const size_t room = std::min(w[0], width - rest);
    // Two names cut alike are told apart by a number after the mark.
    text::NameCutter names;
    const auto cut = [&](const std::string& name) { return names.cut(name, room); };
    const auto line = [&](const std::vector<std::string>& cells, bool head) {
        std::string t = text::pad_right(head ? cells[0] : cut(cells[0]), room);
        // The mark columns (no head) read left to right: "~", "~ 1".
        for (size_t i = 1; i < cells.size(); ++i)
            t += "  " + (tab.head[i].empty() ? text::pad_right(cells[i], w[i]) : text::pad_left(cells[i], w[i]));
        while (!t.empty() && t.back() == ' ') t.pop_back();
        std::fprintf(out, "%s\n", t.c_str());
    };
    line(tab.head, true);
    for (const auto& row : tab.rows) line(row, false);
    for (const auto& [c, whole] : names.legend())  // cells are escaped already
        for (const std::string& l : text::wrap_text(c + " is " + whole, width, 0, 2)) std::fprintf(out, "%s\n", l.c_str());
}

// How the rows' values are shown. One unit for every row: one display
// unit for the whole table (from the median baseline, so that rows read
// against each other and the geomean row), named in the header. Units that
// differ: each row in its own, written in its cells.
struct Units {
    bool one = false;
    text::DisplayUnit table;
    text::DisplayUnit of(const SuiteRow& row) const {
        return one ? table : text::readable_unit(row.unit, row.baseline);
    }
    // A centre in the row's unit, with the unit when rows differ.
    std::string centre(const SuiteRow& row, double centre, double spread) const {
        const text::DisplayUnit du = of(row);
        std::string t = centre_cell(centre, spread, du);
        if (!one && !du.unit.empty() && t != "-") {
            const size_t sp = t.find(" +-");
            t.insert(sp == std::string::npos ? t.size() : sp, " " + escape_text(du.unit));
        }
        return t;
    }
};

Units units_of(const SuiteTable& t) {
    Units u;
    u.one = !t.unit.empty() || std::all_of(t.rows.begin(), t.rows.end(), [](const SuiteRow& r) { return r.unit.empty(); });
    std::vector<double> base;
    for (const SuiteRow& row : t.rows)
        if (std::isfinite(row.baseline)) base.push_back(std::fabs(row.baseline));
    std::sort(base.begin(), base.end());
    u.table = text::readable_unit(t.unit, base.empty() ? 0 : base[base.size() / 2]);
    return u;
}

}  // namespace

void render_suite_text(const CompareReport& r, FILE* out) {
    const SuiteTable t = build_suite_table(r);
    const Units units = units_of(t);
    const size_t width = static_cast<size_t>(std::max(r.width, text::kMinWidth));
    for (const std::string& line : header_lines(r, t, units.one ? units.table.unit : ""))
        print_wrapped(out, line, width, 0, 2);
    std::fprintf(out, "\n");
    const bool tested = !r.paired_by_benchmark;
    // The table of the candidates `ks`: benchmark, baseline, then per
    // candidate its centre, change, p and mark.
    const auto make_table = [&](const std::vector<size_t>& ks) {
        text::TextTable tab;
        tab.head.push_back("benchmark");
        tab.head.push_back(escape_text(t.baseline));
        for (size_t k : ks) {
            tab.head.push_back(escape_text(t.candidates[k]));
            tab.head.push_back(ks.size() > 1 ? "change" : fmt("change, %g%% CI", r.confidence * 100));
            if (tested) tab.head.push_back("p");
            tab.head.push_back("");  // the mark, and the notes it has
        }
        const auto add_row = [&](const SuiteRow& row, bool geomean) {
            // The geomean's centres mean something only in one unit.
            const auto centre = [&](double v, double spread) {
                return geomean && !units.one ? std::string("-") : units.centre(row, v, spread);
            };
            std::vector<std::string> cells = {escape_text(geomean ? row.name : row_name(row)),
                                              centre(row.baseline, row.baseline_spread)};
            for (size_t k : ks) {
                const auto& c = row.cells[k];
                cells.push_back(c ? centre(c->centre, c->spread) : "-");
                cells.push_back(c ? change_cell(*c, tested && !geomean) : "");
                if (tested) cells.push_back(c ? p_cell(c->p) : "");
                std::string mark = c ? std::string(1, c->mark) : "";
                if (c && !c->notes.empty()) mark += " " + notes_cell(c->notes);
                cells.push_back(mark);
            }
            tab.rows.push_back(std::move(cells));
        };
        for (const SuiteRow& row : t.rows) add_row(row, false);
        if (t.geomean) add_row(*t.geomean, true);
        return tab;
    };
    std::vector<size_t> all(t.candidates.size());
    for (size_t k = 0; k < all.size(); ++k) all[k] = k;
    text::TextTable whole = make_table(all);
    if (all.size() < 2 || fits(whole, width)) print_table(std::move(whole), width, out);
    else
        // Too wide for every candidate side by side: a table each, so that a
        // mark never sits under another candidate's head.
        for (size_t k : all) {
            if (k) std::fprintf(out, "\n");
            print_wrapped(out, t.candidates[k] + " vs " + t.baseline + ":", width, 0, 2);
            print_table(make_table({k}), width, out);
        }
    std::fprintf(out, "\n");
    if (t.hidden)
        print_wrapped(out, fmt("%zu of %zu benchmarks without a change are not shown (--only-changed)", t.hidden,
                               t.benchmarks),
                      width, 0, 2);
    for (const SuiteCounts& n : t.counts) print_wrapped(out, counts_words(n), width, 0, 2);
    for (const PairedSuiteReport& p : r.paired)
        for (const std::string& line : paired_lines(r, p)) print_wrapped(out, line, width, 0, 2);
    if (t.geomean) print_wrapped(out, summary_row_words(r, t), width, 0, 2);
    for (const std::string& note : r.geomean_notes) print_wrapped(out, "geomean: " + note, width, 0, 2);
    std::string marks = fmt("marks: + better, - worse, = equivalent within %g%%, ~ no significant change, "
                            "? cannot tell", r.threshold * 100);
    const bool differ = std::any_of(t.counts.begin(), t.counts.end(),
                                    [](const SuiteCounts& n) { return n.renders_differently > 0; }) ||
                        (t.geomean && std::any_of(t.geomean->cells.begin(), t.geomean->cells.end(),
                                                  [](const auto& c) { return c && c->renders_differently; }));
    if (std::any_of(t.counts.begin(), t.counts.end(), [](const SuiteCounts& n) { return n.changed > 0; }))
        marks += differ ? ", ! changed (direction unknown, or better but renders differently)"
                        : ", ! changed (direction unknown)";
    else if (differ)
        marks += ", ! better but renders differently";
    if (std::any_of(t.rows.begin(), t.rows.end(), [](const SuiteRow& row) { return !row.primary; }))
        marks += "; * secondary: never gates";
    if (!t.notes.empty()) marks += "; a number after a mark: a note below";
    if (r.paired_by_benchmark) marks += "; the rows are not tested on their own: the suite is";
    print_wrapped(out, marks, width, 0, 2);
    for (const std::string& note : r.selection_notes) print_wrapped(out, "note: " + note, width, 0, 2);
    // Candidates that ran under other load, heat or clocks than the
    // baseline: in the table's report, not only on stderr.
    for (const auto& shift : r.context_shifts)
        print_wrapped(out, gfxstat::report::volatile_shift_line(shift), width, 0, 2);
    if (!t.notes.empty()) {
        std::fprintf(out, "\nnotes\n");
        for (size_t i = 0; i < t.notes.size(); ++i)
            print_wrapped(out, fmt("%zu. ", i + 1) + t.notes[i], width, 2, 5);
    }
    // Each candidate's frames against the baseline's, when checked.
    gfxstat::report::print_image_checks(r, out);
    const auto invalid = invalid_run_lines(r);
    if (!invalid.empty()) {
        std::fprintf(out, "\n%s\n", kInvalidRunsHeading);
        for (const auto& line : invalid) print_wrapped(out, line, width, 2, 4);
    }
    render_throttle_text(r, out);
}

void render_suite_markdown(const CompareReport& r, FILE* out) {
    const SuiteTable t = build_suite_table(r);
    const Units units = units_of(t);
    const auto lines = header_lines(r, t, units.one ? units.table.unit : "");
    std::fprintf(out, "**%s**  \n%s\n\n", text::escape_markdown(lines[0]).c_str(),
                 text::escape_markdown(lines[1]).c_str());
    const bool tested = !r.paired_by_benchmark;
    std::string head = "| benchmark | " + text::escape_markdown(t.baseline) + " |";
    std::string rule = "| --- | ---: |";
    for (const std::string& c : t.candidates) {
        head += " " + text::escape_markdown(c) + " | change | " + (tested ? "p | " : "") + " | note |";
        rule += std::string(" ---: | ---: |") + (tested ? " ---: |" : "") + " :---: | --- |";
    }
    std::fprintf(out, "%s\n%s\n", head.c_str(), rule.c_str());
    const auto add_row = [&](const SuiteRow& row, bool geomean) {
        const auto centre = [&](double v, double spread) {
            return geomean && !units.one ? std::string("-") : units.centre(row, v, spread);
        };
        std::string line = "| " + (geomean ? "**" + text::escape_markdown(row.name) + "**"
                                           : text::escape_markdown(row_name(row))) +
                           " | " + centre(row.baseline, row.baseline_spread) + " |";
        for (size_t k = 0; k < t.candidates.size(); ++k) {
            const auto& c = row.cells[k];
            std::string mark = c ? std::string(1, c->mark) : "";
            if (mark == "+" || mark == "-") mark = "**" + mark + "**";
            // A benchmark whose test is undefined (constant sides, an exact
            // metric) has no p: "–", as in compare's own markdown.
            const std::string p = !c ? "" : !geomean && std::isnan(c->p) ? "–" : p_cell(c->p);
            line += " " + (c ? centre(c->centre, c->spread) : std::string("-")) + " | " +
                    (c ? change_cell(*c, tested && !geomean) : "") + " |" + (tested ? " " + p + " |" : "") + " " +
                    mark + " | " + (c ? notes_cell(c->notes) : "") + " |";
        }
        std::fprintf(out, "%s\n", line.c_str());
    };
    for (const SuiteRow& row : t.rows) add_row(row, false);
    if (t.geomean) add_row(*t.geomean, true);
    std::fprintf(out, "\n");
    if (t.hidden) std::fprintf(out, "%zu of %zu benchmarks without a change are not shown.\n\n", t.hidden, t.benchmarks);
    for (const SuiteCounts& n : t.counts) std::fprintf(out, "- %s\n", text::escape_markdown(counts_words(n)).c_str());
    for (const PairedSuiteReport& p : r.paired)
        for (const std::string& line : paired_lines(r, p)) std::fprintf(out, "- %s\n", text::escape_markdown(line).c_str());
    for (const std::string& note : r.geomean_notes)
        std::fprintf(out, "- geomean: %s\n", text::escape_markdown(note).c_str());
    for (const std::string& note : r.selection_notes)
        std::fprintf(out, "- note: %s\n", text::escape_markdown(note).c_str());
    if (r.images)
        for (const auto& c : r.images->comparisons)
            std::fprintf(out, "- images, %s\n",
                         text::escape_markdown(c.candidate + " vs " + c.baseline + ": " +
                                               gfxstat::report::image_verdict_words(c))
                             .c_str());
    std::fprintf(out, "\n_marks: + better, - worse, = equivalent within %g%%, ~ no significant change, ? cannot tell_\n",
                 r.threshold * 100);
    if (!t.notes.empty()) {
        std::fprintf(out, "\n");
        for (size_t i = 0; i < t.notes.size(); ++i)
            std::fprintf(out, "%zu. %s\n", i + 1, text::escape_markdown(t.notes[i]).c_str());
    }
    render_throttle_markdown(r, out);
}

namespace {

// RFC 4180: a cell with a comma, quote or line break is quoted. Text from
// data is escaped for control characters first.
std::string csv_cell(const std::string& raw) {
    std::string s = escape_text(raw);
    // A text cell a spreadsheet would run as a formula ("=HYPERLINK(...)")
    // is kept as text, the way spreadsheets themselves mark it.
    if (!s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@')) s.insert(0, "'");
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

const char* direction_name(analysis::Better b) {
    return b == analysis::Better::lower ? "lower" : b == analysis::Better::higher ? "higher" : "unknown";
}

std::string num(double v) {
    if (!std::isfinite(v)) return "";
    char b[32];
    std::snprintf(b, sizeof b, "%.17g", v);
    return b;
}

}  // namespace

void render_suite_csv(const CompareReport& r, FILE* out) {
    const SuiteTable t = build_suite_table(r);
    std::fprintf(out, "benchmark,unit,direction,role,baseline,baseline_centre,baseline_ci_rel,candidate,centre,ci_rel,"
                      "change,change_lo,change_hi,p,mark,verdict,notes\n");
    const auto add_row = [&](const SuiteRow& row) {
        for (size_t k = 0; k < t.candidates.size(); ++k) {
            const auto& c = row.cells[k];
            if (!c) continue;
            std::string notes;
            for (size_t n : c->notes) notes += (notes.empty() ? "" : " ") + t.notes[n - 1];
            std::fprintf(out, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%c,%s,%s\n", csv_cell(row.name).c_str(),
                         csv_cell(row.unit).c_str(), direction_name(row.better),
                         row.primary ? "primary" : "secondary", csv_cell(t.baseline).c_str(), num(row.baseline).c_str(),
                         num(row.baseline_spread).c_str(), csv_cell(t.candidates[k]).c_str(), num(c->centre).c_str(),
                         num(c->spread).c_str(), num(c->change).c_str(), num(c->change_lo).c_str(),
                         num(c->change_hi).c_str(), num(c->p).c_str(), c->mark, c->outcome.c_str(),
                         csv_cell(notes).c_str());
        }
    };
    for (const SuiteRow& row : t.rows) add_row(row);
    if (t.geomean) add_row(*t.geomean);
}

}  // namespace gfxstat::cli
