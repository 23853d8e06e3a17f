// SPDX-License-Identifier: MIT
// compare from summary statistics: rows of N, mean and sd (formats/
// summary_table.h) paired into comparisons, the t procedures on their
// moments (analysis/t_tests.h), one multiplicity family, a verdict each
// (analysis/verdict.h), and the report in text, markdown or JSON.
#include "cli/summary_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "analysis/ratio_interval.h"
#include "analysis/student_t.h"
#include "analysis/t_tests.h"
#include "cli/compare_command.h"
#include "report/diagnostic_words.h"
#include "report/headline_words.h"
#include "report/json_version.h"
#include "data/input_error.h"
#include "formats/summary_table.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::cli {

using text::escape_markdown;
using text::escape_message;
using text::escape_text;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// What every format says first: these numbers decide less than samples do.
constexpr const char* kFromSummaries =
    "From summary statistics (N, mean, sd): Welch's t. No diagnostics are possible: the shape of the samples, "
    "drift, outliers and boots are not visible in summaries.";

// One data set: a row of a file, named.
struct Side {
    std::string file;  // as named in messages ("<stdin>" for "-")
    formats::SummaryRow row;
};

struct Comparison {
    std::string bench;
    Side baseline, candidate;
    analysis::TwoSampleMoments moments;
    analysis::TTest welch, student;
    analysis::Equivalence equivalence;
    analysis::EffectSize effect;
    double relative_change = kNaN;
    std::array<double, 2> relative_ci{kNaN, kNaN};
    double cv = 0;
    bool adjusted = false;  // its p joined the family
    double p_adjusted = kNaN;
    std::string p_label = "p";
    analysis::Verdict verdict;
};

struct Report {
    SummaryCompareSettings settings;
    bool has_bench = false;
    size_t family_size = 0;
    std::vector<Comparison> comparisons;
};

std::string where(const Side& s) { return s.file + ":" + std::to_string(s.row.line); }

// ---- reading and pairing --------------------------------------------------

// Every file's rows, each named: a row without a label is named by its file
// when the file gives one row per benchmark, else by its place in the file;
// a label that repeats across files is told apart by the file's name.
std::vector<Side> read_sides(const std::vector<std::string>& files, bool& has_bench) {
    std::vector<Side> sides;
    std::string with_bench, without_bench;  // a file of each kind, for the error
    for (const std::string& path : files) {
        const std::string name = path == "-" ? "<stdin>" : path;
        formats::SummaryTable t = formats::read_summary_table(path);
        (t.has_bench ? with_bench : without_bench) = name;
        std::map<std::string, size_t> per_bench;
        for (const auto& r : t.rows) ++per_bench[r.bench];
        const bool one_each = std::all_of(per_bench.begin(), per_bench.end(), [](const auto& e) { return e.second == 1; });
        for (auto& r : t.rows) {
            if (r.label.empty()) r.label = one_each ? name : name + ":" + std::to_string(r.line);
            sides.push_back({name, std::move(r)});
        }
    }
    if (!with_bench.empty() && !without_bench.empty())
        throw data::input_error(without_bench, 0,
                                "names no benchmarks, but " + with_bench +
                                    " does: every file needs a benchmark column (or ministat heading), or none");
    has_bench = !with_bench.empty();
    std::map<std::string, std::string> file_of;  // label -> the first file that has it
    std::map<std::string, bool> repeats;
    for (const Side& s : sides) {
        const auto [it, fresh] = file_of.emplace(s.row.label, s.file);
        if (!fresh && it->second != s.file) repeats[s.row.label] = true;
    }
    for (Side& s : sides)
        if (repeats.count(s.row.label)) s.row.label = s.file + ":" + s.row.label;
    return sides;
}

