#include "analysis/paired_suite_verdict.h"

#include <cmath>

#include "analysis/moments.h"
#include "analysis/scaled_values.h"

namespace gfxstat::analysis {

PrimaryChoice paired_suite_primary(const PairedSuite& s) {
    const std::span<const double> d(s.differences);
    const ScaledValues v{d};
    const Moments m = moments(v);
    const Shape sh = shape(v, m);
    PrimaryChoice c = choose_primary(sh, sh);
    if (c.test == PrimaryTest::mann_whitney)
        return {PrimaryTest::signed_rank_benchmarks,
                "the per-benchmark differences are far from normal (|skewness| > 1 or |excess kurtosis| > 3)"};
    return {PrimaryTest::paired_benchmarks, c.why};
}

double paired_suite_p(const PairedSuite& s, const PrimaryChoice& primary) {
    return primary.test == PrimaryTest::signed_rank_benchmarks ? s.wilcoxon.p : s.t.p;
}

VerdictInputs paired_suite_verdict_inputs(const PairedSuite& s, const PrimaryChoice& primary,
                                          std::span<const double> baseline, double confidence, double threshold,
                                          double p_adjusted, const std::string& p_label) {
    const bool signed_rank = primary.test == PrimaryTest::signed_rank_benchmarks;
    VerdictInputs in;
    // The differences are turned so that above 0 is better when every
    // direction is known: "higher" then reads the sign right.
    in.better = s.oriented ? Better::higher : Better::unknown;
    in.confidence = confidence;
    in.threshold = threshold;
    in.primary = primary;
    in.p_adjusted = p_adjusted;
    in.p_label = p_label;
    in.defined = signed_rank ? s.wilcoxon.n > 0 : s.t.defined;
    in.change = signed_rank ? s.hodges_lehmann.estimate : s.t.difference;
    if (s.log_ratio) in.relative_change = std::expm1(in.change);
    else {
        double base = 0;
        for (double b : baseline) base += std::fabs(b);
        base /= static_cast<double>(baseline.size());
        in.relative_change = base > 0 ? in.change / base : std::nan("");
    }
    in.equivalence = s.equivalence;
    in.n_per_side = static_cast<double>(s.pairs);
    return in;
}

}  // namespace gfxstat::analysis
