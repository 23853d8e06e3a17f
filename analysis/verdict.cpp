// SPDX-License-Identifier: MIT
#include "analysis/verdict.h"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <string>

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

std::string outcome_words(const Verdict& v) {
    return std::string(outcome_name(v.outcome)) + (v.constant ? " (constant)" : "");
}

namespace {

// What each test is called: its name in JSON, its words in a report, and
// what it estimates as the change. In the enum's order (checked below).
struct PrimaryTestWords {
    PrimaryTest test;
    const char* name;
    const char* words;
    const char* estimate;
};

constexpr PrimaryTestWords kPrimaryTests[] = {
    {PrimaryTest::welch, "welch", "Welch t", "difference of means"},
    {PrimaryTest::mann_whitney, "mann_whitney", "Mann-Whitney U", "Hodges-Lehmann shift"},
    {PrimaryTest::welch_boot_means, "welch_boot_means", "Welch t on boot means", "difference of boot means"},
    {PrimaryTest::paired_boot_means, "paired_boot_means", "paired t on boot means",
     "mean of the per-boot differences"},
    {PrimaryTest::exact, "exact", "exact comparison", "difference of means"},
    {PrimaryTest::paired_blocks, "paired_blocks", "paired t on block log ratios", "mean change over the blocks"},
    {PrimaryTest::sequential_blocks, "sequential_blocks", "t-mixture confidence sequence on blocks",
     "mean change over the blocks"},
    {PrimaryTest::paired_benchmarks, "paired_benchmarks", "paired t over the benchmarks",
     "geometric mean of the per-benchmark ratios"},
    {PrimaryTest::signed_rank_benchmarks, "signed_rank_benchmarks", "Wilcoxon signed-rank over the benchmarks",
     "Hodges-Lehmann estimate of the per-benchmark ratios"},
    {PrimaryTest::paired_machine_means, "paired_machine_means", "paired t on machine means",
     "mean of the per-machine differences"},
    {PrimaryTest::welch_machine_means, "welch_machine_means", "Welch t on machine means",
     "difference of machine means"},
    {PrimaryTest::group_sequential_blocks, "group_sequential_blocks", "group-sequential t on blocks (Pocock)",
     "mean change over the blocks"},
    {PrimaryTest::stored_boots, "stored_boots", "prediction t on boot means", "difference of boot means"},
};

constexpr bool in_enum_order() {
    size_t i = 0;
    for (const auto& row : kPrimaryTests)
        if (static_cast<size_t>(row.test) != i++) return false;
    return i == static_cast<size_t>(PrimaryTest::stored_boots) + 1;
}
static_assert(in_enum_order(), "kPrimaryTests: one row per PrimaryTest, in the enum's order");

// An out-of-range value (a bad cast) reads as Welch's row.
const PrimaryTestWords& words_of(PrimaryTest t) {
    const auto i = static_cast<size_t>(t);
    return i < std::size(kPrimaryTests) ? kPrimaryTests[i] : kPrimaryTests[0];
}

}  // namespace

const char* primary_test_name(PrimaryTest t) { return words_of(t).name; }

const char* primary_test_words(PrimaryTest t) { return words_of(t).words; }

const char* change_estimate_words(PrimaryTest t) { return words_of(t).estimate; }

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