std::vector<Comparison> pair_sides(const std::vector<Side>& sides, const std::string& wanted_baseline) {
    if (sides.size() < 2)
        throw data::input_error(sides[0].file, sides[0].row.line,
                                "holds the only data set: a comparison needs a baseline and at least one candidate");
    std::string base = sides[0].row.label;
    if (!wanted_baseline.empty()) {
        const bool found = std::any_of(sides.begin(), sides.end(), [&](const Side& s) { return s.row.label == wanted_baseline; });
        if (!found) {
            std::string labels;
            for (const Side& s : sides)
                if (labels.find("'" + s.row.label + "'") == std::string::npos)
                    labels += (labels.empty() ? "" : ", ") + ("'" + s.row.label + "'");
            throw data::InputError("--baseline '" + wanted_baseline + "': no data set has that label (the labels: " +
                                   labels + ")");
        }
        base = wanted_baseline;
    }
    std::vector<std::string> benches;
    for (const Side& s : sides)
        if (std::find(benches.begin(), benches.end(), s.row.bench) == benches.end()) benches.push_back(s.row.bench);
    std::vector<Comparison> out;
    for (const std::string& bench : benches) {
        const Side* baseline = nullptr;
        std::vector<const Side*> candidates;
        const Side* first = nullptr;
        for (const Side& s : sides) {
            if (s.row.bench != bench) continue;
            if (!first) first = &s;
            if (s.row.label == base && !baseline) baseline = &s;
            else candidates.push_back(&s);
        }
        const std::string of = bench.empty() ? std::string() : "benchmark '" + bench + "' ";
        if (!baseline)
            throw data::input_error(first->file, first->row.line,
                                    of + "has no row of the baseline '" + base +
                                        "': every benchmark needs the baseline and a candidate");
        if (candidates.empty())
            throw data::input_error(baseline->file, baseline->row.line,
                                    of + "has only the baseline '" + base + "': nothing to compare it with");
        for (const Side* c : candidates) {
            Comparison k;
            k.bench = bench;
            k.baseline = *baseline;
            k.candidate = *c;
            out.push_back(std::move(k));
        }
    }
    return out;
}

// ---- statistics -----------------------------------------------------------

// A row's moments in units of `scale`.
analysis::Moments moments_of(const formats::SummaryRow& r, double scale) {
    analysis::Moments m;
    m.n = r.n;
    m.mean = r.mean / scale;
    m.stddev = r.sd / scale;
    m.variance = m.stddev * m.stddev;
    return m;
}

// A power of two near the largest of the two rows' |mean| and sd: the
// tests square standard deviations, which underflow to 0 below about 1e-154
// (and overflow above 1e154) although the values are fine doubles; as the
// raw-data path scales its samples (analysis/scaled_values.h), the tests
// run on values near 1, where t, df, p and every relative quantity are
// what they are at any scale, and what is absolute is scaled back, exactly.
double scale_of(const formats::SummaryRow& a, const formats::SummaryRow& b) {
    const double top = std::max({std::fabs(a.mean), std::fabs(b.mean), a.sd, b.sd});
    if (!(top > 0) || !std::isfinite(top)) return 1;
    return std::ldexp(1.0, std::ilogb(top));
}

void scale_back(analysis::TTest& t, double scale) {
    t.stderr_ *= scale;
    t.difference *= scale;
    t.ci = {t.ci[0] * scale, t.ci[1] * scale};
}

// The pooled sd relative to the baseline's |mean| (what runs_needed and
// the detectable change are computed from), as compare computes it.
double pooled_cv(const analysis::TwoSampleMoments& m) {
    if (m.baseline.mean == 0) return 0;
    const double ra = m.baseline.stddev / std::fabs(m.baseline.mean);
    const double rb = m.candidate.stddev / std::fabs(m.baseline.mean);
    const double wa = static_cast<double>(m.baseline.n - 1) * ra * ra;
    const double wb = static_cast<double>(m.candidate.n - 1) * rb * rb;
    return std::sqrt((wa + wb) / static_cast<double>(m.baseline.n + m.candidate.n - 2));
}

