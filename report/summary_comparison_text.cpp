// SPDX-License-Identifier: MIT
// compare --summaries in text and markdown: the settings, then per
// comparison the means, the change with its interval, Welch's t, the
// other tests and the verdict.
#include "report/summary_comparison_text.h"

#include <algorithm>
#include <cmath>

#include "report/diagnostic_words.h"
#include "report/headline_words.h"
#include "report/settling_advice_words.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::report {

using text::escape_markdown;
using text::escape_text;

namespace {

// "95% CI; threshold 1%; lower is better; Holm-adjusted p over 3 comparisons"
std::string settings_words(const findings::SummaryComparisons& r) {
    const findings::SummaryCompareSettings& s = r.settings;
    std::string t = cli::fmt("%g%% CI; threshold %g%%; ", s.confidence * 100, s.threshold * 100);
    t += s.better == analysis::Better::lower    ? "lower is better"
         : s.better == analysis::Better::higher ? "higher is better"
                                                : "direction unknown (--lower-is-better or --higher-is-better)";
    if (r.family_size > 1)
        t += cli::fmt("; %s-adjusted p over %zu comparisons", s.fdr ? "Benjamini-Hochberg" : "Holm", r.family_size);
    return t;
}

std::string title(const findings::SummaryComparison& c) {
    return (c.bench.empty() ? std::string() : c.bench + ": ") + c.baseline.row.label + " -> " + c.candidate.row.label;
}

std::string number(double v) { return cli::fmt("%.8g", v); }

std::string means_words(const findings::SummaryComparison& c) {
    return number(c.baseline.row.mean) + " -> " + number(c.candidate.row.mean) + " (n " +
           std::to_string(c.baseline.row.n) + " -> " + std::to_string(c.candidate.row.n) + "; sd " +
           number(c.baseline.row.sd) + " -> " + number(c.candidate.row.sd) + ")";
}

// "-4.29% (-69.22), 95% CI -25.1% to +16.5% (-404.8 to +266.4)"
std::string change_words(const findings::SummaryComparison& c, double confidence) {
    const double d = c.moments.difference;
    const bool relative = std::isfinite(c.relative_change);
    std::string t = relative ? cli::change_percent(c.relative_change) + cli::fmt(" (%+.4g)", d) : cli::fmt("%+.4g", d);
    if (!c.welch.defined) return t + ", no interval (no variability on either side)";
    t += cli::fmt(", %g%% CI ", confidence * 100);
    if (relative && std::isfinite(c.relative_ci[0]) && std::isfinite(c.relative_ci[1]))
        t += cli::bound_percent(c.relative_ci[0]) + " to " + cli::bound_percent(c.relative_ci[1]) +
             cli::fmt(" (%+.4g to %+.4g)", c.welch.ci[0], c.welch.ci[1]);
    else if (relative)
        t += cli::fmt("%+.4g to %+.4g (no relative interval: the baseline's mean is not told from 0)", c.welch.ci[0],
                 c.welch.ci[1]);
    else
        t += cli::fmt("%+.4g to %+.4g", c.welch.ci[0], c.welch.ci[1]);
    return t;
}

std::string p_words(double p) { return std::isfinite(p) ? cli::fmt("%.3g", p) : std::string("none"); }

// "t = -0.42, df = 14.8, p = 0.68; Holm-adjusted p = 1"
std::string welch_words(const findings::SummaryComparison& c) {
    if (!c.welch.defined) return "undefined: both standard deviations are 0";
    std::string t = cli::fmt("t = %.3g, df = %.3g, p = %s", c.welch.t, c.welch.df, p_words(c.welch.p).c_str());
    if (c.p_label != "p") t += "; " + c.p_label + " = " + p_words(c.p_adjusted);
    return t;
}

// Student's t, the equivalence test and Hedges' g, in one line.
std::string also_words(const findings::SummaryComparison& c, const findings::SummaryCompareSettings& s) {
    std::string t = c.student.defined ? cli::fmt("Student's t p = %s", p_words(c.student.p).c_str())
                                      : std::string("Student's t undefined");
    // Without variability TOST decides on the bare difference (analysis::tost),
    // which would call two constants equivalent beside an inconclusive verdict.
    if (!c.welch.defined) t += "; TOST undefined";
    else
        t += cli::fmt("; TOST within +-%g%% p = %s (%s)", s.threshold * 100, p_words(c.equivalence.p).c_str(),
                 c.equivalence.equivalent ? "equivalent" : "equivalence not shown");
    if (c.effect.defined)
        t += cli::fmt("; Hedges' g %.3g [%.3g, %.3g]", c.effect.hedges_g, c.effect.g_ci[0], c.effect.g_ci[1]);
    return t;
}

std::string verdict_words(const findings::SummaryComparison& c) {
    return analysis::outcome_words(c.verdict) + ": " + verdict_reason(c.verdict);
}

void print_wrapped(FILE* out, const std::string& escaped, size_t width, size_t first_indent, size_t indent) {
    for (const std::string& line : text::wrap_text(escaped, width, first_indent, indent))
        std::fprintf(out, "%s\n", line.c_str());
}

}  // namespace

