// SPDX-License-Identifier: MIT
#include "report/diagnostic_digest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "report/diagnostic_words.h"
#include "report/fleet_report.h"
#include "report/headline_words.h"
#include "report/settling_advice_words.h"
#include "report/volatile_words.h"
#include "text/number_format.h"

namespace gfxstat::cli {

namespace {

// The kinds, in the order their sentences are printed.
enum class Kind {
    settling,
    unsteady,
    ran_under,
    confounded,
    single_boot,
    unknown_boots,
    by_machines,
    by_boots,
    paired_boots,
    odd_machine,
    exact_varies,
    first_run,
    drift,
    drift_within_boots,
    level_change,
    bimodal,
    outliers,
    dropped,
    boot_clusters,
};

// Where one kind fired for one sample (or for the comparisons, who ""):
// the metrics, each with the size of what fired (a relative change, a
// count; NaN when it has none) and, for the kinds that carry their own
// words, the sentence.
struct Hit {
    std::string metric;
    double size = std::numeric_limits<double>::quiet_NaN();
    std::string words;
};

struct Digest {
    // (kind, who) -> hits, in the order the kinds and samples came.
    std::map<std::pair<Kind, std::string>, std::vector<Hit>> hits;
    std::vector<std::pair<Kind, std::string>> order;
    void add(Kind k, const std::string& who, Hit h) {
        auto key = std::make_pair(k, who);
        auto [it, fresh] = hits.try_emplace(key);
        if (fresh) order.push_back(key);
        // One hit per metric: a baseline seen by several candidates once.
        for (const Hit& seen : it->second)
            if (seen.metric == h.metric && seen.words == h.words) return;
        it->second.push_back(std::move(h));
    }
};

std::string quoted(const std::string& label) { return "'" + label + "'"; }

// " on fps", " on a and b", " on a, b and 3 more", " on every metric", or
// "" when the report has one metric.
std::string on_metrics(const std::vector<Hit>& hits, size_t metrics) {
    if (metrics < 2) return "";
    std::vector<std::string> names;
    for (const Hit& h : hits)
        if (std::find(names.begin(), names.end(), h.metric) == names.end()) names.push_back(h.metric);
    if (names.size() == metrics) return " on every metric";
    if (names.size() == 1) return " on " + names[0];
    if (names.size() == 2) return " on " + names[0] + " and " + names[1];
    return " on " + names[0] + ", " + names[1] + fmt(" and %zu more", names.size() - 2);
}

// The largest relative size among the hits: "+110%" for one, "by up to
// +110%" for several; "" when none has a size.
std::string largest(const std::vector<Hit>& hits) {
    const Hit* big = nullptr;
    for (const Hit& h : hits)
        if (std::isfinite(h.size) && (!big || std::fabs(h.size) > std::fabs(big->size))) big = &h;
    if (!big) return "";
    // Two digits, and no exponent for a change past +-100%.
    const std::string v = std::fabs(big->size) >= 0.1 ? fmt("%+.0f%%", big->size * 100)
                                                      : text::signed_percent(big->size, 2);
    return hits.size() == 1 ? v : "up to " + v;
}

size_t total(const std::vector<Hit>& hits) {
    double n = 0;
    for (const Hit& h : hits)
        if (std::isfinite(h.size)) n += h.size;
    return static_cast<size_t>(n);
}

void sample_hits(Digest& d, const std::string& label, const std::string& metric,
                 const analysis::SampleDiagnostics& s, const ReportSample& sample, double confidence) {
    if (s.first_run_differs)
        d.add(Kind::first_run, label,
              {metric, s.drift.first_run.relative_difference, s.drift.first_run.firsts > 1 ? "each boot" : ""});
    if (s.trending) d.add(Kind::drift, label, {metric, s.drift.trend.relative_drift, ""});
    if (s.trending_within_boots) d.add(Kind::drift_within_boots, label, {metric, s.within_boots.relative_drift, ""});
    if (s.shifted) d.add(Kind::level_change, label, {metric, s.drift.change_point.relative_shift, ""});
    if (s.bimodality.bimodal) d.add(Kind::bimodal, label, {metric, std::numeric_limits<double>::quiet_NaN(), ""});
    if (s.outliers.reported > 0 && !s.bimodality.bimodal)
        d.add(Kind::outliers, label, {metric, static_cast<double>(s.outliers.reported), ""});
    if (!sample.dropped.empty()) d.add(Kind::dropped, label, {metric, static_cast<double>(sample.dropped.size()), ""});
    if (s.boots && s.boots->defined && s.boots->f_p < 1 - confidence)
        d.add(Kind::boot_clusters, label, {metric, std::numeric_limits<double>::quiet_NaN(), ""});
}

void comparison_hits(Digest& d, const MetricReport& m, size_t k) {
    const analysis::TwoSampleComparison& c = m.comparisons[k];
    const analysis::Verdict& v = m.verdicts[k];
    const std::string metric = metric_title(m);
    const std::string cand = m.candidates[k].label;
    if (!v.unsteady.empty()) d.add(Kind::unsteady, "", {metric, 0, v.unsteady});
    if (v.settling && m.primary) d.add(Kind::settling, cand, {metric, 0, report::settling_advice_words(*v.settling)});
    const analysis::Clustering& b = c.clustering;
    if (c.fleet.by_machines) d.add(Kind::by_machines, "", {metric, 0, ""});
    else if (c.stored) {
        // One new boot against stored history: the verdict's own sentence
        // says when it was not judged.
        if (c.stored->not_judged.empty())
            d.add(Kind::by_boots, "", {metric, 0, fmt("%zu new against %zu stored boots", c.stored->test.candidate_boots,
                                                      c.stored->test.baseline_boots)});
    } else if (b.paired)
        d.add(Kind::paired_boots, "", {metric, static_cast<double>(b.boot_differences.size()), ""});
    else if (b.by_boots)
        d.add(Kind::by_boots, "",
              {metric, 0, fmt("%zu baseline and %zu candidate boots", b.baseline_boots, b.candidate_boots)});
    else if (!b.unknown_side.empty() && b.boots_matter)
        d.add(Kind::unknown_boots, "", {metric, 0, ""});
    else if (b.boots_matter) {
        const std::string single = b.baseline_means.size() < 2 && b.candidate_means.size() < 2
                                       ? "each variant was"
                                       : quoted(b.baseline_means.size() < 2 ? m.baseline.label : cand) + " was";
        d.add(Kind::single_boot, "", {metric, 0, single});
    }
    if (b.confounded && !c.stored) d.add(Kind::confounded, "", {metric, 0, ""});
    if (m.exact) {
        const std::string varies = exact_variation(c, m.baseline.label, cand);
        if (!varies.empty()) d.add(Kind::exact_varies, "", {metric, 0, varies});
    }
    const std::string odd = odd_machine_sentence(m, k);
    if (!odd.empty()) d.add(Kind::odd_machine, "", {metric, 0, odd});
}

std::string upper_first(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

// Where every hit of a kind carries the same words, those words once.
std::string shared_words(const std::vector<Hit>& hits) {
    for (const Hit& h : hits)
        if (h.words != hits[0].words) return "";
    return hits[0].words;
}

// `who`: the samples' names as written ("'a'", "'a' and 'b'"); `plural`
// when more than one.
std::string sentence(Kind kind, const std::string& who, bool plural, const std::vector<Hit>& hits,
                     const CompareReport& r) {
    const auto verb = [plural](const char* one, const char* many) { return std::string(plural ? many : one); };
    const size_t metrics = r.metrics.size();
    const std::string on = on_metrics(hits, metrics);
    const std::string the_verdicts = metrics > 1 ? "the verdicts" : "the verdict";
    const AdviceVocabulary& words = r.advice;
    const std::string sized = largest(hits);
    bool several = false;  // candidates
    for (const auto& m : r.metrics) several |= m.candidates.size() > 1;
    switch (kind) {
        case Kind::settling:
            // One sentence per metric: its own noise gives its own advice.
            return upper_first((metrics > 1 ? "on " + hits[0].metric + (several ? " (" + who + ")" : "") + ", "
                                            : std::string(several ? "for " + who + ", " : "")) +
                               hits[0].words) +
                   ".";
        case Kind::unsteady: {
            // "baseline drifts" when every hit says the same.
            const std::string what = shared_words(hits);
            return "Not called" + on + ", though the test saw a change: " +
                   (what.empty() ? std::string("a side drifts or changes level") : what) +
                   ", so the change may be the drift, not the variants. Run them interleaved (gfxstat ab).";
        }
        case Kind::ran_under:
            return hits[0].words + ".";  // starts with a label: as written
        case Kind::confounded:
            return "Each variant ran in a single boot of its own: a boot-to-boot difference would look like a "
                   "change. Repeat over several boots" + knob_words(words.more_boots) + ".";
        case Kind::single_boot: {
            const std::string single = shared_words(hits);
            return "Runs cluster by boot but " + (single.empty() ? std::string("a variant was") : single) +
                   " measured in one boot, so " + the_verdicts + on + " are over-confident: measure over more boots" +
                   knob_words(words.more_boots) + ".";
        }
        case Kind::unknown_boots:
            return "Runs cluster by boot but some carry no boot ids, so " + the_verdicts + on +
                   " treat runs as independent and are over-confident.";
        case Kind::by_machines:
            return upper_first(the_verdicts) + on + (metrics > 1 ? " compare" : " compares") +
                   " machines, not runs: more machines narrow " +
                   (metrics > 1 ? "them." : "it.");
        case Kind::by_boots: {
            const std::string n = shared_words(hits);
            return upper_first(the_verdicts) + on + (metrics > 1 ? " compare" : " compares") + " boot means" +
                   (n.empty() ? "" : " (" + n + ")") +
                   ": more boots" + knob_words(words.more_boots) + ", not more runs, narrow " +
                   (metrics > 1 ? "them." : "it.");
        }
        case Kind::paired_boots:
            return upper_first(the_verdicts) + on + (metrics > 1 ? " pair" : " pairs") +
                   fmt(" the variants boot by boot (%zu boots)", total({hits[0]})) +
                   ": more boots" + knob_words(words.more_boots) + ", not more runs, narrow " +
                   (metrics > 1 ? "them." : "it.");
        case Kind::odd_machine:
        case Kind::exact_varies:
            return (metrics > 1 ? hits[0].metric + ": " : std::string()) + hits[0].words;
        case Kind::first_run: {
            const bool boots = std::any_of(hits.begin(), hits.end(), [](const Hit& h) { return !h.words.empty(); });
            return "The first run " + std::string(boots ? "after each boot " : "") + "of " + who +
                   " differs from the rest" + on +
                   (sized.empty() ? "" : " (" + sized + ")") + ": a warm-up to leave out (" + words.warmup + ").";
        }
        case Kind::drift:
            return who + verb(" drifts over its runs", " drift over their runs") + on + (sized.empty() ? "" : " (" + sized + " first to last)") +
                   ": --full says what moved with it.";
        case Kind::drift_within_boots:
            return who + verb(" drifts", " drift") + " within each boot" + on + (sized.empty() ? "" : " (" + sized + ")") +
                   ": throttling building up? A cooldown between runs" + knob_words(words.cooldown) + " helps.";
        case Kind::level_change:
            return who + verb(" changes level within its runs", " change level within their runs") + on + (sized.empty() ? "" : " (" + sized + ")") +
                   ": --full says where and what moved with it.";
        case Kind::bimodal:
            return who + verb(" is", " are") + " bimodal" + on + verb(": its", ": their") +
                   " runs fall into two modes, which --full gives.";
        case Kind::outliers: {
            const size_t n = total(hits);
            return who + verb(" has", " have") + fmt(" %zu outlier%s", n, n == 1 ? "" : "s") + on +
                   fmt(", kept: --drop-outliers leaves %s out.", n == 1 ? "it" : "them");
        }
        case Kind::dropped: {
            const size_t n = total(hits);
            return fmt("--drop-outliers left out %zu value%s of ", n, n == 1 ? "" : "s") + who + on + ".";
        }
        case Kind::boot_clusters:
            return who + verb(" clusters", " cluster") + " by boot" + on + verb(": its", ": their") +
                   " runs are worth fewer independent ones.";
    }
    return "";
}

}  // namespace

std::vector<std::string> diagnostic_digest(const CompareReport& r) {
    Digest d;
    for (const findings::VolatileShift& s : r.context_shifts)
        d.add(Kind::ran_under, s.variant, {"", 0, report::volatile_shift_line(s)});
    for (const MetricReport& m : r.metrics)
        for (size_t k = 0; k < m.comparisons.size(); ++k) comparison_hits(d, m, k);
    for (const MetricReport& m : r.metrics) {
        if (m.comparisons.empty()) continue;
        const std::string metric = metric_title(m);
        if (m.comparisons[0].baseline_diagnostics)
            sample_hits(d, m.baseline.label, metric, *m.comparisons[0].baseline_diagnostics, m.baseline, r.confidence);
        for (size_t k = 0; k < m.comparisons.size(); ++k)
            if (m.comparisons[k].candidate_diagnostics)
                sample_hits(d, m.candidates[k].label, metric, *m.comparisons[k].candidate_diagnostics, m.candidates[k],
                            r.confidence);
    }
    // Per kind, the samples it fired for on the same metrics share a
    // sentence ("'a' and 'b' are bimodal").
    std::vector<std::string> out;
    for (int k = 0; k <= static_cast<int>(Kind::boot_clusters); ++k) {
        const Kind kind = static_cast<Kind>(k);
        struct Bucket {
            std::string metrics;
            std::vector<std::string> who;
            std::vector<Hit> hits;
        };
        std::vector<Bucket> buckets;
        for (const auto& key : d.order) {
            if (key.first != kind) continue;
            const std::vector<Hit>& hits = d.hits.at(key);
            // The kinds whose words are a metric's own: a sentence each.
            if (kind == Kind::settling || kind == Kind::ran_under || kind == Kind::odd_machine ||
                kind == Kind::exact_varies) {
                for (const Hit& h : hits) out.push_back(sentence(kind, quoted(key.second), false, {h}, r));
                continue;
            }
            std::string metrics;
            for (const Hit& h : hits) metrics += h.metric + '\n';
            auto b = std::find_if(buckets.begin(), buckets.end(), [&](const Bucket& x) { return x.metrics == metrics; });
            if (b == buckets.end()) b = buckets.insert(buckets.end(), Bucket{metrics, {}, {}});
            if (!key.second.empty()) b->who.push_back(quoted(key.second));
            b->hits.insert(b->hits.end(), hits.begin(), hits.end());
        }
        // Outliers of samples on different metrics: still one sentence.
        if (kind == Kind::outliers && buckets.size() > 1) {
            std::string t = "Outliers, kept (--drop-outliers leaves them out):";
            for (size_t i = 0; i < buckets.size(); ++i) {
                const Bucket& b = buckets[i];
                std::string who;
                for (size_t j = 0; j < b.who.size(); ++j)
                    who += (j == 0 ? "" : j + 1 == b.who.size() ? " and " : ", ") + b.who[j];
                const std::string on = on_metrics(b.hits, r.metrics.size());
                t += fmt("%s %zu of ", i ? ";" : "", total(b.hits)) + who + on;
            }
            out.push_back(t + ".");
            continue;
        }
        for (const Bucket& b : buckets) {
            std::string who;
            for (size_t i = 0; i < b.who.size(); ++i)
                who += (i == 0 ? "" : i + 1 == b.who.size() ? " and " : ", ") + b.who[i];
            // The metrics once, the sizes of every sample's hits.
            std::vector<Hit> hits = b.hits;
            out.push_back(sentence(kind, who, b.who.size() > 1, hits, r));
        }
    }
    return out;
}

}  // namespace gfxstat::cli