void analyse(Report& r) {
    const SummaryCompareSettings& s = r.settings;
    std::vector<double> pvals;
    for (Comparison& c : r.comparisons) {
        const double scale = scale_of(c.baseline.row, c.candidate.row);
        c.moments.baseline = moments_of(c.baseline.row, scale);
        c.moments.candidate = moments_of(c.candidate.row, scale);
        c.moments.difference = c.candidate.row.mean / scale - c.baseline.row.mean / scale;
        c.welch = analysis::welch_t_test(c.moments, s.confidence);
        c.student = analysis::student_t_test(c.moments, s.confidence);
        c.equivalence = analysis::tost(c.moments, s.threshold, 1 - s.confidence);
        c.effect = analysis::effect_size(c.moments, s.confidence);
        scale_back(c.welch, scale);
        scale_back(c.student, scale);
        c.equivalence.margin *= scale;
        c.equivalence.ci = {c.equivalence.ci[0] * scale, c.equivalence.ci[1] * scale};
        c.moments.baseline = moments_of(c.baseline.row, 1);
        c.moments.candidate = moments_of(c.candidate.row, 1);
        c.moments.difference = c.candidate.row.mean - c.baseline.row.mean;
        const double base = std::fabs(c.baseline.row.mean);
        if (base != 0) {
            c.relative_change = c.moments.difference / base;
            if (c.welch.defined) c.relative_ci = {c.welch.ci[0] / base, c.welch.ci[1] / base};
        }
        if (c.baseline.row.mean > 0 && c.welch.defined) {
            // The relative change is the ratio of means less 1: its interval
            // is Fieller's for that ratio, with Welch's degrees of freedom
            // (analysis/ratio_interval.h), not the difference's over the
            // baseline, which can pass -100%. None when the baseline's mean
            // is not told from 0.
            const auto& a = c.baseline.row;
            const auto& b = c.candidate.row;
            const analysis::RatioInterval ratio = analysis::fieller_interval(
                a.mean, b.mean, a.sd * a.sd / static_cast<double>(a.n), b.sd * b.sd / static_cast<double>(b.n), 0,
                analysis::t_quantile((1 + s.confidence) / 2, c.welch.df));
            c.relative_ci = ratio.bounded ? std::array<double, 2>{ratio.low - 1, ratio.high - 1}
                                          : std::array<double, 2>{kNaN, kNaN};
        }
        c.cv = pooled_cv(c.moments);
        // Both sides without variability: no p means anything, and none joins the family.
        c.adjusted = c.welch.defined;
        if (c.adjusted) pvals.push_back(c.welch.p);
    }
    r.family_size = pvals.size();
    const std::vector<double> adj = s.fdr ? analysis::benjamini_hochberg_adjust(pvals) : analysis::holm_adjust(pvals);
    size_t k = 0;
    for (Comparison& c : r.comparisons) {
        c.p_adjusted = c.adjusted ? adj[k++] : kNaN;
        c.p_label = c.adjusted && r.family_size > 1 ? (s.fdr ? "BH-adjusted p" : "Holm-adjusted p") : "p";
        analysis::VerdictInputs vi;
        vi.better = s.better;
        vi.confidence = s.confidence;
        vi.threshold = s.threshold;
        vi.primary = {analysis::PrimaryTest::welch, "from summary statistics"};
        vi.p_adjusted = c.p_adjusted;
        vi.p_label = c.p_label;
        vi.defined = c.welch.defined;
        vi.both_constant = c.baseline.row.sd == 0 && c.candidate.row.sd == 0;
        vi.baseline_constant = c.baseline.row.mean;
        vi.candidate_constant = c.candidate.row.mean;
        vi.n_per_side = static_cast<double>(std::min(c.baseline.row.n, c.candidate.row.n));
        vi.change = c.moments.difference;
        vi.relative_change = c.relative_change;
        vi.equivalence = c.equivalence;
        vi.cv = c.cv;
        c.verdict = analysis::decide(vi);
    }
}

int exit_status(const Report& r) {
    if (!r.settings.gate) return 0;
    bool regression = false, inconclusive = false;
    for (const Comparison& c : r.comparisons) {
        regression |= c.verdict.outcome == analysis::Outcome::regression && c.verdict.beyond_threshold;
        inconclusive |= c.verdict.outcome == analysis::Outcome::inconclusive;
    }
    if (regression) return 1;
    if (r.settings.strict && inconclusive) return 3;
    return 0;
}

// ---- words ----------------------------------------------------------------

const char* better_name(analysis::Better b) {
    return b == analysis::Better::lower ? "lower" : b == analysis::Better::higher ? "higher" : "unknown";
}