void print_summary_comparisons_text(const findings::SummaryComparisons& r, FILE* out) {
    const size_t width = static_cast<size_t>(std::clamp(r.settings.width, text::kMinWidth, text::kMaxWidth));
    print_wrapped(out, findings::kFromSummaries, width, 0, 0);
    print_wrapped(out, escape_text(settings_words(r)), width, 0, 2);
    // "  change   ...": the value beside its head, continued under the value.
    constexpr size_t kHead = 11;
    const auto field = [&](const char* head, const std::string& escaped) {
        std::vector<std::string> lines = text::wrap_text(escaped, width, kHead, kHead);
        if (!lines.empty()) lines[0] = "  " + text::pad_right(head, kHead - 2) + lines[0].substr(kHead);
        for (const std::string& line : lines) std::fprintf(out, "%s\n", line.c_str());
    };
    for (const findings::SummaryComparison& c : r.comparisons) {
        std::fprintf(out, "\n");
        print_wrapped(out, escape_text(title(c)), width, 0, 2);
        field("means", means_words(c));
        field("change", change_words(c, r.settings.confidence));
        field("Welch", welch_words(c));
        field("also", also_words(c, r.settings));
        field("verdict", escape_text(verdict_words(c)));
    }
}

void print_summary_comparisons_markdown(const findings::SummaryComparisons& r, FILE* out) {
    const findings::SummaryCompareSettings& s = r.settings;
    std::fprintf(out, "%s\n\n%s.\n\n", findings::kFromSummaries, escape_markdown(settings_words(r)).c_str());
    const bool several = r.family_size > 1;
    std::fprintf(out, "| %sbaseline | candidate | means (n; sd) | change, %g%% CI | Welch t | df | %s | verdict |\n",
                 r.has_bench ? "benchmark | " : "", s.confidence * 100,
                 several ? (s.fdr ? "p (BH-adjusted)" : "p (Holm-adjusted)") : "p");
    std::fprintf(out, "| %s--- | --- | ---: | --- | ---: | ---: | ---: | --- |\n", r.has_bench ? "--- | " : "");
    for (const findings::SummaryComparison& c : r.comparisons) {
        std::string verdict = analysis::outcome_words(c.verdict);
        if (verdict == "regression" || verdict == "improvement") verdict = "**" + verdict + "**";
        const std::string p = !c.welch.defined ? "–"
                              : several       ? p_words(c.welch.p) + " (" + p_words(c.p_adjusted) + ")"
                                              : p_words(c.welch.p);
        std::fprintf(out, "| %s%s | %s | %s | %s | %s | %s | %s | %s |\n",
                     r.has_bench ? (escape_markdown(c.bench) + " | ").c_str() : "",
                     escape_markdown(c.baseline.row.label).c_str(), escape_markdown(c.candidate.row.label).c_str(),
                     means_words(c).c_str(), change_words(c, s.confidence).c_str(),
                     c.welch.defined ? cli::fmt("%.3g", c.welch.t).c_str() : "–",
                     c.welch.defined ? cli::fmt("%.3g", c.welch.df).c_str() : "–", p.c_str(), verdict.c_str());
    }
    std::fprintf(out, "\n");
    for (const findings::SummaryComparison& c : r.comparisons)
        std::fprintf(out, "- %s: %s; %s\n", escape_markdown(title(c)).c_str(),
                     escape_markdown(verdict_words(c)).c_str(), also_words(c, s).c_str());
}

}  // namespace gfxstat::report