namespace {

std::string size_words(double change, double relative) {
    char buf[64];
    if (std::isnan(relative)) std::snprintf(buf, sizeof buf, "%+.3g (the baseline is 0)", change);
    else std::snprintf(buf, sizeof buf, "%+.3g%%", relative * 100);
    return buf;
}

Outcome direction_outcome(Better better, double change) {
    if (better == Better::unknown) return Outcome::changed;
    const bool worse = (better == Better::lower && change > 0) || (better == Better::higher && change < 0);
    return worse ? Outcome::regression : Outcome::improvement;
}

// Exact metrics: no noise to test against, so the sign of the difference
// is the verdict. Variation within a side is reported by the caller.
Verdict decide_exact(const VerdictInputs& in, Verdict v) {
    char buf[320];
    if (in.change == 0) {
        v.outcome = Outcome::no_change;
        std::snprintf(buf, sizeof buf, "an exact metric, and the two sides are equal");
    } else {
        v.outcome = direction_outcome(in.better, in.change);
        std::snprintf(buf, sizeof buf, "an exact metric changed by %s%s",
                      size_words(in.change, in.relative_change).c_str(),
                      in.better == Better::unknown ? "; which direction is better is unknown"
                      : v.beyond_threshold         ? ""
                                                   : "; within the threshold, so it does not fail a gate");
    }
    v.reason = buf;
    return v;
}

std::string percent_interval(double lo, double hi) {
    // Differences relative to a baseline whose mean is 0 have no percent.
    if (std::isnan(lo) || std::isnan(hi)) return "(no relative interval: the baseline's mean is 0)";
    const auto one = [](double x) {
        char b[32];
        if (std::isinf(x)) std::snprintf(b, sizeof b, "%sinf", x < 0 ? "-" : "+");
        else std::snprintf(b, sizeof b, "%+.3g%%", x * 100);
        return std::string(b);
    };
    return "[" + one(lo) + ", " + one(hi) + "]";
}

// The confidence sequence's call is the verdict: it held at every look, so
// stopping when it said so keeps its error rates.
Verdict decide_sequential(const VerdictInputs& in, Verdict v) {
    char buf[480];
    const double thr = in.threshold * 100;
    const std::string interval = percent_interval(in.sequential_lower, in.sequential_upper);
    const double level = in.confidence * 100;
    switch (*in.sequential_call) {
        case SequentialCall::equivalent:
            v.outcome = Outcome::no_change;
            std::snprintf(buf, sizeof buf,
                          "equivalence shown: the %.4g%% %s %s after %zu blocks lies within "
                          "+-%.3g%%", level, in.sequential_interval, interval.c_str(), in.blocks, thr);
            break;
        case SequentialCall::changed:
            v.outcome = direction_outcome(in.better, in.change);
            std::snprintf(buf, sizeof buf,
                          "%s, significant: the %.4g%% %s %s after %zu blocks excludes 0 (%s = %.3g)%s",
                          size_words(in.change, in.relative_change).c_str(), level, in.sequential_interval, interval.c_str(), in.blocks,
                          in.p_label.c_str(), in.p_adjusted,
                          in.better == Better::unknown ? "; which direction is better is unknown"
                          : v.beyond_threshold         ? ""
                                                       : "; within the threshold, so it does not fail a gate");
            break;
        case SequentialCall::go_on: {
            v.outcome = Outcome::inconclusive;
            std::string text;
            if (in.blocks < 2)
                text = std::string("too few blocks for the ") + in.sequential_interval + " (" + std::to_string(in.blocks) + ")";
            else {
                std::snprintf(buf, sizeof buf,
                              "the %.4g%% %s %s after %zu blocks holds 0 and reaches beyond "
                              "+-%.3g%%: neither a change nor equivalence is shown (%s = %.3g)",
                              level, in.sequential_interval, interval.c_str(), in.blocks, thr, in.p_label.c_str(), in.p_adjusted);
                text = buf;
            }
            if (in.blocks_to_settle) {
                std::snprintf(buf, sizeof buf, "; about %zu more block%s would likely settle it", *in.blocks_to_settle,
                              *in.blocks_to_settle == 1 ? "" : "s");
                text += buf;
                v.runs_needed = static_cast<double>(in.blocks + *in.blocks_to_settle);
            }
            v.settling = in.settling;
            std::snprintf(buf, sizeof buf, "%s", text.c_str());
            break;
        }
    }
    v.reason = buf;
    return v;
}

}  // namespace