// "95% CI; threshold 1%; lower is better; Holm-adjusted p over 3 comparisons"
std::string settings_words(const Report& r) {
    const SummaryCompareSettings& s = r.settings;
    std::string t = fmt("%g%% CI; threshold %g%%; ", s.confidence * 100, s.threshold * 100);
    t += s.better == analysis::Better::lower    ? "lower is better"
         : s.better == analysis::Better::higher ? "higher is better"
                                                : "direction unknown (--lower-is-better or --higher-is-better)";
    if (r.family_size > 1)
        t += fmt("; %s-adjusted p over %zu comparisons", s.fdr ? "Benjamini-Hochberg" : "Holm", r.family_size);
    return t;
}

std::string title(const Comparison& c) {
    return (c.bench.empty() ? std::string() : c.bench + ": ") + c.baseline.row.label + " -> " + c.candidate.row.label;
}

std::string number(double v) { return fmt("%.8g", v); }

std::string means_words(const Comparison& c) {
    return number(c.baseline.row.mean) + " -> " + number(c.candidate.row.mean) + " (n " +
           std::to_string(c.baseline.row.n) + " -> " + std::to_string(c.candidate.row.n) + "; sd " +
           number(c.baseline.row.sd) + " -> " + number(c.candidate.row.sd) + ")";
}

// "-4.29% (-69.22), 95% CI -25.1% to +16.5% (-404.8 to +266.4)"
std::string change_words(const Comparison& c, double confidence) {
    const double d = c.moments.difference;
    const bool relative = std::isfinite(c.relative_change);
    std::string t = relative ? change_percent(c.relative_change) + fmt(" (%+.4g)", d) : fmt("%+.4g", d);
    if (!c.welch.defined) return t + ", no interval (no variability on either side)";
    t += fmt(", %g%% CI ", confidence * 100);
    if (relative && std::isfinite(c.relative_ci[0]) && std::isfinite(c.relative_ci[1]))
        t += bound_percent(c.relative_ci[0]) + " to " + bound_percent(c.relative_ci[1]) +
             fmt(" (%+.4g to %+.4g)", c.welch.ci[0], c.welch.ci[1]);
    else if (relative)
        t += fmt("%+.4g to %+.4g (no relative interval: the baseline's mean is not told from 0)", c.welch.ci[0],
                 c.welch.ci[1]);
    else
        t += fmt("%+.4g to %+.4g", c.welch.ci[0], c.welch.ci[1]);
    return t;
}

std::string p_words(double p) { return std::isfinite(p) ? fmt("%.3g", p) : std::string("none"); }

// "t = -0.42, df = 14.8, p = 0.68; Holm-adjusted p = 1"
std::string welch_words(const Comparison& c) {
    if (!c.welch.defined) return "undefined: both standard deviations are 0";
    std::string t = fmt("t = %.3g, df = %.3g, p = %s", c.welch.t, c.welch.df, p_words(c.welch.p).c_str());
    if (c.p_label != "p") t += "; " + c.p_label + " = " + p_words(c.p_adjusted);
    return t;
}

// Student's t, the equivalence test and Hedges' g, in one line.
std::string also_words(const Comparison& c, const SummaryCompareSettings& s) {
    std::string t = c.student.defined ? fmt("Student's t p = %s", p_words(c.student.p).c_str())
                                      : std::string("Student's t undefined");
    // Without variability TOST decides on the bare difference (analysis::tost),
    // which would call two constants equivalent beside an inconclusive verdict.
    if (!c.welch.defined) t += "; TOST undefined";
    else
        t += fmt("; TOST within +-%g%% p = %s (%s)", s.threshold * 100, p_words(c.equivalence.p).c_str(),
                 c.equivalence.equivalent ? "equivalent" : "equivalence not shown");
    if (c.effect.defined)
        t += fmt("; Hedges' g %.3g [%.3g, %.3g]", c.effect.hedges_g, c.effect.g_ci[0], c.effect.g_ci[1]);
    return t;
}

std::string verdict_words(const Comparison& c) {
    return analysis::outcome_words(c.verdict) + ": " + c.verdict.reason;
}

// ---- renderers --------------------------------------------------------------

void print_wrapped(FILE* out, const std::string& escaped, size_t width, size_t first_indent, size_t indent) {
    for (const std::string& line : text::wrap_text(escaped, width, first_indent, indent))
        std::fprintf(out, "%s\n", line.c_str());
}

