// SPDX-License-Identifier: MIT
#include "findings/summary_comparison.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/ratio_interval.h"
#include "analysis/student_t.h"
#include "data/input_error.h"

namespace gfxstat::findings {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Every file's rows, each named: a row without a label is named by its file
// when the file gives one row per benchmark, else by its place in the file;
// a label that repeats across files is told apart by the file's name.
std::vector<SummarySide> read_sides(const std::vector<std::string>& files, bool& has_bench) {
    std::vector<SummarySide> sides;
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
    for (const SummarySide& s : sides) {
        const auto [it, fresh] = file_of.emplace(s.row.label, s.file);
        if (!fresh && it->second != s.file) repeats[s.row.label] = true;
    }
    for (SummarySide& s : sides)
        if (repeats.count(s.row.label)) s.row.label = s.file + ":" + s.row.label;
    return sides;
}

std::vector<SummaryComparison> pair_sides(const std::vector<SummarySide>& sides, const std::string& wanted_baseline) {
    if (sides.size() < 2)
        throw data::input_error(sides[0].file, sides[0].row.line,
                                "holds the only data set: a comparison needs a baseline and at least one candidate");
    std::string base = sides[0].row.label;
    if (!wanted_baseline.empty()) {
        const bool found = std::any_of(sides.begin(), sides.end(), [&](const SummarySide& s) { return s.row.label == wanted_baseline; });
        if (!found) {
            std::string labels;
            for (const SummarySide& s : sides)
                if (labels.find("'" + s.row.label + "'") == std::string::npos)
                    labels += (labels.empty() ? "" : ", ") + ("'" + s.row.label + "'");
            throw data::InputError("--baseline '" + wanted_baseline + "': no data set has that label (the labels: " +
                                   labels + ")");
        }
        base = wanted_baseline;
    }
    std::vector<std::string> benches;
    for (const SummarySide& s : sides)
        if (std::find(benches.begin(), benches.end(), s.row.bench) == benches.end()) benches.push_back(s.row.bench);
    std::vector<SummaryComparison> out;
    for (const std::string& bench : benches) {
        const SummarySide* baseline = nullptr;
        std::vector<const SummarySide*> candidates;
        const SummarySide* first = nullptr;
        for (const SummarySide& s : sides) {
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
        for (const SummarySide* c : candidates) {
            SummaryComparison k;
            k.bench = bench;
            k.baseline = *baseline;
            k.candidate = *c;
            out.push_back(std::move(k));
        }
    }
    return out;
}

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

void analyse_summaries(SummaryComparisons& r) {
    const SummaryCompareSettings& s = r.settings;
    std::vector<double> pvals;
    for (SummaryComparison& c : r.comparisons) {
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
    for (SummaryComparison& c : r.comparisons) {
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

}  // namespace

int summary_comparisons_status(const SummaryComparisons& r) {
    if (!r.settings.gate) return 0;
    bool regression = false, inconclusive = false;
    for (const SummaryComparison& c : r.comparisons) {
        regression |= c.verdict.outcome == analysis::Outcome::regression && c.verdict.beyond_threshold;
        inconclusive |= c.verdict.outcome == analysis::Outcome::inconclusive;
    }
    if (regression) return 1;
    if (r.settings.strict && inconclusive) return 3;
    return 0;
}

SummaryComparisons compare_summary_files(const std::vector<std::string>& files, const SummaryCompareSettings& s) {
    SummaryComparisons r;
    r.settings = s;
    r.comparisons = pair_sides(read_sides(files, r.has_bench), s.baseline);
    analyse_summaries(r);
    return r;
}

}  // namespace gfxstat::findings
