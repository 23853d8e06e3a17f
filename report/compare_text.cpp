// SPDX-License-Identifier: MIT
// The text report: for each metric a ministat-style histogram and table,
// then each candidate's tests, effect and verdict in a few plain lines,
// never wider than --width (so it can be pasted into a 72-column mail).
// Labels, names and units come from data: each line or field is escaped
// once, as it is printed (text/text_escape.h).
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <string>

#include "analysis/ministat_plot.h"
#include "findings/compare_findings.h"
#include "report/compare_distribution.h"
#include "report/compare_renderers.h"
#include "report/diagnostic_words.h"
#include "report/throttle_note.h"
#include "report/volatile_words.h"
#include "report/fleet_report.h"
#include "report/headline_words.h"
#include "report/image_check_words.h"
#include "report/metric_direction_words.h"
#include "report/invalid_runs.h"
#include "report/sample_keys.h"
#include "report/settling_advice_words.h"
#include "report/stored_boots_words.h"
#include "text/fit_table.h"
#include "text/name_cutter.h"
#include "text/readable_units.h"
#include "text/text_escape.h"
#include "text/text_width.h"
#include "text/number_format.h"

namespace gfxstat::cli {

using text::escape_text;



const char* design_kind(const MetricReport& m, size_t k) {
    if (m.design(k)) return "blocked";
    if (k < m.comparisons.size() && m.comparisons[k].clustering.paired) return "interleaved";
    if (k < m.comparisons.size() && m.comparisons[k].stored) return "stored_boots";
    return "independent";
}

std::string design_words(const MetricReport& m, size_t k) {
    if (const DesignUse* u = m.design(k)) {
        const data::DesignRecord& d = u->design;
        const size_t n = u->pairs.blocks.size();
        std::string t = fmt("blocked, %zu block%s", n, n == 1 ? "" : "s");
        if (u->pairs.incomplete)
            t += fmt(" and %zu incomplete left out", u->pairs.incomplete);
        t += " (gfxstat " + (d.kind.empty() ? std::string("ab") : d.kind);
        if (!d.order.empty()) t += ", " + d.order + " order";
        if (d.stopping == "sequential") {
            t += ", sequential: " + (d.method.empty() ? std::string("stop rule") : d.method) +
                 fmt(" at %g%%", d.confidence * 100);
            if (!d.metric.empty() && d.metric != m.metric) t += " on " + d.metric;
            for (size_t i = 0; i < d.looks.size(); ++i)
                t += (i ? ", " : ", looks at blocks ") + std::to_string(d.looks[i]);
        } else if (!d.stopping.empty()) {
            t += ", " + d.stopping;
            if (d.runs) t += fmt(": %llu blocks", static_cast<unsigned long long>(*d.runs));
        }
        return t + ")";
    }
    if (k < m.comparisons.size() && m.comparisons[k].clustering.paired) {
        const size_t n = m.comparisons[k].clustering.boot_differences.size();
        return fmt("interleaved in %zu shared boots (paired by boot)", n);
    }
    if (k < m.comparisons.size() && m.comparisons[k].stored)
        return report::stored_boots_design_words(*m.comparisons[k].stored);
    return "two independent samples";
}

namespace {

// Prints "  label  text", wrapping text at spaces to `width` columns with
// continuation lines indented under the text (a word longer than a line,
// a path say, is cut over several). `text` may hold labels and names from
// data: it is escaped here.
void field(FILE* out, int width, const std::string& label, const std::string& raw_text) {
    const size_t indent = 2 + 13;
    const std::string lead = "  " + label + std::string(indent > label.size() + 2 ? indent - label.size() - 2 : 1, ' ');
    const size_t limit = static_cast<size_t>(std::max(width, text::kMinWidth));
    std::vector<std::string> lines = text::wrap_text(escape_text(raw_text), limit, lead.size(), indent);
    if (lines.empty()) lines.emplace_back(lead.size(), ' ');
    lines[0].replace(0, lead.size(), lead);
    for (const std::string& line : lines) std::fprintf(out, "%s\n", line.c_str());
}

// Intervals with as many digits as the rest of the report (3-4
// significant), not every digit a double holds.
std::string ci(const std::array<double, 2>& c) { return fmt("[%.4g, %.4g]", c[0], c[1]); }

// An interval of differences in the metric's unit, shown in the unit
// readable for `estimate` (the difference it surrounds; its widest end when
// that is 0), like the difference itself.
std::string ci(const std::array<double, 2>& c, const text::DisplayUnit& row, double estimate) {
    double magnitude = std::fabs(estimate);
    if (!(magnitude > 0)) magnitude = std::max(std::fabs(c[0]), std::fabs(c[1]));
    const text::DisplayUnit u = text::difference_unit(row, magnitude);
    if (!u.scaled()) return fmt("[%.3g, %.3g]", c[0], c[1]) + (u.unit.empty() ? "" : " " + u.unit);
    return "[" + text::scaled_number(c[0], u, 3) + ", " + text::scaled_value(c[1], u, 3) + "]";
}

// A difference in the unit readable for its own magnitude.
std::string diff(double v, const text::DisplayUnit& row, bool sign = false) {
    return difference_value(v, row, v, sign);
}

// "Machines:": a fleet's variance split per side, each machine's change
// with the one that stands out marked, and the sentence naming it. Only
// for values that span 2+ machines (Fleet::known).
void print_fleet(const CompareReport& r, const MetricReport& m, size_t k, FILE* out) {
    const analysis::Fleet& f = m.comparisons[k].fleet;
    if (!f.known) return;
    std::fprintf(out, "  Machines:\n");
    const std::string base = fleet_variance_words(f.baseline_variance), cand = fleet_variance_words(f.candidate_variance);
    if (!base.empty()) field(out, r.width, "variance", role_name("baseline", m.baseline.label) + ": " + base);
    if (!cand.empty())
        field(out, r.width, base.empty() ? "variance" : "", role_name("candidate", m.candidates[k].label) + ": " + cand);
    if (f.by_machines)
        field(out, r.width, "unit",
              fmt("machines: the verdict's test is the %s (%zu machine%s)", analysis::primary_test_words(m.verdicts[k].primary),
                  static_cast<size_t>(m.comparisons[k].n_per_side), m.comparisons[k].n_per_side == 1 ? "" : "s"));
    else
        field(out, r.width, "unit",
              f.machines_matter ? std::string("runs or boots: too few machines a side to test machines")
                                : std::string("runs or boots: the machines do not differ significantly"));
    const std::string needed = machines_needed_words(m.verdicts[k], r.threshold);
    if (!needed.empty()) field(out, r.width, "needed", needed + " (machines needed)");
    const analysis::MachineChanges& mc = f.changes;
    if (!mc.rows.empty()) {
        text::TextTable t;
        t.head = {"machine", "runs", "change", text::percent_g(r.confidence) + " CI", ""};
        const auto pct = [](double x) { return std::isfinite(x) ? fmt("%+.3g%%", x * 100) : std::string("-"); };
        for (const analysis::MachineChange& row : mc.rows)
            t.rows.push_back({escape_text(machine_display_name(m, k, row.machine)),
                              fmt("%zu/%zu", row.baseline_runs, row.candidate_runs), pct(row.relative_change),
                              row.welch.defined && std::isfinite(row.relative_ci[0]) ? "[" + pct(row.relative_ci[0]) + ", " + pct(row.relative_ci[1]) + "]"
                                                : std::string("-"),
                              row.stands_out ? "<- stands out" : ""});
        for (const std::string& line : text::fit_table(t, static_cast<size_t>(r.width), 4))
            std::fprintf(out, "%s\n", line.c_str());
    }
    const std::string odd = odd_machine_sentence(m, k);
    if (!odd.empty()) field(out, r.width, "odd machine", odd);
}

void print_metric(const CompareReport& r, const MetricReport& m, FILE* out) {
    print_distribution(r, m, out, 20);
    const text::DisplayUnit du =
        text::readable_unit(m.unit, m.comparisons.empty() ? 0.0 : m.comparisons[0].baseline.mean);
    std::vector<const ReportSample*> samples = {&m.baseline};
    for (const auto& c : m.candidates) samples.push_back(&c);
    const SampleKeys keys(samples.size());

    // Each sample's own diagnostics once, the pair's with its comparison.
    const auto findings = [&](const std::vector<std::string>& sentences) {
        for (size_t i = 0; i < sentences.size(); ++i) field(out, r.width, i ? "" : "diagnostics", sentences[i]);
    };
    const auto dropped = [&](const ReportSample& s) {
        if (s.dropped.empty()) return;
        std::string list;
        for (size_t i = 0; i < s.dropped.size(); ++i)
            list += (i ? ", " : "") + text::scaled_value(s.dropped[i].second, du, 4) +
                    fmt(" (value %zu)", s.dropped[i].first + 1);
        field(out, r.width, "dropped", fmt("%zu outlier%s of %s (--drop-outliers): ", s.dropped.size(),
                                           s.dropped.size() == 1 ? "" : "s", s.label.c_str()) + list);
    };
    if (!m.comparisons.empty()) {
        dropped(m.baseline);
        if (m.comparisons[0].baseline_diagnostics)
            findings(sample_findings(role_name("baseline", m.baseline.label), *m.comparisons[0].baseline_diagnostics, m.unit,
                                     r.confidence, 5, &m.baseline.dropped, r.advice, &m.baseline.recorded));
    }
    for (size_t k = 0; k < m.candidates.size(); ++k) {
        const analysis::TwoSampleComparison& c = m.comparisons[k];
        const analysis::Verdict& v = m.verdicts[k];
        const std::string& cand = m.candidates[k].label;
        std::fprintf(out, "\n");
        for (const std::string& line : text::wrap_text(keys.key(k + 1) + " " + escape_text(cand) + " vs " + keys.key(0) +
                                                             " " + escape_text(m.baseline.label) + ":",
                                                         static_cast<size_t>(r.width), 0, 2))
            std::fprintf(out, "%s\n", line.c_str());
        // The design is named where it is not the plain two-sample one.
        if (std::string(design_kind(m, k)) != "independent") field(out, r.width, "design", design_words(m, k));
        field(out, r.width, "change", headline_change(c, v, r.confidence, &du));
        std::string difference = diff(c.difference, du, true);
        if (std::isfinite(c.relative_difference)) difference += fmt(" (%+.3g%%)", c.relative_difference * 100);
        difference += " in the mean, " + diff(c.candidate.median - c.baseline.median, du, true) +
                      " in the median";
        field(out, r.width, "difference", difference);
        // An exact metric is not tested: the difference is the answer.
        const bool tested = v.primary != analysis::PrimaryTest::exact;
        const auto ttext = [&](const analysis::TTest& t) {
            if (!t.defined)
                return std::string("undefined: both samples are constant; the difference ") +
                       (t.difference == 0 ? "is exactly 0" : "is exactly " + text::scaled_value(t.difference, text::difference_unit(du, std::fabs(t.difference)), 6));
            return fmt("t = %.4g, df = %.4g, p = %.3g, %s CI ", t.t, t.df, t.p, text::percent_g(r.confidence).c_str()) +
                   ci(t.ci, du, t.difference);
        };
        if (tested) field(out, r.width, "Welch t", ttext(c.welch));
        std::string student = ttext(c.student);
        // ministat's relative form: the interval as a percentage of the baseline mean.
        if (c.student.defined && c.baseline.mean != 0)
            student += fmt(" = %+.3g%% +/- %.3g%%", (c.student.ci[0] + c.student.ci[1]) / 2 / std::fabs(c.baseline.mean) * 100,
                           (c.student.ci[1] - c.student.ci[0]) / 2 / std::fabs(c.baseline.mean) * 100);
        if (tested) field(out, r.width, "Student t", student);
        if (tested) field(out, r.width, "Mann-Whitney",
              fmt("U = %.6g, p = %.3g (%s); Hodges-Lehmann shift %s, %s CI ", c.mann_whitney.u,
                  c.mann_whitney.p, c.mann_whitney.exact ? "exact" : "normal approximation",
                  diff(c.hodges_lehmann.estimate, du).c_str(), text::percent_g(r.confidence).c_str()) +
                  ci(c.hodges_lehmann.ci, du, c.hodges_lehmann.estimate));
        if (c.bootstrap && tested) {
            const auto& b = *c.bootstrap;
            std::string t = "median difference " + diff(b.median_difference.estimate, du) +
                            (b.median_difference.bca_defined ? ", BCa " : ", percentile ") +
                            ci(b.median_difference.bca_defined ? b.median_difference.bca : b.median_difference.percentile,
                               du, b.median_difference.estimate);
            if (b.ratio_defined)
                t += fmt("; ratio %.4g, ", b.median_ratio.estimate) +
                     (b.median_ratio.bca_defined ? "BCa " : "percentile ") +
                     ci(b.median_ratio.bca_defined ? b.median_ratio.bca : b.median_ratio.percentile);
            // The exact distribution draws nothing: no resamples, no seed.
            t += b.exact ? std::string(" (exact distribution)")
                         : fmt(" (%d resamples, seed %llu)", b.resamples, static_cast<unsigned long long>(r.seed));
            field(out, r.width, "bootstrap", t);
        }
        std::string effect = c.effect.defined
                                 ? fmt("Hedges' g = %.3g, %s CI ", c.effect.hedges_g, text::percent_g(r.confidence).c_str()) +
                                       ci(c.effect.g_ci)
                                 : std::string("Hedges' g undefined (no variability)");
        effect += fmt("; P(%s > %s) = %.3g", cand.c_str(), m.baseline.label.c_str(),
                      c.mann_whitney.probability_of_superiority);
        if (tested) field(out, r.width, "effect", effect);
        std::string verdict = report::verdict_outcome_words(m, k);
        for (auto& ch : verdict) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        // One and the same value throughout: no test was run, so none is named.
        if (v.constant)
            verdict += ": " + report::verdict_reason(v);
        else
            verdict += std::string(" by ") + analysis::primary_test_words(v.primary) + " (" + c.primary.why +
                       "): " + report::verdict_reason(v);
        if (!m.primary) verdict += " [secondary metric: " + m.secondary_why + "; it does not gate]";
        field(out, r.width, "verdict", verdict);
        if (m.exact) {
            const std::string varies = exact_variation(c, m.baseline.label, cand);
            if (!varies.empty()) field(out, r.width, "warning", varies);
        }
        dropped(m.candidates[k]);
        std::vector<std::string> notes;
        if (c.candidate_diagnostics)
            notes = sample_findings(role_name("candidate", cand), *c.candidate_diagnostics, m.unit, r.confidence, 5,
                                    &m.candidates[k].dropped, r.advice, &m.candidates[k].recorded);
        for (auto& s : comparison_findings(role_name("baseline", m.baseline.label), role_name("candidate", cand), c, m.unit,
                                           r.confidence, r.advice))
            notes.push_back(std::move(s));
        findings(notes);
        print_fleet(r, m, k, out);
    }
}

void print_geomeans(const CompareReport& r, FILE* out) {
    for (const auto& g : r.geomeans) {
        std::string t = fmt("%s: %.4g", g.candidate.c_str(), g.geomean.ratio);
        if (g.geomean.ci_defined) t += fmt(", %g%% CI %.4g to %.4g", r.confidence * 100, g.geomean.ci[0], g.geomean.ci[1]);
        t += fmt(" over %zu metric%s (", g.metrics.size(), g.metrics.size() == 1 ? "" : "s");
        for (size_t i = 0; i < g.metrics.size(); ++i) t += (i ? ", " : "") + g.metrics[i];
        t += "): the geometric mean of the ratios of means, each turned so that above 1 is better";
        field(out, r.width, "geomean", t);
    }
    for (const auto& note : r.geomean_notes) field(out, r.width, "geomean", note);
}


void print_invalid_runs(const CompareReport& r, FILE* out) {
    const auto invalid = invalid_run_lines(r);
    if (invalid.empty()) return;
    std::fprintf(out, "\n%s\n", kInvalidRunsHeading);
    for (const auto& line : invalid) std::fprintf(out, "  %s\n", escape_text(line).c_str());
}

}  // namespace

namespace {

void render_metrics_text(const CompareReport& r, FILE* out);

}  // namespace

void render_text(const CompareReport& r, FILE* out) {
    render_metrics_text(r, out);
    // Each candidate's frames against the baseline's, when checked.
    report::print_image_checks(r, out);
    // Candidates that ran under other load, heat or clocks than the
    // baseline: said after the verdicts they may explain.
    if (!r.context_shifts.empty()) std::fprintf(out, "\n");
    for (const auto& shift : r.context_shifts)
        for (const auto& line :
             wrap_words(escape_text(gfxstat::report::volatile_shift_line(shift)), static_cast<size_t>(r.width), 0, 2))
            std::fprintf(out, "%s\n", line.c_str());
}

namespace {

void render_metrics_text(const CompareReport& r, FILE* out) {
    for (size_t i = 0; i < r.metrics.size(); ++i) {
        if (i) std::fprintf(out, "\n");
        print_metric(r, r.metrics[i], out);
    }
    if (r.metrics.size() < 2) {
        print_geomeans(r, out);
        print_invalid_runs(r, out);
        render_throttle_text(r, out);
        return;
    }
    // One line per metric and candidate, benchstat-style.
    bool sequential = false;
    for (const auto& m : r.metrics)
        for (const auto& c : m.comparisons) sequential |= c.blocks && c.blocks->look;
    // A sequential design's metric is judged by its own anytime-valid p;
    // with no other primary comparison there is no adjusted family to name.
    const std::string family =
        r.family_size == 0 && sequential
            ? std::string("anytime-valid p for the sequential design's metric, unadjusted p for the others")
            : fmt("%s-adjusted p over %zu primary comparison%s%s", r.adjustment == "holm" ? "Holm" : "BH",
                  r.family_size, r.family_size == 1 ? "" : "s",
                  sequential ? ", anytime-valid p for the sequential design" : "");
    const std::string head = fmt("summary (%s; %g%% confidence, threshold %g%%)", family.c_str(), r.confidence * 100,
                                 r.threshold * 100);
    std::fprintf(out, "\n");
    for (const auto& line : wrap_words(head, static_cast<size_t>(r.width), 0, 2)) std::fprintf(out, "%s\n", line.c_str());
    // The metric column takes what the other columns (2+12+1+9+1+9+2+12)
    // leave of the width; longer names are cut.
    size_t w = 6;
    for (const auto& m : r.metrics) w = std::max(w, text::display_width(escape_text(metric_title(m))));
    w = std::min(w, static_cast<size_t>(std::max(6, r.width - 2 - 2 - 48)));
    // A name cut to its column ends in "~" and is given whole under the table.
    // Names cut alike are told apart by a number after the mark ("~2"):
    // a glmark2 scene's fps and frame_time differ only at their ends.
    // Metrics and candidates each have their own column, so their own cutter.
    text::NameCutter metric_names, candidate_names;
    const auto cut = [&](text::NameCutter& names, const std::string& raw, size_t n) {
        return text::pad_right(names.cut(escape_text(raw), n), n);
    };
    if (2 + w + 2 + 48 > static_cast<size_t>(r.width)) {
        // Too narrow for the columns: each comparison stacked, whole.
        text::TextTable t;
        t.head = {"metric", "candidate", "change", "p", "verdict"};
        for (const auto& m : r.metrics)
            for (size_t k = 0; k < m.comparisons.size(); ++k) {
                const auto& c = m.comparisons[k];
                const double p = m.verdicts[k].p_adjusted;
                t.rows.push_back({escape_text(metric_title(m)), escape_text(m.candidates[k].label),
                                  std::isnan(c.relative_change) ? fmt("%+.3g", c.change)
                                                                : fmt("%+.3g%%", c.relative_change * 100),
                                  std::isnan(p) ? "-" : fmt("%.3g", p),
                                  report::verdict_outcome_words(m, k) + (m.primary ? "" : " (secondary)")});
            }
        for (const std::string& line : text::fit_table(t, static_cast<size_t>(r.width)))
            std::fprintf(out, "%s\n", line.c_str());
        print_geomeans(r, out);
        print_invalid_runs(r, out);
        render_throttle_text(r, out);
        return;
    }
    std::fprintf(out, "  %-*s  %-12s %9s %9s  %s\n", static_cast<int>(w), "metric", "candidate", "change", "p", "verdict");
    bool starred = false;
    for (const auto& m : r.metrics)
        for (size_t k = 0; k < m.comparisons.size(); ++k) {
            const auto& c = m.comparisons[k];
            const std::string change = std::isnan(c.relative_change) ? fmt("%+.3g", c.change)
                                                                     : fmt("%+.3g%%", c.relative_change * 100);
            const double p = m.verdicts[k].p_adjusted;
            const bool secondary = !m.primary;
            std::string line = "  " + cut(metric_names, metric_title(m), w) + "  " +
                               cut(candidate_names, m.candidates[k].label, 12) +
                               fmt(" %9s %9s  %s", change.c_str(), std::isnan(p) ? "-" : fmt("%.3g", p).c_str(),
                                   report::verdict_outcome_words(m, k).c_str());
            // "(secondary)" where it fits, "*" (explained below) where not.
            if (secondary) {
                const bool fits = text::display_width(line) + 12 <= static_cast<size_t>(r.width);
                line += fits ? " (secondary)" : "*";
                starred |= !fits;
            }
            std::fprintf(out, "%s\n", line.c_str());
        }
    for (const text::NameCutter* names : {&metric_names, &candidate_names})
        for (const auto& [c, whole] : names->legend())
            for (const std::string& line : text::wrap_text(c + " is " + whole, static_cast<size_t>(r.width), 2, 4))
                std::fprintf(out, "%s\n", line.c_str());
    if (starred) std::fprintf(out, "  *: a secondary metric, which does not gate\n");
    print_geomeans(r, out);
    print_invalid_runs(r, out);
    render_throttle_text(r, out);
}

}  // namespace

}  // namespace gfxstat::cli