void render_text(const Report& r, FILE* out) {
    const size_t width = static_cast<size_t>(std::clamp(r.settings.width, text::kMinWidth, text::kMaxWidth));
    print_wrapped(out, kFromSummaries, width, 0, 0);
    print_wrapped(out, escape_text(settings_words(r)), width, 0, 2);
    // "  change   ...": the value beside its head, continued under the value.
    constexpr size_t kHead = 11;
    const auto field = [&](const char* head, const std::string& escaped) {
        std::vector<std::string> lines = text::wrap_text(escaped, width, kHead, kHead);
        if (!lines.empty()) lines[0] = "  " + text::pad_right(head, kHead - 2) + lines[0].substr(kHead);
        for (const std::string& line : lines) std::fprintf(out, "%s\n", line.c_str());
    };
    for (const Comparison& c : r.comparisons) {
        std::fprintf(out, "\n");
        print_wrapped(out, escape_text(title(c)), width, 0, 2);
        field("means", means_words(c));
        field("change", change_words(c, r.settings.confidence));
        field("Welch", welch_words(c));
        field("also", also_words(c, r.settings));
        field("verdict", escape_text(verdict_words(c)));
    }
}

void render_markdown(const Report& r, FILE* out) {
    const SummaryCompareSettings& s = r.settings;
    std::fprintf(out, "%s\n\n%s.\n\n", kFromSummaries, escape_markdown(settings_words(r)).c_str());
    const bool several = r.family_size > 1;
    std::fprintf(out, "| %sbaseline | candidate | means (n; sd) | change, %g%% CI | Welch t | df | %s | verdict |\n",
                 r.has_bench ? "benchmark | " : "", s.confidence * 100,
                 several ? (s.fdr ? "p (BH-adjusted)" : "p (Holm-adjusted)") : "p");
    std::fprintf(out, "| %s--- | --- | ---: | --- | ---: | ---: | ---: | --- |\n", r.has_bench ? "--- | " : "");
    for (const Comparison& c : r.comparisons) {
        std::string verdict = analysis::outcome_words(c.verdict);
        if (verdict == "regression" || verdict == "improvement") verdict = "**" + verdict + "**";
        const std::string p = !c.welch.defined ? "–"
                              : several       ? p_words(c.welch.p) + " (" + p_words(c.p_adjusted) + ")"
                                              : p_words(c.welch.p);
        std::fprintf(out, "| %s%s | %s | %s | %s | %s | %s | %s | %s |\n",
                     r.has_bench ? (escape_markdown(c.bench) + " | ").c_str() : "",
                     escape_markdown(c.baseline.row.label).c_str(), escape_markdown(c.candidate.row.label).c_str(),
                     means_words(c).c_str(), change_words(c, s.confidence).c_str(),
                     c.welch.defined ? fmt("%.3g", c.welch.t).c_str() : "–",
                     c.welch.defined ? fmt("%.3g", c.welch.df).c_str() : "–", p.c_str(), verdict.c_str());
    }
    std::fprintf(out, "\n");
    for (const Comparison& c : r.comparisons)
        std::fprintf(out, "- %s: %s; %s\n", escape_markdown(title(c)).c_str(),
                     escape_markdown(verdict_words(c)).c_str(), also_words(c, s).c_str());
}

using Json = nlohmann::ordered_json;

Json num(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }
Json pair(const std::array<double, 2>& a) { return Json::array({num(a[0]), num(a[1])}); }

// Both sds 0: the test is undefined, with no p and no interval (analysis/
// keeps p 0 or 1 and [d, d], statements about the numbers, not noise).
Json ttest(const analysis::TTest& t) {
    return {{"t", num(t.t)},
            {"df", num(t.df)},
            {"p", t.defined ? num(t.p) : Json(nullptr)},
            {"ci", t.defined ? pair(t.ci) : Json(nullptr)},
            {"difference", num(t.difference)},
            {"stderr", num(t.stderr_)},
            {"defined", t.defined}};
}

