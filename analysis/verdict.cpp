#include "analysis/verdict.h"

#include <cmath>
#include <cstdio>

namespace gfxstat::analysis {

const char* outcome_name(Outcome o) {
    switch (o) {
        case Outcome::improvement: return "improvement";
        case Outcome::regression: return "regression";
        case Outcome::no_change: return "no_change";
        case Outcome::inconclusive: return "inconclusive";
        case Outcome::changed: return "changed";
    }
    return "inconclusive";
}

const char* primary_test_name(PrimaryTest t) {
    switch (t) {
        case PrimaryTest::welch: return "welch";
        case PrimaryTest::mann_whitney: return "mann_whitney";
        case PrimaryTest::welch_boot_means: return "welch_boot_means";
        case PrimaryTest::paired_boot_means: return "paired_boot_means";
    }
    return "welch";
}

const char* primary_test_words(PrimaryTest t) {
    switch (t) {
        case PrimaryTest::welch: return "Welch t";
        case PrimaryTest::mann_whitney: return "Mann-Whitney U";
        case PrimaryTest::welch_boot_means: return "Welch t on boot means";
        case PrimaryTest::paired_boot_means: return "paired t on boot means";
    }
    return "Welch t";
}

Shape shape(const ScaledValues& values, const Moments& m) {
    Shape s;
    s.n = m.n;
    if (m.n < 4 || !(m.stddev > 0)) return s;
    // Central moments in long double around the (exact) mean; adequate for
    // a shape judgement, which needs no more than two digits.
    long double m2 = 0, m3 = 0, m4 = 0;
    for (size_t i = 0; i < m.n; ++i) {
        const long double d = static_cast<long double>(values.at(i)) - m.mean;
        const long double d2 = d * d;
        m2 += d2;
        m3 += d2 * d;
        m4 += d2 * d2;
    }
    const long double n = static_cast<long double>(m.n);
    m2 /= n;
    m3 /= n;
    m4 /= n;
    if (!(m2 > 0)) return s;
    const long double g1 = m3 / std::pow(m2, 1.5L);
    const long double g2 = m4 / (m2 * m2) - 3;
    // SAS/SPSS "type 2" bias corrections.
    s.skewness = static_cast<double>(std::sqrt(n * (n - 1)) / (n - 2) * g1);
    s.excess_kurtosis = static_cast<double>((n - 1) / ((n - 2) * (n - 3)) * ((n + 1) * g2 + 6));
    return s;
}

PrimaryChoice choose_primary(const Shape& a, const Shape& b) {
    PrimaryChoice c;
    char buf[160];
    if (a.n < 8 || b.n < 8) {
        c.test = PrimaryTest::welch;
        c.why = "fewer than 8 runs on a side: too few to judge the shape";
        return c;
    }
    const auto normalish = [](const Shape& s) {
        return std::fabs(s.skewness) <= 1 && std::fabs(s.excess_kurtosis) <= 3;
    };
    if (normalish(a) && normalish(b)) {
        c.test = PrimaryTest::welch;
        c.why = "both samples look roughly normal";
        return c;
    }
    const Shape& off = normalish(a) ? b : a;
    std::snprintf(buf, sizeof buf, "%s sample is skewed or heavy-tailed (skewness %.2g, excess kurtosis %.2g)",
                  &off == &a ? "the baseline" : "the candidate", off.skewness, off.excess_kurtosis);
    c.test = PrimaryTest::mann_whitney;
    c.why = buf;
    return c;
}

Verdict decide(const VerdictInputs& in) {
    Verdict v;
    v.primary = in.primary.test;
    v.p_adjusted = in.p_adjusted;
    v.by_boots = in.by_boots;
    const char* unit = in.by_boots ? "boots" : "runs";
    const double alpha = 1 - in.confidence;
    v.beyond_threshold = std::isnan(in.relative_change) ? in.change != 0
                                                        : std::fabs(in.relative_change) > in.threshold;
    if (in.cv > 0 && std::isfinite(in.cv) && in.threshold > 0) {
        const double n = runs_per_group(in.cv, in.threshold, alpha, 0.8);
        if (std::isfinite(n)) v.runs_needed = n;
    }

    char buf[320];
    const double pct = in.relative_change * 100, thr = in.threshold * 100;
    if (in.equivalence.equivalent) {
        v.outcome = Outcome::no_change;
        std::snprintf(buf, sizeof buf,
                      "equivalence shown: the change lies within +-%.3g%% (TOST p = %.3g)%s", thr,
                      in.equivalence.p,
                      in.p_adjusted < alpha ? "; a real but negligible change" : "");
    } else if (in.p_adjusted < alpha) {
        const bool worse = (in.better == Better::lower && in.change > 0) ||
                           (in.better == Better::higher && in.change < 0);
        if (in.better == Better::unknown)
            v.outcome = Outcome::changed;
        else
            v.outcome = worse ? Outcome::regression : Outcome::improvement;
        char size[64];
        if (std::isnan(pct))
            std::snprintf(size, sizeof size, "%+.3g (the baseline is 0)", in.change);
        else
            std::snprintf(size, sizeof size, "%+.3g%%", pct);
        std::snprintf(buf, sizeof buf, "%s, significant (p = %.3g, %s)%s", size, in.p_adjusted,
                      primary_test_words(in.primary.test),
                      in.better == Better::unknown ? "; which direction is better is unknown"
                      : v.beyond_threshold         ? ""
                                                   : "; within the threshold, so it does not fail a gate");
    } else {
        v.outcome = Outcome::inconclusive;
        if (v.runs_needed)
            std::snprintf(buf, sizeof buf,
                          "neither a change (p = %.3g) nor equivalence within +-%.3g%% (TOST p = %.3g) "
                          "is shown; about %.0f %s per side would resolve +-%.3g%%",
                          in.p_adjusted, thr, in.equivalence.p, std::ceil(*v.runs_needed), unit, thr);
        else
            std::snprintf(buf, sizeof buf,
                          "neither a change (p = %.3g) nor equivalence within +-%.3g%% is shown",
                          in.p_adjusted, thr);
    }
    v.reason = buf;
    return v;
}

}  // namespace gfxstat::analysis
