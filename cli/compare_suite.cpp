#include "cli/compare_suite.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/moments.h"
#include "analysis/t_tests.h"
#include "analysis/verdict.h"
#include "data/input_error.h"

namespace gfxstat::cli {

namespace {

double mean_of(const ReportSample& s) { return analysis::moments(s.sample.view()).mean; }

// The primary test on the differences: the paired t, unless 8 or more of
// them look far from normal (a cliff among the rows), when the signed-rank
// test is; the same shape rule as two samples get (choose_primary).
analysis::PrimaryChoice paired_primary(const analysis::PairedSuite& s) {
    const std::span<const double> d(s.differences);
    const analysis::ScaledValues v{d};
    const analysis::Moments m = analysis::moments(v);
    const analysis::Shape sh = analysis::shape(v, m);
    analysis::PrimaryChoice c = analysis::choose_primary(sh, sh);
    if (c.test == analysis::PrimaryTest::mann_whitney)
        return {analysis::PrimaryTest::signed_rank_benchmarks,
                "the per-benchmark differences are far from normal (|skewness| > 1 or |excess kurtosis| > 3)"};
    return {analysis::PrimaryTest::paired_benchmarks, c.why};
}

}  // namespace

bool wants_paired_suite(const CompareReport& r) {
    size_t primaries = 0;
    bool single = false;
    for (const MetricReport& m : r.metrics) {
        if (m.exact) return false;
        if (!m.primary) continue;
        ++primaries;
        single |= m.baseline.sample.size() == 1;
        for (const ReportSample& c : m.candidates) single |= c.sample.size() == 1;
    }
    return primaries >= 2 && single;
}

void analyse_paired_suite(CompareReport& r, bool fdr) {
    r.paired_by_benchmark = true;
    r.paired.clear();
    std::vector<std::string> labels;
    for (const MetricReport& m : r.metrics)
        for (const ReportSample& c : m.candidates)
            if (std::find(labels.begin(), labels.end(), c.label) == labels.end()) labels.push_back(c.label);
    analysis::PairedSuiteOptions opt;
    opt.confidence = r.confidence;
    opt.threshold = r.threshold;
    for (const std::string& label : labels) {
        PairedSuiteReport p;
        p.candidate = label;
        std::vector<analysis::PairedValue> pairs;
        std::string first_unit;
        bool units_differ = false;
        for (const MetricReport& m : r.metrics) {
            if (!m.primary || m.baseline.sample.size() == 0) continue;
            const auto it = std::find_if(m.candidates.begin(), m.candidates.end(),
                                         [&](const ReportSample& c) { return c.label == label; });
            if (it == m.candidates.end() || it->sample.size() == 0) continue;
            const double b = mean_of(m.baseline), c = mean_of(*it);
            pairs.push_back({b, c, m.better});
            p.benchmarks.push_back(metric_title(m));
            p.baseline_values.push_back(b);
            p.candidate_values.push_back(c);
            if (p.benchmarks.size() == 1) first_unit = m.unit;
            else units_differ |= m.unit != first_unit;
        }
        if (pairs.size() < 2)
            throw data::InputError("'" + label + "' and '" + r.metrics[0].baseline.label + "' share " +
                                   std::to_string(pairs.size()) +
                                   " benchmark; a suite measured once a side is tested as pairs, one per "
                                   "benchmark, and needs 2 or more (or measure each benchmark 2+ times a side)");
        const bool positive = std::all_of(pairs.begin(), pairs.end(), [](const analysis::PairedValue& v) {
            return v.baseline > 0 && v.candidate > 0;
        });
        if (!positive && units_differ)
            throw data::InputError("the benchmarks of '" + label +
                                   "' come in different units and not every value is positive: neither their "
                                   "ratios nor their differences compare across benchmarks");
        p.suite = analysis::analyse_paired_suite(pairs, opt);
        r.paired.push_back(std::move(p));
    }
    // The candidates' p-values are one family.
    std::vector<analysis::PrimaryChoice> choices;
    std::vector<double> pvals;
    for (const PairedSuiteReport& p : r.paired) {
        choices.push_back(paired_primary(p.suite));
        pvals.push_back(choices.back().test == analysis::PrimaryTest::signed_rank_benchmarks ? p.suite.wilcoxon.p
                                                                                            : p.suite.t.p);
    }
    const std::vector<double> adjusted = fdr ? analysis::benjamini_hochberg_adjust(pvals) : analysis::holm_adjust(pvals);
    r.family_size = pvals.size();
    for (size_t i = 0; i < r.paired.size(); ++i) {
        PairedSuiteReport& p = r.paired[i];
        const analysis::PairedSuite& s = p.suite;
        const bool signed_rank = choices[i].test == analysis::PrimaryTest::signed_rank_benchmarks;
        analysis::VerdictInputs in;
        // The differences are turned so that above 0 is better when every
        // direction is known: "higher" then reads the sign right.
        in.better = s.oriented ? analysis::Better::higher : analysis::Better::unknown;
        in.confidence = r.confidence;
        in.threshold = r.threshold;
        in.primary = choices[i];
        in.p_adjusted = adjusted[i];
        in.p_label = r.paired.size() > 1 ? (fdr ? "BH-adjusted p" : "Holm-adjusted p") : "p";
        in.defined = signed_rank ? s.wilcoxon.n > 0 : s.t.defined;
        in.change = signed_rank ? s.hodges_lehmann.estimate : s.t.difference;
        if (s.log_ratio) in.relative_change = std::expm1(in.change);
        else {
            double base = 0;
            for (double b : p.baseline_values) base += std::fabs(b);
            base /= static_cast<double>(p.baseline_values.size());
            in.relative_change = base > 0 ? in.change / base : std::nan("");
        }
        in.equivalence = s.equivalence;
        in.n_per_side = static_cast<double>(s.pairs);
        p.verdict = analysis::decide(in);
    }
}

}  // namespace gfxstat::cli