void render_json(const Report& r, FILE* out) {
    const SummaryCompareSettings& s = r.settings;
    Json doc;
    add_gfxstat_version(doc);
    doc["from"] = "summaries";
    doc["note"] = kFromSummaries;
    doc["confidence"] = s.confidence;
    doc["threshold"] = s.threshold;
    doc["direction"] = better_name(s.better);
    doc["adjustment"] = s.fdr ? "benjamini-hochberg" : "holm";
    doc["family_size"] = r.family_size;
    doc["comparisons"] = Json::array();
    for (const Comparison& c : r.comparisons) {
        const formats::SummaryRow &a = c.baseline.row, &b = c.candidate.row;
        Json j;
        j["bench"] = c.bench.empty() ? Json(nullptr) : Json(c.bench);
        j["baseline"] = a.label;
        j["candidate"] = b.label;
        j["lines"] = Json::array({where(c.baseline), where(c.candidate)});
        j["n"] = Json::array({a.n, b.n});
        j["mean"] = Json::array({num(a.mean), num(b.mean)});
        j["sd"] = Json::array({num(a.sd), num(b.sd)});
        j["welch"] = ttest(c.welch);
        j["student"] = ttest(c.student);
        j["relative_change"] = num(c.relative_change);
        j["relative_ci"] = c.welch.defined ? pair(c.relative_ci) : Json(nullptr);
        j["equivalence"] = {{"margin", num(c.equivalence.margin)},
                            {"p", c.welch.defined ? num(c.equivalence.p) : Json(nullptr)},
                            {"ci", c.welch.defined ? pair(c.equivalence.ci) : Json(nullptr)},
                            {"equivalent", c.welch.defined && c.equivalence.equivalent}};
        j["cohens_d"] = c.effect.defined ? num(c.effect.cohens_d) : Json(nullptr);
        j["hedges_g"] = c.effect.defined ? num(c.effect.hedges_g) : Json(nullptr);
        j["hedges_g_ci"] = c.effect.defined ? pair(c.effect.g_ci) : Json(nullptr);
        j["p_adjusted"] = num(c.p_adjusted);
        j["p_label"] = c.p_label;
        const analysis::Verdict& v = c.verdict;
        j["verdict"] = {{"outcome", analysis::outcome_name(v.outcome)},
                        {"primary_test", analysis::primary_test_name(v.primary)},
                        {"beyond_threshold", v.beyond_threshold},
                        {"constant", v.constant},
                        {"runs_needed", v.runs_needed ? Json(std::ceil(*v.runs_needed)) : Json(nullptr)},
                        {"detectable_change", v.detectable_change ? num(*v.detectable_change) : Json(nullptr)},
                        {"reason", v.reason}};
        doc["comparisons"].push_back(std::move(j));
    }
    std::fprintf(out, "%s\n", doc.dump(2, ' ', false, Json::error_handler_t::replace).c_str());
}

}  // namespace

SummaryCompareSettings summary_compare_settings(const CompareSettings& s) {
    SummaryCompareSettings o;
    o.confidence = s.confidence;
    o.threshold = s.threshold_pct / 100;
    o.better = s.lower ? analysis::Better::lower : s.higher ? analysis::Better::higher : analysis::Better::unknown;
    o.format = s.format;
    o.width = s.width;
    o.gate = s.gate;
    o.strict = s.strict;
    o.fdr = s.fdr;
    o.baseline = s.choices.baseline;
    o.program = s.program;
    return o;
}

int compare_summaries(const std::vector<std::string>& files, const SummaryCompareSettings& s, FILE* out) {
    const char* prog = s.program.c_str();
    if (files.empty()) {
        std::fprintf(stderr, "%s: --summaries needs at least one file of summary statistics\n", prog);
        return 2;
    }
    if (s.format != "text" && s.format != "markdown" && s.format != "json") {
        std::fprintf(stderr, "%s: --format %s: with --summaries, text, markdown or json\n", prog,
                     escape_text(s.format).c_str());
        return 2;
    }
    try {
        Report r;
        r.settings = s;
        r.comparisons = pair_sides(read_sides(files, r.has_bench), s.baseline);
        analyse(r);
        if (s.format == "json") render_json(r, out);
        else if (s.format == "markdown") render_markdown(r, out);
        else render_text(r, out);
        return exit_status(r);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    } catch (const std::invalid_argument& e) {  // a statistic refused its arguments (a confidence out of range)
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    }
}

}  // namespace gfxstat::cli