Verdict decide(const VerdictInputs& in) {
    Verdict v;
    v.primary = in.exact ? PrimaryTest::exact : in.primary.test;
    v.p_adjusted = in.p_adjusted;
    v.by_boots = in.by_boots;
    v.by_blocks = in.by_blocks;
    v.by_machines = in.by_machines;
    const char* unit = in.by_blocks ? "blocks" : in.by_machines ? "machines" : in.by_boots ? "boots" : "runs";
    const char* per_side = in.by_blocks ? "" : " per side";
    const char* a_side = in.by_blocks ? "" : " a side";
    const double alpha = 1 - in.confidence;
    v.beyond_threshold = std::isnan(in.relative_change) ? in.change != 0
                                                        : std::fabs(in.relative_change) > in.threshold;
    if (in.exact) {
        v.p_adjusted = std::numeric_limits<double>::quiet_NaN();
        return decide_exact(in, v);
    }
    if (in.sequential_call) return decide_sequential(in, v);
    if (!in.not_judged.empty()) {
        v.outcome = Outcome::inconclusive;
        v.not_judged = true;
        v.p_adjusted = std::numeric_limits<double>::quiet_NaN();
        v.reason = in.not_judged;
        return v;
    }
    char buf[800];
    if (!in.defined) {
        // No variability: a p of 0 or 1 here would be a statement about the
        // sample, not about noise, and must not reach a gate.
        v.outcome = Outcome::inconclusive;
        v.p_adjusted = std::numeric_limits<double>::quiet_NaN();
        const char* advice = "; if the metric is deterministic, declare it exact (--exact)";
        if (in.both_constant && in.baseline_constant == in.candidate_constant) {
            // Every run of both sides gave the same value (a counter that
            // stayed 0): there is nothing to test and nothing changed. Calling
            // it inconclusive would ask for runs that cannot tell more, and
            // fail --strict over a metric that did not move.
            v.outcome = Outcome::no_change;
            v.constant = true;
            std::snprintf(buf, sizeof buf,
                          "every run of both samples gave %.6g: no variability to test and no difference",
                          in.baseline_constant);
        } else if (in.both_constant)
            std::snprintf(buf, sizeof buf,
                          "both samples are constant (%.6g and %.6g): with no variability on either side nothing "
                          "can tell noise from a change%s",
                          in.baseline_constant, in.candidate_constant, advice);
        else
            std::snprintf(buf, sizeof buf,
                          "%s is undefined (no variability between the units it compares): nothing can tell "
                          "noise from a change%s",
                          primary_test_words(in.primary.test), advice);
        v.reason = buf;
        return v;
    }
    if (in.cv > 0 && std::isfinite(in.cv) && in.threshold > 0) {
        // Rounded up wherever it is shown: the whole number is found directly.
        const double n = whole_runs_per_group(in.cv, in.threshold, alpha, 0.8);
        if (std::isfinite(n)) v.runs_needed = n;
    }
    if (in.cv > 0 && std::isfinite(in.cv) && in.n_per_side >= 2) {
        const double d = detectable_relative_change(in.cv, in.n_per_side, alpha, 0.8);
        if (std::isfinite(d)) v.detectable_change = d;
    }

    const double thr = in.threshold * 100;
    const char* p = in.p_label.c_str();
    const char* pronoun = in.unsteady.find(" and ") == std::string::npos ? "its" : "their";
    // A change far beyond what the drift could make stands (see verdict.h).
    const bool drift_explains = !in.unsteady.empty() && !(std::fabs(in.relative_change) > 2 * in.unsteady_size);
    if (in.equivalence.equivalent) {
        v.outcome = Outcome::no_change;
        std::snprintf(buf, sizeof buf,
                      "equivalence shown: the change lies within +-%.3g%% (TOST p = %.3g)%s", thr,
                      in.equivalence.p,
                      in.p_adjusted < alpha ? "; a real but negligible change" : "");
    } else if (in.p_adjusted < alpha) {
        v.outcome = direction_outcome(in.better, in.change);
        std::snprintf(buf, sizeof buf, "%s, significant (%s = %.3g, %s)%s",
                      size_words(in.change, in.relative_change).c_str(), p, in.p_adjusted,
                      primary_test_words(in.primary.test),
                      in.better == Better::unknown ? "; which direction is better is unknown"
                      : v.beyond_threshold         ? ""
                                                   : "; within the threshold, so it does not fail a gate");
        if (in.fewest_boots == 2) {
            // The runs differ, but 2 boots a side cannot show whether the
            // boots do: saying "regression" would be a guess.
            v.outcome = Outcome::inconclusive;
            const std::string seen = buf;
            std::snprintf(buf, sizeof buf,
                          "the runs differ (%s), but with 2 boots on a side, none shared, a difference between "
                          "boots cannot be told from a change: measure 3 or more boots a side, or both variants in "
                          "the same boots",
                          seen.c_str());
        }
    } else {
        v.outcome = Outcome::inconclusive;
        std::string text;
        char part[240];
        if (drift_explains) {
            std::snprintf(buf, sizeof buf,
                          "%s: run the variants interleaved, `gfxstat ab`; %s runs are not one sample of one "
                          "thing, and neither a change (%s = %.3g) nor equivalence within +-%.3g%% is shown",
                          in.unsteady.c_str(), pronoun, p, in.p_adjusted, thr);
            v.reason = buf;
            return v;
        }
        std::snprintf(part, sizeof part, "neither a change (%s = %.3g) nor equivalence within +-%.3g%% (TOST p = %.3g) "
                      "is shown", p, in.p_adjusted, thr, in.equivalence.p);
        text = part;
        // Say what this n can see when it cannot see the threshold's size:
        // a user can then tell "no change" from "could not have seen one".
        if (v.detectable_change && *v.detectable_change > in.threshold) {
            std::snprintf(part, sizeof part, "; with %.0f %s%s at this variability, a change under %.2g%% "
                          "cannot be told from noise", std::floor(in.n_per_side), unit, a_side,
                          *v.detectable_change * 100);
            text += part;
        }
        if (v.runs_needed) {
            std::snprintf(part, sizeof part, "; about %.0f %s%s would resolve +-%.3g%%",
                          std::ceil(*v.runs_needed), unit, per_side, thr);
            text += part;
        }
        std::snprintf(buf, sizeof buf, "%s", text.c_str());
    }
    if (drift_explains && v.outcome != Outcome::inconclusive) {
        // A drift or a change of level within a side: what the test saw
        // may be the drift, not the variants.
        const std::string seen = buf;
        v.outcome = Outcome::inconclusive;
        v.unsteady = in.unsteady;
        std::snprintf(buf, sizeof buf,
                      "%s: run the variants interleaved, `gfxstat ab`; %s runs are not one sample of one thing, "
                      "so what the test saw (%s) may be the drift, not the variants",
                      in.unsteady.c_str(), pronoun, seen.c_str());
    }
    v.reason = buf;
    return v;
}

}  // namespace gfxstat::analysis
