// SPDX-License-Identifier: MIT
#include "analysis/comparison.h"

#include <algorithm>
#include <cstdio>
#include <future>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "analysis/order_stats.h"
#include "analysis/ratio_interval.h"
#include "analysis/student_t.h"

namespace gfxstat::analysis {

namespace {

std::vector<double> as_doubles(const ScaledValues& v) {
    std::vector<double> out(v.size());
    for (size_t i = 0; i < out.size(); ++i) out[i] = v.at(i);
    return out;
}

// min and max from the doubles; the median by exact selection on the
// sample itself (which is reordered); the exact moments.
SampleSummary summarize(const std::vector<double>& values, MutableScaledValues exact,
                        const Moments& m) {
    SampleSummary s;
    s.n = m.n;
    s.mean = m.mean;
    s.stddev = m.stddev;
    double lo = values[0], hi = values[0];
    for (double x : values) lo = std::min(lo, x), hi = std::max(hi, x);
    s.min = lo;
    s.max = hi;
    s.median = median(exact);
    return s;
}

// Pooled sd over |mean(baseline)|, scaled by the baseline mean before
// squaring so that values near the double range do not overflow.
double pooled_cv(const TwoSampleMoments& m) {
    if (m.baseline.mean == 0 || m.baseline.n + m.candidate.n < 3) return 0;
    const double ra = m.baseline.stddev / std::fabs(m.baseline.mean);
    const double rb = m.candidate.stddev / std::fabs(m.baseline.mean);
    const double wa = m.baseline.n > 1 ? (m.baseline.n - 1) * ra * ra : 0;
    const double wb = m.candidate.n > 1 ? (m.candidate.n - 1) * rb * rb : 0;
    return std::sqrt((wa + wb) / static_cast<double>(m.baseline.n + m.candidate.n - 2));
}

double mean_of(const std::vector<double>& v) {
    long double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : static_cast<double>(s / static_cast<long double>(v.size()));
}

TwoSampleMoments boot_means_moments(const Clustering& k) {
    return two_sample_moments(ScaledValues{std::span<const double>(k.baseline_means), 0},
                              ScaledValues{std::span<const double>(k.candidate_means), 0});
}

Clustering cluster_by_boot(const std::vector<double>& a, const std::vector<double>& b, const SampleLayout& la,
                           const SampleLayout& lb, const SampleDiagnostics& da, const SampleDiagnostics& db,
                           const ComparisonOptions& o) {
    Clustering k;
    const double alpha = 1 - o.confidence;
    const auto matters = [&](const SampleDiagnostics& d) { return d.boots && d.boots->defined && d.boots->f_p < alpha; };
    if (!da.boots != !db.boots) {
        // Boots known on one side only: the verdict cannot use them, but
        // the report says when the known side clusters.
        k.unknown_side = da.boots ? "candidate" : "baseline";
        k.boots_matter = matters(da.boots ? da : db);
        return k;
    }
    if (la.boot_of_value.empty() || lb.boot_of_value.empty() || !da.boots || !db.boots) return k;
    k.known = true;
    k.baseline_boots = da.boots->boots;
    k.candidate_boots = db.boots->boots;
    for (const std::string& id : la.boot_ids)
        k.shared_boots += std::find(lb.boot_ids.begin(), lb.boot_ids.end(), id) != lb.boot_ids.end();
    k.confounded = k.baseline_boots == 1 && k.candidate_boots == 1 && k.shared_boots == 0;
    k.boots_matter = matters(da) || matters(db);
    k.baseline_means = boot_means(a, la.boot_of_value);
    k.candidate_means = boot_means(b, lb.boot_of_value);
    k.by_boots = k.boots_matter && k.baseline_means.size() >= 2 && k.candidate_means.size() >= 2;
    if (k.boots_matter && k.shared_boots >= 2) {
        // Per shared boot: candidate mean - baseline mean, matched by id.
        std::vector<std::pair<std::string, double>> base_by_id, cand_by_id;
        const std::vector<double> ma = boot_means(a, la.boot_of_value), mb = boot_means(b, lb.boot_of_value);
        const auto ids_in_order = [](const SampleLayout& l) {
            // boot_means lists the boots holding values in index order.
            std::vector<bool> has(l.boot_ids.size(), false);
            for (uint32_t i : l.boot_of_value) has[i] = true;
            std::vector<std::string> ids;
            for (size_t i = 0; i < has.size(); ++i)
                if (has[i]) ids.push_back(l.boot_ids[i]);
            return ids;
        };
        const std::vector<std::string> ia = ids_in_order(la), ib = ids_in_order(lb);
        double base_sum = 0;
        for (size_t i = 0; i < ia.size(); ++i)
            for (size_t j = 0; j < ib.size(); ++j)
                if (ia[i] == ib[j]) {
                    k.boot_differences.push_back(mb[j] - ma[i]);
                    k.paired_baseline_means.push_back(ma[i]);
                    base_sum += ma[i];
                }
        if (k.boot_differences.size() >= 2) {
            k.paired = true;
            k.by_boots = true;
            const double base = base_sum / static_cast<double>(k.boot_differences.size());
            k.boot_means_test = one_sample_t_test(k.boot_differences, o.confidence);
            k.boot_means_equivalence =
                one_sample_tost(k.boot_differences, o.threshold * std::fabs(base), 1 - o.confidence);
            return k;
        }
        k.boot_differences.clear();
        k.paired_baseline_means.clear();
    }
    if (k.by_boots) {
        const TwoSampleMoments m = boot_means_moments(k);
        k.boot_means_test = welch_t_test(m, o.confidence);
        k.boot_means_equivalence = tost(m, o.threshold, 1 - o.confidence);
    }
    return k;
}

size_t distinct_indices(std::span<const uint32_t> v) {
    std::vector<uint32_t> c(v.begin(), v.end());
    std::sort(c.begin(), c.end());
    return static_cast<size_t>(std::unique(c.begin(), c.end()) - c.begin());
}

// The ids of the machines holding values.
std::vector<std::string> machines_used(const SampleLayout& l) {
    std::vector<bool> has(l.machine_ids.size(), false);
    for (uint32_t i : l.machine_of_value)
        if (i < has.size()) has[i] = true;
    std::vector<std::string> ids;
    for (size_t i = 0; i < has.size(); ++i)
        if (has[i]) ids.push_back(l.machine_ids[i]);
    return ids;
}

// What a fleet's machine-level test's relative change is relative to: the
// mean of the shared machines' baseline means (paired), or of all the
// baseline's machine means.
double fleet_base(const Fleet& f) {
    if (!f.paired) return mean_of(f.baseline_means);
    std::vector<double> base;
    for (const MachineChange& r : f.changes.rows) base.push_back(r.baseline_mean);
    return mean_of(base);
}

// Machines as the unit above boots: when the values of a side span 2+
// machines and the machine level is significant, the machine is what is
// independent (a machine's runs share its silicon, cooling and firmware
// for as long as it lives). Otherwise the fleet is only reported.
Fleet analyse_fleet(const std::vector<double>& a, const std::vector<double>& b, const SampleLayout& la,
                    const SampleLayout& lb, const ComparisonOptions& o) {
    Fleet f;
    if (a.empty() || b.empty() || la.machine_of_value.size() != a.size() || lb.machine_of_value.size() != b.size())
        return f;
    f.baseline_machines = distinct_indices(la.machine_of_value);
    f.candidate_machines = distinct_indices(lb.machine_of_value);
    if (std::max(f.baseline_machines, f.candidate_machines) < 2) return f;
    f.known = true;
    const std::vector<std::string> ia = machines_used(la), ib = machines_used(lb);
    for (const std::string& id : ia) f.shared_machines += std::find(ib.begin(), ib.end(), id) != ib.end();
    const auto boots = [](const SampleLayout& l, size_t n) {
        return l.boot_of_value.size() == n ? l.boot_of_value : std::span<const uint32_t>{};
    };
    f.baseline_variance = nested_variance(a, la.machine_of_value, boots(la, a.size()));
    f.candidate_variance = nested_variance(b, lb.machine_of_value, boots(lb, b.size()));
    const double alpha = 1 - o.confidence;
    const auto machines = [&](const NestedVariance& v) { return v.defined && v.p_machines < alpha; };
    const auto boot_level = [&](const NestedVariance& v) { return v.defined && v.levels == 2 && v.p_boots < alpha; };
    f.machines_matter = machines(f.baseline_variance) || machines(f.candidate_variance);
    f.boots_matter = boot_level(f.baseline_variance) || boot_level(f.candidate_variance);
    f.changes = machine_changes(a, b, la, lb, f.boots_matter, o.confidence, o.threshold);
    f.baseline_means = machine_means(a, la, f.boots_matter).means;
    f.candidate_means = machine_means(b, lb, f.boots_matter).means;
    if (!f.machines_matter) return f;
    if (f.changes.rows.size() >= 2) {
        // Per shared machine: candidate mean - baseline mean; the machine's
        // own level cancels.
        for (const MachineChange& r : f.changes.rows) f.machine_differences.push_back(r.change);
        f.paired = true;
        f.by_machines = true;
        f.machine_means_test = one_sample_t_test(f.machine_differences, o.confidence);
        f.machine_means_equivalence =
            one_sample_tost(f.machine_differences, o.threshold * std::fabs(fleet_base(f)), alpha);
    } else if (f.baseline_means.size() >= 2 && f.candidate_means.size() >= 2) {
        const TwoSampleMoments m = two_sample_moments(ScaledValues{std::span<const double>(f.baseline_means), 0},
                                                      ScaledValues{std::span<const double>(f.candidate_means), 0});
        f.by_machines = true;
        f.machine_means_test = welch_t_test(m, o.confidence);
        f.machine_means_equivalence = tost(m, o.threshold, alpha);
    }
    return f;
}

// The names of the machines holding values, in order of first appearance
// ("" when some value's machine is unknown: then nothing is known).
std::vector<std::string> machine_names_used(const SampleLayout& l, size_t n) {
    std::vector<std::string> out;
    if (n == 0 || l.machine_of_value.size() != n) return out;
    for (uint32_t i : l.machine_of_value) {
        if (i >= l.machine_ids.size()) return {};
        const std::string& name = i < l.machine_names.size() && !l.machine_names[i].empty() ? l.machine_names[i]
                                                                                              : l.machine_ids[i];
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
    return out;
}

// The boot ids holding values.
std::vector<std::string> boots_used(const SampleLayout& l) {
    std::vector<bool> has(l.boot_ids.size(), false);
    for (uint32_t i : l.boot_of_value)
        if (i < has.size()) has[i] = true;
    std::vector<std::string> ids;
    for (size_t i = 0; i < has.size(); ++i)
        if (has[i]) ids.push_back(l.boot_ids[i]);
    return ids;
}

// One new boot (or a few) against stored history (StoredBootsDesign in
// comparison.h): whether the layouts say so, and then the test or why the
// baseline cannot judge the candidate.
std::optional<StoredBootsDesign> stored_boots_design(const std::vector<double>& a, const std::vector<double>& b,
                                                     const SampleLayout& la, const SampleLayout& lb,
                                                     const ComparisonOptions& o) {
    if (a.empty() || b.empty() || la.boot_of_value.size() != a.size() || lb.boot_of_value.size() != b.size())
        return std::nullopt;
    const std::vector<std::string> ia = boots_used(la), ib = boots_used(lb);
    for (const std::string& id : ia)
        if (std::find(ib.begin(), ib.end(), id) != ib.end()) return std::nullopt;  // shared boots: paired
    // History: more stored boots than new ones (as many on each side is an
    // A/B of two sets of boots, tested as before).
    if (ib.empty() || ib.size() > kStoredBootsMaxCandidate || ia.size() < 2 || ia.size() <= ib.size())
        return std::nullopt;
    const std::vector<std::string> ma = machine_names_used(la, a.size()), mb = machine_names_used(lb, b.size());
    if (mb.size() > 1) return std::nullopt;  // a candidate of several machines: a fleet
    StoredBootsDesign d;
    d.test = stored_boots_test(a, la.boot_of_value, b, lb.boot_of_value, o.confidence, o.threshold);
    if (!mb.empty() && !ma.empty()) {
        d.candidate_machine = mb.front();
        for (const std::string& m : ma)
            if (m != d.candidate_machine) d.other_machines.push_back(m);
    }
    if (!d.other_machines.empty()) d.not_judged = "other_machine";
    else if (ia.size() < kStoredBootsMinBaseline) d.not_judged = "too_few_baseline_boots";
    return d;
}

// Why the baseline cannot judge the candidate, as the verdict's reason.
std::string stored_boots_sentence(const StoredBootsDesign& d) {
    const StoredBoots& t = d.test;
    char buf[400];
    if (d.not_judged == "other_machine") {
        std::string others;
        for (size_t i = 0; i < d.other_machines.size(); ++i) others += (i ? ", " : "") + d.other_machines[i];
        return "not judged: baseline boots ran on another machine (" + others + ") than the candidate's (" +
               d.candidate_machine + "), and one machine's boots say nothing of another's level; take the "
               "baseline from the candidate's machine";
    }
    std::snprintf(buf, sizeof buf,
                  "not judged: the baseline holds %zu boot%s, and a new boot is judged against %zu or more (the "
                  "spread between boots comes from the baseline's boots alone); store more builds of the "
                  "baseline on this machine",
                  t.baseline_boots, t.baseline_boots == 1 ? "" : "s", kStoredBootsMinBaseline);
    return buf;
}

// Boots of the side with fewer when boot ids are known and no boot ran
// both variants; 0 otherwise. The interval and the verdict both read it.
size_t unshared_boots_per_side(const Clustering& k) {
    return k.known && k.shared_boots == 0 ? std::min(k.baseline_boots, k.candidate_boots) : 0;
}

// Of ascending values.
size_t distinct_count(const std::vector<double>& sorted) {
    size_t k = sorted.empty() ? 0 : 1;
    for (size_t i = 1; i < sorted.size(); ++i) k += sorted[i] != sorted[i - 1];
    return k;
}

// The exact comparison of a deterministic metric: the difference of means,
// with nothing to test it against.
void set_exact_change(TwoSampleComparison& c) {
    c.primary = {PrimaryTest::exact, "the metric is declared exact (deterministic)"};
    c.change = c.difference;
    c.relative_change = c.relative_difference;
    c.change_ci = {c.difference, c.difference};
    c.relative_change_ci = {c.relative_difference, c.relative_difference};
    c.change_ci_defined = true;
    c.primary_defined = true;
    c.primary_p = std::numeric_limits<double>::quiet_NaN();
    c.n_per_side = static_cast<double>(std::min(c.baseline.n, c.candidate.n));
}

// The primary test's interval for its own estimate, and whether the test
// is defined at all (a test on samples without variability is not).
void set_headline(TwoSampleComparison& c) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto from_t = [&](const TTest& t) {
        c.primary_defined = t.defined;
        c.change_ci = t.ci;
        c.change_ci_defined = t.defined;
    };
    double base = 0;  // the magnitude relative_change is relative to
    switch (c.primary.test) {
        case PrimaryTest::welch:
            from_t(c.welch);
            base = c.baseline.mean;
            c.n_per_side = static_cast<double>(std::min(c.baseline.n, c.candidate.n));
            break;
        case PrimaryTest::mann_whitney:
            c.primary_defined = !c.both_constant;
            c.change_ci = c.hodges_lehmann.ci;
            c.change_ci_defined = !c.both_constant && std::isfinite(c.change_ci[0]) && std::isfinite(c.change_ci[1]);
            base = c.baseline.median;
            c.n_per_side = static_cast<double>(std::min(c.baseline.n, c.candidate.n));
            break;
        case PrimaryTest::welch_boot_means:
        case PrimaryTest::paired_boot_means:
            from_t(c.clustering.boot_means_test);
            base = mean_of(c.clustering.baseline_means);
            c.n_per_side = c.clustering.paired
                               ? static_cast<double>(c.clustering.boot_differences.size())
                               : static_cast<double>(std::min(c.clustering.baseline_means.size(),
                                                              c.clustering.candidate_means.size()));
            break;
        case PrimaryTest::paired_machine_means:
        case PrimaryTest::welch_machine_means:
            from_t(c.fleet.machine_means_test);
            base = fleet_base(c.fleet);
            c.n_per_side = c.fleet.paired ? static_cast<double>(c.fleet.machine_differences.size())
                                          : static_cast<double>(std::min(c.fleet.baseline_means.size(),
                                                                         c.fleet.candidate_means.size()));
            break;
        case PrimaryTest::stored_boots: {
            const StoredBoots& t = c.stored->test;
            c.primary_defined = t.defined && c.stored->not_judged.empty();
            c.change_ci = t.ci;
            c.change_ci_defined = c.primary_defined;
            base = t.baseline_mean;
            c.n_per_side = static_cast<double>(t.candidate_boots);
            break;
        }
        case PrimaryTest::exact:
        case PrimaryTest::paired_blocks:
        case PrimaryTest::sequential_blocks:
        case PrimaryTest::group_sequential_blocks: return;  // set by set_exact_change / analyse_blocks
        case PrimaryTest::paired_benchmarks:
        case PrimaryTest::signed_rank_benchmarks: return;  // suites only (paired_suite.h), never a pair of samples
    }
    // An undefined test's p (0 or 1 by convention) says nothing about noise.
    if (!c.primary_defined) c.primary_p = nan;
    if (c.change_ci_defined && !c.fleet.by_machines && !c.stored && unshared_boots_per_side(c.clustering) == 2) {
        c.change_ci_defined = false;
        c.change_ci_withheld = "2 boots a side cannot show how much boots differ";
    }
    if (!c.change_ci_defined) {
        c.change_ci = {nan, nan};
        c.relative_change_ci = {nan, nan};
        return;
    }
    c.relative_change_ci = base != 0 ? std::array<double, 2>{c.change_ci[0] / std::fabs(base),
                                                             c.change_ci[1] / std::fabs(base)}
                                     : std::array<double, 2>{nan, nan};
}

}  // namespace

TwoSampleComparison compare_samples(MutableScaledValues baseline_values,
                                    MutableScaledValues candidate_values, const ComparisonOptions& o,
                                    const SampleLayout& la, const SampleLayout& lb) {
    const ScaledValues baseline = baseline_values.view(), candidate = candidate_values.view();
    TwoSampleComparison c;
    const TwoSampleMoments m = two_sample_moments(baseline, candidate);
    // In run order: taken before the median selection reorders the sample.
    const std::vector<double> a = as_doubles(baseline), b = as_doubles(candidate);
    c.baseline = summarize(a, baseline_values, m.baseline);
    c.candidate = summarize(b, candidate_values, m.candidate);
    c.difference = m.difference;
    // Relative to the baseline's magnitude, so that the sign stays the sign
    // of the difference when the baseline is negative.
    c.relative_difference = m.baseline.mean != 0 ? m.difference / std::fabs(m.baseline.mean)
                                                 : std::numeric_limits<double>::quiet_NaN();
    // Each sample sorted once, for every statistic that needs the order.
    const std::vector<double> sa = sorted_ascending(a), sb = sorted_ascending(b);
    c.baseline_distinct = distinct_count(sa);
    c.candidate_distinct = distinct_count(sb);
    c.both_constant = c.baseline_distinct == 1 && c.candidate_distinct == 1;
    c.baseline_median = median_interval_sorted(sa, o.confidence);
    c.candidate_median = median_interval_sorted(sb, o.confidence);
    if (o.exact && (a.size() < 2 || b.size() < 2)) {
        // One value a side: only the exact difference means anything.
        if (!std::isfinite(c.baseline.stddev)) c.baseline.stddev = 0;
        if (!std::isfinite(c.candidate.stddev)) c.candidate.stddev = 0;
        c.tests_computed = false;
        set_exact_change(c);
        return c;
    }
    c.student = student_t_test(m, o.confidence);
    c.welch = welch_t_test(m, o.confidence);
    c.mann_whitney = mann_whitney_sorted(sa, sb);
    c.hodges_lehmann = hodges_lehmann_sorted(sa, sb, o.confidence);
    if (o.bootstrap_resamples > 0) {
        BootstrapOptions bo;
        bo.seed = o.seed;
        bo.resamples = o.bootstrap_resamples;
        bo.confidence = o.confidence;
        bo.threads = o.threads;
        c.bootstrap = bootstrap_medians(a, b, bo);
    }
    c.effect = effect_size(m, o.confidence);
    c.equivalence = tost(m, o.threshold, 1 - o.confidence);
    c.cv = pooled_cv(m);
    // The shape from the doubles already converted (the same numbers as
    // baseline.at(i)), not converting each exact decimal again.
    c.primary = choose_primary(shape(ScaledValues{std::span<const double>(a), 0}, m.baseline),
                               shape(ScaledValues{std::span<const double>(b), 0}, m.candidate));

    if (o.diagnostics) {
        DiagnosticOptions d;
        d.confidence = o.confidence;
        d.threshold = o.threshold;
        // The two samples' diagnostics are independent: on two threads
        // when allowed (a million values take about a second each).
        if (o.threads > 1) {
            auto later = std::async(std::launch::async, [&] { return diagnose_sample(b, lb, d, &candidate, sb); });
            c.baseline_diagnostics = diagnose_sample(a, la, d, &baseline, sa);
            c.candidate_diagnostics = later.get();
        } else {
            c.baseline_diagnostics = diagnose_sample(a, la, d, &baseline, sa);
            c.candidate_diagnostics = diagnose_sample(b, lb, d, &candidate, sb);
        }
        c.clustering = cluster_by_boot(a, b, la, lb, *c.baseline_diagnostics, *c.candidate_diagnostics, o);
        const Bimodality& ba = c.baseline_diagnostics->bimodality;
        const Bimodality& bb = c.candidate_diagnostics->bimodality;
        if (ba.bimodal) c.candidate_in_baseline_modes = mode_weights(ba.modes, b);
        if (bb.bimodal) c.baseline_in_candidate_modes = mode_weights(bb.modes, a);
        c.fleet = analyse_fleet(a, b, la, lb, o);
        if (c.fleet.by_machines) {
            const Fleet& f = c.fleet;
            const auto share = [](const NestedVariance& v) { return v.defined ? v.share_machines * 100 : 0.0; };
            const double p = std::min(f.baseline_variance.defined ? f.baseline_variance.p_machines : 1.0,
                                      f.candidate_variance.defined ? f.candidate_variance.p_machines : 1.0);
            char buf[320];
            if (f.paired)
                std::snprintf(buf, sizeof buf,
                              "runs cluster by machine (%.0f%% of the baseline's variance and %.0f%% of the "
                              "candidate's lie between machines, F test p = %.2g) and both variants ran on the "
                              "same %zu machines, so each machine's difference is what is independent",
                              share(f.baseline_variance), share(f.candidate_variance), p,
                              f.machine_differences.size());
            else
                std::snprintf(buf, sizeof buf,
                              "runs cluster by machine (%.0f%% of the baseline's variance and %.0f%% of the "
                              "candidate's lie between machines, F test p = %.2g), so the %zu and %zu machine "
                              "means are what is independent",
                              share(f.baseline_variance), share(f.candidate_variance), p, f.baseline_means.size(),
                              f.candidate_means.size());
            c.primary = {f.paired ? PrimaryTest::paired_machine_means : PrimaryTest::welch_machine_means, buf};
        } else if (c.clustering.by_boots) {
            const Clustering& k = c.clustering;
            char buf[240];
            if (k.paired)
                std::snprintf(buf, sizeof buf,
                              "runs cluster by boot (intraclass correlation %.2g baseline, %.2g candidate) and "
                              "both ran in the same %zu boots, so each boot's difference is what is independent",
                              c.baseline_diagnostics->boots->icc, c.candidate_diagnostics->boots->icc,
                              k.boot_differences.size());
            else
                std::snprintf(buf, sizeof buf,
                              "runs cluster by boot (intraclass correlation %.2g baseline, %.2g candidate), so "
                              "the %zu and %zu boot means are what is independent",
                              c.baseline_diagnostics->boots->icc, c.candidate_diagnostics->boots->icc,
                              k.baseline_boots, k.candidate_boots);
            c.primary = {k.paired ? PrimaryTest::paired_boot_means : PrimaryTest::welch_boot_means, buf};
        } else if (ba.bimodal || bb.bimodal) {
            const char* which = ba.bimodal && bb.bimodal ? "both samples are" : ba.bimodal ? "the baseline is"
                                                                                           : "the candidate is";
            c.primary = {PrimaryTest::mann_whitney,
                         std::string(which) + " bimodal: means and t tests describe neither mode"};
        }
    }

    // An exact metric is compared exactly, whatever its boots.
    if (!o.exact) c.stored = stored_boots_design(a, b, la, lb, o);
    if (c.stored) {
        const StoredBoots& t = c.stored->test;
        char buf[320];
        std::snprintf(buf, sizeof buf,
                      "the candidate's %zu boot%s share%s none of the baseline's %zu: %s judged against the "
                      "spread of the baseline's boot means (prediction interval, %.0f df)",
                      t.candidate_boots, t.candidate_boots == 1 ? "" : "s", t.candidate_boots == 1 ? "s" : "",
                      t.baseline_boots, t.candidate_boots == 1 ? "its mean is" : "their mean is", t.df);
        c.primary = {PrimaryTest::stored_boots, buf};
    }

    const double nan = std::numeric_limits<double>::quiet_NaN();
    c.primary_equivalence = c.equivalence;
    switch (c.primary.test) {
        case PrimaryTest::welch:
            c.primary_p = c.welch.p;
            c.change = c.difference;
            c.relative_change = c.relative_difference;
            break;
        case PrimaryTest::exact:  // set by set_exact_change
        case PrimaryTest::paired_blocks:
        case PrimaryTest::sequential_blocks:
        case PrimaryTest::group_sequential_blocks: break;  // set by analyse_blocks
        case PrimaryTest::paired_benchmarks:
        case PrimaryTest::signed_rank_benchmarks: break;  // suites only, never a pair of samples
        case PrimaryTest::mann_whitney:
            c.primary_p = c.mann_whitney.p;
            c.change = c.hodges_lehmann.estimate;
            c.relative_change = c.baseline.median != 0 ? c.change / std::fabs(c.baseline.median) : nan;
            break;
        case PrimaryTest::paired_machine_means:
        case PrimaryTest::welch_machine_means: {
            const Fleet& f = c.fleet;
            c.primary_p = f.machine_means_test.p;
            c.change = f.machine_means_test.difference;
            const double base = fleet_base(f);
            c.relative_change = base != 0 ? c.change / std::fabs(base) : nan;
            c.primary_equivalence = f.machine_means_equivalence;
            if (!f.paired) {
                c.cv = pooled_cv(two_sample_moments(ScaledValues{std::span<const double>(f.baseline_means), 0},
                                                    ScaledValues{std::span<const double>(f.candidate_means), 0}));
            } else {
                // Machines needed: as for boots, a two-sample t with per-side
                // sd sd(d)/sqrt(2) has the paired test's standard error.
                const double sd_d = f.machine_means_test.stderr_ *
                                    std::sqrt(static_cast<double>(f.machine_differences.size()));
                c.cv = base != 0 ? sd_d / std::sqrt(2.0) / std::fabs(base) : 0;
            }
            break;
        }
        case PrimaryTest::stored_boots: {
            const StoredBoots& t = c.stored->test;
            c.primary_p = t.p;
            c.change = t.difference;
            c.relative_change = t.relative_difference;
            c.primary_equivalence.margin = o.threshold * std::fabs(t.baseline_mean);
            c.primary_equivalence.p = t.equivalence_p;
            c.primary_equivalence.equivalent = t.equivalent;
            c.primary_equivalence.ci = {nan, nan};
            if (t.defined && o.confidence > 0.5) {
                const double h = t_quantile(o.confidence, t.df) * t.stderr_;  // the 1 - 2 alpha interval
                c.primary_equivalence.ci = {t.difference - h, t.difference + h};
            }
            // No runs_needed: more candidate runs do not shrink the
            // baseline's part, and more baseline boots are history to wait for.
            c.cv = 0;
            break;
        }
        case PrimaryTest::welch_boot_means:
        case PrimaryTest::paired_boot_means: {
            const Clustering& k = c.clustering;
            c.primary_p = k.boot_means_test.p;
            c.change = k.boot_means_test.difference;
            const double base = mean_of(k.baseline_means);
            c.relative_change = base != 0 ? c.change / std::fabs(base) : nan;
            c.primary_equivalence = k.boot_means_equivalence;
            if (!k.paired) {
                c.cv = pooled_cv(boot_means_moments(k));
            } else {
                // Boots needed: a two-sample t with per-side sd sd(d)/sqrt(2)
                // has the paired test's standard error at the same n.
                const double sd_d =
                    k.boot_means_test.stderr_ * std::sqrt(static_cast<double>(k.boot_differences.size()));
                c.cv = base != 0 ? sd_d / std::sqrt(2.0) / std::fabs(base) : 0;
            }
            break;
        }
    }
    set_headline(c);
    // Relative changes and their intervals as ratios (ratio_interval.h).
    set_ratio_change(c, a, b, o.confidence);
    if (o.exact) set_exact_change(c);
    return c;
}

void analyse_blocks(TwoSampleComparison& c, std::span<const double> base, std::span<const double> cand,
                    const BlockDesign& design) {
    if (base.size() != cand.size()) throw std::invalid_argument("block pairs: the two sides differ in length");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    BlockAnalysis b;
    b.design = design;
    b.blocks = base.size();
    bool positive = !base.empty();
    for (size_t i = 0; i < base.size(); ++i) {
        if (!std::isfinite(base[i]) || !std::isfinite(cand[i]))
            throw std::invalid_argument("block pairs: a value is not finite");
        positive &= base[i] > 0 && cand[i] > 0;
    }
    b.log_ratio = positive;
    std::vector<double> d(base.size());
    long double center = 0;
    for (size_t i = 0; i < base.size(); ++i) {
        d[i] = positive ? std::log(cand[i] / base[i]) : cand[i] - base[i];
        center += positive ? std::log(base[i]) : base[i];
    }
    b.baseline_center = base.empty() ? nan
                        : positive   ? static_cast<double>(std::exp(center / static_cast<long double>(base.size())))
                                     : static_cast<double>(center / static_cast<long double>(base.size()));
    const double alpha = 1 - design.confidence;
    if (d.size() >= 2) {
        b.paired = one_sample_t_test(d, design.confidence);
        const double margin = positive ? std::log1p(design.threshold) : design.threshold * std::fabs(b.baseline_center);
        if (alpha < 0.5) b.equivalence = one_sample_tost(d, margin, alpha);
    } else {
        b.paired.defined = false;
        b.paired.p = 1;
        b.paired.t = b.paired.df = nan;
        b.paired.difference = d.empty() ? nan : d[0];
        b.paired.ci = {nan, nan};
    }
    const size_t n = d.size();
    const double sd_d = b.paired.defined ? b.paired.stderr_ * std::sqrt(static_cast<double>(n)) : 0;
    // A two-sample t with per-side sd sd(d)/sqrt(2) has the paired test's
    // standard error at the same n: what runs_needed then counts are blocks.
    c.cv = positive ? sd_d / std::sqrt(2.0)
                    : (b.baseline_center != 0 && std::isfinite(b.baseline_center)
                           ? sd_d / std::sqrt(2.0) / std::fabs(b.baseline_center)
                           : 0);
    c.n_per_side = static_cast<double>(n);
    c.change_ci_withheld.clear();
    const std::string what = std::to_string(n) + (n == 1 ? " block" : " blocks") +
                             (positive ? " (log ratios: every value is positive)" : " (differences)");
    if (design.sequential) {
        SequentialOptions so;
        so.confidence = design.confidence;
        so.threshold = design.threshold;
        so.looks = design.looks;
        const SequentialLook look = sequential_look(base, cand, so);
        c.primary = {design.looks.empty() ? PrimaryTest::sequential_blocks : PrimaryTest::group_sequential_blocks,
                     design.looks.empty()
                         ? "the variants ran in " + what + " under a sequential stop rule on this metric: after "
                           "data-dependent stopping only an anytime-valid test keeps its error rates"
                         : "the variants ran in " + what + " under a group-sequential stop rule on this metric: "
                           "its boundary keeps the error rates at the looks planned in advance, and decides "
                           "nowhere else"};
        c.primary_p = look.p;
        c.primary_defined = true;
        c.change = look.change;
        c.relative_change = look.relative_change;
        c.change_ci_defined = std::isfinite(look.change_lower) && std::isfinite(look.change_upper);
        if (c.change_ci_defined) {
            c.change_ci = {look.change_lower, look.change_upper};
            c.relative_change_ci = {look.lower, look.upper};
        } else {
            c.change_ci = {nan, nan};
            c.relative_change_ci = {nan, nan};
            c.change_ci_withheld = design.looks.empty()
                                       ? "the confidence sequence is not yet bounded: too few blocks"
                                       : "not at a planned look of the group-sequential design";
        }
        c.primary_equivalence = b.equivalence;
        c.primary_equivalence.equivalent = look.call == SequentialCall::equivalent;
        b.look = look;
        if (design.max_blocks) b.advice = settling_advice(base, cand, so, *design.max_blocks);
    } else {
        c.primary = {PrimaryTest::paired_blocks,
                     "the variants ran in " + what + ", each block every variant once, so each block's "
                     "difference is what is independent"};
        c.primary_defined = b.paired.defined;
        c.primary_p = b.paired.defined ? b.paired.p : nan;
        c.primary_equivalence = b.equivalence;
        const double mean_d = b.paired.difference;
        if (positive) {
            c.relative_change = std::expm1(mean_d);
            c.change = c.relative_change * b.baseline_center;
        } else {
            c.change = mean_d;
            c.relative_change = b.baseline_center != 0 ? mean_d / std::fabs(b.baseline_center) : nan;
        }
        c.change_ci_defined = b.paired.defined && std::isfinite(b.paired.ci[0]) && std::isfinite(b.paired.ci[1]);
        if (!c.change_ci_defined) {
            c.change_ci = {nan, nan};
            c.relative_change_ci = {nan, nan};
        } else if (positive) {
            c.relative_change_ci = {std::expm1(b.paired.ci[0]), std::expm1(b.paired.ci[1])};
            c.change_ci = {c.relative_change_ci[0] * b.baseline_center, c.relative_change_ci[1] * b.baseline_center};
        } else {
            c.change_ci = b.paired.ci;
            c.relative_change_ci = b.baseline_center != 0
                                       ? std::array<double, 2>{b.paired.ci[0] / std::fabs(b.baseline_center),
                                                               b.paired.ci[1] / std::fabs(b.baseline_center)}
                                       : std::array<double, 2>{nan, nan};
        }
    }
    c.blocks = std::move(b);
}

// "baseline drifts", "candidate changes level", "baseline and candidate
// drift": the sides whose runs the diagnostics found drifting or changing
// level in run order, when the variants were not paired in time (shared
// boots or machines, where each pair's own level cancels).
static std::string unsteady_sides(const TwoSampleComparison& c, double& size) {
    size = 0;
    // The stored-boots design: each boot's level is the noise it measures,
    // so a level changing from boot to boot is not a drift.
    if (c.clustering.paired || c.fleet.paired || c.stored) return "";
    for (const auto* d : {&c.baseline_diagnostics, &c.candidate_diagnostics}) {
        if (!*d) continue;
        const double moved = (*d)->trending ? (*d)->drift.trend.relative_drift
                             : (*d)->shifted ? (*d)->drift.change_point.relative_shift
                                             : 0;
        size = std::isnan(moved) || std::isnan(size) ? std::numeric_limits<double>::quiet_NaN()
                                                     : std::max(size, std::fabs(moved));
    }
    const auto what = [](const std::optional<SampleDiagnostics>& d) -> std::string {
        if (!d) return "";
        if (d->trending) return "drift";
        if (d->shifted) return "change level";
        return "";
    };
    const std::string a = what(c.baseline_diagnostics), b = what(c.candidate_diagnostics);
    if (a.empty() && b.empty()) return "";
    const auto one = [](const std::string& v) { return v == "drift" ? std::string("drifts") : "changes level"; };
    if (b.empty()) return "baseline " + one(a);
    if (a.empty()) return "candidate " + one(b);
    if (a == b) return "baseline and candidate " + a;
    return "baseline " + one(a) + " and candidate " + one(b);
}

VerdictInputs verdict_inputs(const TwoSampleComparison& c, Better better, double confidence, double threshold,
                             double p_adjusted, const std::string& p_label) {
    VerdictInputs vi;
    vi.better = better;
    vi.confidence = confidence;
    vi.threshold = threshold;
    vi.primary = c.primary;
    vi.p_adjusted = p_adjusted;
    vi.p_label = p_label;
    vi.change = c.change;
    vi.relative_change = c.relative_change;
    vi.equivalence = c.primary_equivalence;
    vi.cv = c.cv;
    vi.by_boots = c.clustering.by_boots;
    vi.defined = c.primary_defined;
    vi.both_constant = c.both_constant;
    vi.baseline_constant = c.baseline.mean;
    vi.candidate_constant = c.candidate.mean;
    vi.exact = c.primary.test == PrimaryTest::exact;
    vi.n_per_side = c.n_per_side;
    vi.fewest_boots = unshared_boots_per_side(c.clustering);
    vi.unsteady = unsteady_sides(c, vi.unsteady_size);
    if (c.stored) {
        vi.by_boots = true;
        vi.fewest_boots = 0;
        if (c.stored->not_judged.empty()) vi.not_judged.clear();
        else vi.not_judged = stored_boots_sentence(*c.stored);
    }
    if (c.fleet.by_machines && !c.blocks && !c.stored) {
        // Machines are the unit; boots nest within them.
        vi.by_boots = false;
        vi.by_machines = true;
        vi.fewest_boots = 0;
    }
    if (c.blocks) {
        // Blocks are the unit; boots do not enter (each block's pair shares
        // its boot), and a drift reaches both variants of a block alike.
        vi.unsteady.clear();
        vi.by_boots = false;
        vi.by_blocks = true;
        vi.fewest_boots = 0;
        vi.blocks = c.blocks->blocks;
        if (c.blocks->look) {
            const SequentialLook& l = *c.blocks->look;
            vi.confidence = c.blocks->design.confidence;
            vi.sequential_call = l.call;
            vi.sequential_lower = l.lower;
            vi.sequential_upper = l.upper;
            if (!c.blocks->design.looks.empty()) vi.sequential_interval = "repeated confidence interval";
            vi.blocks_to_settle = l.blocks_to_settle;
            vi.settling = c.blocks->advice;
        }
    }
    return vi;
}

}  // namespace gfxstat::analysis
