// SPDX-License-Identifier: MIT
#include "report/diagnostic_words.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "findings/recorded_context.h"
#include "report/recorded_words.h"
#include "text/number_format.h"

namespace gfxstat::cli {

namespace {

using nlohmann::json;



json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

std::string bimodal_sentence(const std::string& who, const analysis::Bimodality& b, const std::string& unit,
                             const AdviceVocabulary& words) {
    const auto& k = b.modes;
    std::vector<std::string> parts;
    if (b.dip_significant) parts.push_back(fmt("dip test p = %.2g", b.dip.p));
    if (b.mixture.two_fitted && b.mixture_separated) {
        std::string mix = fmt("two normals fit better than one by %.0f in BIC, separated by Ashman's D = %.1f",
                              b.mixture.bic_one - b.mixture.bic_two, b.mixture.ashman_d);
        // The mixture spoke without the dip test: say what it beat.
        if (!b.dip_significant && std::isfinite(b.bic_ex_gaussian))
            mix += fmt(", and better than a normal with an exponential tail by %.0f",
                       b.bic_ex_gaussian - b.mixture.bic_two);
        parts.push_back(mix);
    } else {
        parts.push_back("no mixture of normals fits");
    }
    if (b.modes_from_split)
        parts.push_back(b.ties_spread ? "values repeat, so the modes are the two groups of the best split"
                                      : "the modes are the two groups of the best split");
    std::string evidence;
    for (size_t i = 0; i < parts.size(); ++i) evidence += (i ? "; " : "") + parts[i];
    return fmt("%s is bimodal (%s): modes at %s and %s (sd %.3g and %.3g) holding %.0f%%/%.0f%% of the values. "
               "A mean describes neither mode; when the mode changes between boots, more boots%s, not more runs%s, "
               "will tell.",
               who.c_str(), evidence.c_str(), with_unit(k[0].mean, "").c_str(), with_unit(k[1].mean, unit).c_str(),
               k[0].sd, k[1].sd, k[0].weight * 100, k[1].weight * 100, knob_words(words.more_boots).c_str(),
               knob_words(words.more_runs).c_str());
}

// Why a series over values moved, from what its runs recorded: what moved
// with it, or that nothing recorded did, or that nothing was recorded;
// then the remedy, which is the same whatever the cause: variants run
// interleaved meet the same changes.
std::string recorded_words(const RecordedSeries* recorded, size_t split, const char* span,
                           const AdviceVocabulary& words) {
    const std::string remedy = "Run the variants interleaved (`gfxstat ab`), so that whatever changes reaches both "
                               "alike.";
    if (!recorded)  // the caller has no records at hand (column files)
        return "Look for what changed during the series (another program, throttling, clocks). " + remedy;
    if (!recorded->known())
        return "The runs recorded no load average, temperatures or GPU clocks to tell what changed (another "
               "program, throttling, clocks). " + remedy;
    const std::string moved = recorded_change(*recorded, split);
    if (moved.empty())
        return "Nothing the runs recorded (" + recorded_fields(*recorded) + ") moved with it: look for what the "
               "probe does not see, such as another program's GPU use. " + remedy;
    std::string text = "What the runs recorded moved with it: " + moved + " " + span + ". " + remedy;
    if (moved.find("temperature") != std::string::npos || moved.find("clock") != std::string::npos ||
        moved.find("throttling") != std::string::npos)
        text += " A cooldown between runs" + knob_words(words.cooldown) + " or fixed GPU clocks help.";
    return text;
}

}  // namespace

std::vector<std::string> wrap_words(const std::string& text, size_t width, size_t first_indent, size_t indent) {
    std::vector<std::string> lines;
    std::string line(first_indent, ' ');
    bool empty = true;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t next = text.find(' ', pos);
        if (next == std::string::npos) next = text.size();
        const std::string word = text.substr(pos, next - pos);
        pos = next + 1;
        if (word.empty()) continue;
        if (!empty && line.size() + 1 + word.size() > width) {
            lines.push_back(line);
            line = std::string(indent, ' ');
            empty = true;
        }
        line += (empty ? "" : " ") + word;
        empty = false;
    }
    if (!empty) lines.push_back(line);
    return lines;
}

std::string fmt(const char* f, ...) {
    // Sized by a first pass: a label of any length is never cut.
    va_list ap, again;
    va_start(ap, f);
    va_copy(again, ap);
    const int n = std::vsnprintf(nullptr, 0, f, ap);
    va_end(ap);
    std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
    if (n > 0) std::vsnprintf(out.data(), out.size() + 1, f, again);
    va_end(again);
    return out;
}

std::string role_name(const std::string& role, const std::string& label) {
    return label == role ? role : role + " '" + label + "'";
}

std::string with_unit(double v, const std::string& unit) {
    return fmt("%.6g", v) + (unit.empty() ? "" : " " + unit);
}

size_t original_position(size_t index, const std::vector<std::pair<size_t, double>>* dropped) {
    if (!dropped) return index;
    // Each dropped position at or before the value's original place pushes
    // it one further; in increasing order, one pass finds it.
    size_t at = index;
    for (const auto& [position, value] : *dropped)
        if (position <= at) ++at;
    return at;
}

std::vector<std::string> sample_findings(const std::string& who, const analysis::SampleDiagnostics& d,
                                         const std::string& unit, double confidence, size_t max_listed,
                                         const std::vector<std::pair<size_t, double>>* dropped,
                                         const AdviceVocabulary& words, const RecordedSeries* recorded) {
    std::vector<std::string> out;
    if (d.bimodality.bimodal) out.push_back(bimodal_sentence(who, d.bimodality, unit, words));
    if (d.trending) {
        const analysis::Trend& t = d.drift.trend;
        const size_t count = d.drift_over_boots ? d.boots->boots : d.n;
        const std::string what = std::string(d.drift_over_boots ? "boot means" : "values") +
                                 (d.machines >= 2 ? fmt(", each less its machine's mean (%zu machines)", d.machines) : "");
        // Over values: half the series against the other half, in the
        // original run order. Over boots: the boots' own records differ
        // anyway (kernel, firmware), so the advice stays general.
        const size_t total = d.n + (dropped ? dropped->size() : 0);
        const std::string why = d.drift_over_boots
                                    ? "Look for what changed from boot to boot (kernel, firmware, clocks, "
                                      "temperature); a cooldown between runs" + knob_words(words.cooldown) +
                                          " or fixed GPU clocks help."
                                    : recorded_words(recorded, total / 2, "from the first half of the runs to the "
                                                                          "second", words);
        out.push_back(fmt("%s drifts %s over its %zu %s: %s from first to last (slope %.3g%s per %s, %s CI "
                          "%.3g to %.3g; Spearman rho = %.2f, p = %.2g). %s",
                          who.c_str(), t.slope > 0 ? "upward" : "downward", count, what.c_str(),
                          std::isnan(t.relative_drift) ? fmt("%+.3g", t.slope * (count - 1)).c_str()
                                                       : text::signed_percent(t.relative_drift, 2).c_str(),
                          t.slope, unit.empty() ? "" : (" " + unit).c_str(), d.drift_over_boots ? "boot" : "value",
                          text::percent_g(confidence).c_str(),
                          t.slope_ci_low, t.slope_ci_high, t.spearman_rho, t.spearman_p, why.c_str()));
    }
    if (d.trending_within_boots) {
        const analysis::WithinBootTrend& w = d.within_boots;
        out.push_back(fmt("%s drifts %s within each boot: %s over a boot's runs (slope %.3g%s per run, %s CI %.3g to "
                          "%.3g, p = %.2g). Look for thermal or power throttling building up; a cooldown between "
                          "runs%s helps.",
                          who.c_str(), w.slope > 0 ? "upward" : "downward",
                          std::isnan(w.relative_drift) ? "a drift" : text::signed_percent(w.relative_drift, 2).c_str(), w.slope,
                          unit.empty() ? "" : (" " + unit).c_str(), text::percent_g(confidence).c_str(), w.slope_ci_low,
                          w.slope_ci_high, w.p, knob_words(words.cooldown).c_str()));
    }
    if (d.shifted) {
        const analysis::ChangePoint& c = d.drift.change_point;
        const std::string why =
            d.drift_over_boots
                ? "Something changed during the series (clocks, background load, the kernel or firmware)."
                : recorded_words(recorded, original_position(c.index, dropped), "from before the change to after it",
                                 words);
        out.push_back(fmt("%s changes level at %s %zu of %zu: median %s before, %s after (%s; Pettitt p = %.2g). %s",
                          who.c_str(), d.drift_over_boots ? "boot" : "value",
                          // Values in the original run order, dropped ones included.
                          d.drift_over_boots ? c.index + 1 : original_position(c.index, dropped) + 1,
                          d.drift_over_boots ? d.boots->boots : d.n + (dropped ? dropped->size() : 0),
                          with_unit(c.median_before, "").c_str(),
                          with_unit(c.median_after, unit).c_str(),
                          std::isnan(c.relative_shift) ? "from 0" : text::signed_percent(c.relative_shift, 2).c_str(), c.p,
                          why.c_str()));
    }
    if (d.first_run_differs) {
        const analysis::FirstRunEffect& f = d.drift.first_run;
        const bool several = f.firsts > 1;
        out.push_back(fmt("%s %s differs from the rest by %s (mean %s against %s, p = %.2g): leave %s out as a "
                          "warm-up (%s).",
                          several ? "The first value after each boot of" : "The first value of", who.c_str(),
                          std::isnan(f.relative_difference) ? fmt("%+.3g", f.difference).c_str()
                                                            : text::signed_percent(f.relative_difference, 2).c_str(),
                          with_unit(f.mean_firsts, "").c_str(), with_unit(f.mean_others, unit).c_str(), f.p,
                          several ? "them" : "it", words.warmup.c_str()));
    }
    const analysis::OutlierReport& o = d.outliers;
    // A bimodal sample's second mode is not a set of outliers: the
    // bimodality sentence speaks for it (JSON still lists the flags), and
    // --drop-outliers drops nothing there either.
    if (o.reported > 0 && !d.bimodality.bimodal) {
        std::string list;
        size_t listed = 0;
        for (const auto& x : o.outliers) {
            if (!x.reported) continue;
            if (listed == max_listed) {
                list += fmt(", and %zu more", o.reported - listed);
                break;
            }
            list += (listed ? ", " : "") + with_unit(x.value, unit) +
                    fmt(" (value %zu, z = %.2g)", original_position(x.index, dropped) + 1, x.modified_z);
            ++listed;
        }
        const bool after_drop = dropped && !dropped->empty();
        const std::string rule = fmt("more than %.3g robust standard deviations (MAD/0.6745) from the median, a "
                                     "cutoff that clean samples of %zu values cross at most 5%% of the time",
                                     o.cutoff, o.n);
        if (after_drop)
            out.push_back(fmt("After --drop-outliers left out %zu value%s, %s still has %zu outlier%s among the "
                              "%zu left (%s): %s, numbered in the original run order. They are kept: "
                              "--drop-outliers drops once, and what is left is a new sample with a new median "
                              "and MAD.",
                              dropped->size(), dropped->size() == 1 ? "" : "s", who.c_str(), o.reported,
                              o.reported == 1 ? "" : "s", o.n, rule.c_str(), list.c_str()));
        else
            out.push_back(fmt("%s has %zu outlier%s (%s): %s. They are kept; --drop-outliers leaves %s out and "
                              "says so.",
                              who.c_str(), o.reported, o.reported == 1 ? "" : "s", rule.c_str(), list.c_str(),
                              o.reported == 1 ? "it" : "them"));
    }
    if (d.boots && d.boots->defined && d.boots->f_p < 1 - confidence) {
        const analysis::BootVariance& b = *d.boots;
        if (d.machines >= 2)
            // Judged within machines: the machines' own share is in the
            // fleet's variance line.
            out.push_back(fmt("%s clusters by boot within its %zu machines: %.0f%% of its variance within machines "
                              "lies between its %zu boots (intraclass correlation %.2f, F test p = %.2g).",
                              who.c_str(), d.machines, b.icc * 100, b.boots, b.icc, b.f_p));
        else
            out.push_back(fmt("%s clusters by boot: %.0f%% of its variance lies between its %zu boots (intraclass "
                              "correlation %.2f, F test p = %.2g), so its %zu values are worth about %.1f "
                              "independent ones (design effect %.2g).",
                              who.c_str(), b.icc * 100, b.boots, b.icc, b.f_p, b.n, b.effective_n, b.design_effect));
    }
    return out;
}

std::vector<std::string> comparison_findings(const std::string& baseline, const std::string& candidate,
                                             const analysis::TwoSampleComparison& c, const std::string& unit,
                                             double confidence, const AdviceVocabulary& words) {
    (void)confidence;
    const std::string boots = knob_words(words.more_boots), runs = knob_words(words.more_runs);
    std::vector<std::string> out;
    const auto weights = [&](const std::string& bimodal_one, const analysis::Bimodality& b, const std::string& other,
                             const std::array<double, 2>& w) {
        const auto& k = b.modes;
        out.push_back(fmt("The values of %s fall %.0f%%/%.0f%% into the modes of %s at %s and %s (which hold "
                          "%.0f%%/%.0f%% of its own).",
                          other.c_str(), w[0] * 100, w[1] * 100, bimodal_one.c_str(), with_unit(k[0].mean, "").c_str(),
                          with_unit(k[1].mean, unit).c_str(), k[0].weight * 100, k[1].weight * 100));
    };
    if (c.candidate_in_baseline_modes)
        weights(baseline, c.baseline_diagnostics->bimodality, candidate, *c.candidate_in_baseline_modes);
    if (c.baseline_in_candidate_modes)
        weights(candidate, c.candidate_diagnostics->bimodality, baseline, *c.baseline_in_candidate_modes);
    const analysis::Clustering& k = c.clustering;
    if (c.fleet.by_machines)
        out.push_back(fmt("The verdict %s, not runs or boots: runs of one machine share its level for as long as "
                          "it lives. More machines, not more runs or boots on these, will narrow the answer.",
                          c.fleet.paired
                              ? fmt("pairs the variants machine by machine (%zu machines ran both)",
                                    c.fleet.machine_differences.size()).c_str()
                              : fmt("compares machine means (%zu baseline and %zu candidate machines)",
                                    c.fleet.baseline_means.size(), c.fleet.candidate_means.size()).c_str()));
    else if (c.stored && c.stored->not_judged.empty())
        out.push_back(fmt("The verdict judges the candidate's %zu boot%s against the spread of the baseline's %zu "
                          "boot means, not runs: runs within a boot are alike, and a new boot's level is one more "
                          "draw from the boots' spread. More stored boots%s, not more runs, will narrow the answer.",
                          c.stored->test.candidate_boots, c.stored->test.candidate_boots == 1 ? "" : "s",
                          c.stored->test.baseline_boots, boots.c_str()));
    else if (c.stored) {
        // Not judged: the verdict's reason says why.
    } else if (k.paired)
        out.push_back(fmt("The verdict pairs the variants boot by boot (%zu boots ran both), not run by run: runs "
                          "within a boot are alike, and each boot's own level cancels in its difference. More "
                          "boots%s, not more runs%s, will narrow the answer.",
                          k.boot_differences.size(), boots.c_str(), runs.c_str()));
    else if (k.by_boots)
        out.push_back(fmt("The verdict compares boot means (%zu baseline and %zu candidate boots), not runs: runs "
                          "within a boot are alike. More boots%s, not more runs%s, will narrow the answer.",
                          k.baseline_boots, k.candidate_boots, boots.c_str(), runs.c_str()));
    else if (!k.unknown_side.empty() && k.boots_matter)
        out.push_back(fmt("The %s's runs cluster by boot, but %s runs carry no boot ids, so boots cannot be the "
                          "unit: the verdict treats runs as independent and is over-confident.",
                          k.unknown_side == "baseline" ? "candidate" : "baseline",
                          k.unknown_side == "baseline" ? "some of the baseline's" : "some of the candidate's"));
    else if (k.boots_matter) {
        const std::string single = k.baseline_means.size() < 2 && k.candidate_means.size() < 2
                                       ? "each variant was"
                                       : (k.baseline_means.size() < 2 ? baseline : candidate) + " was";
        out.push_back(fmt("Runs cluster by boot, but %s measured in a single boot, so boot means cannot be "
                          "compared and the verdict treats runs as independent: it is over-confident. Measure "
                          "over more boots%s.",
                          single.c_str(), boots.c_str()));
    }
    if (k.confounded && !c.stored)
        out.push_back(fmt("Each variant was measured in a single boot of its own: boot and variant are confounded, "
                          "and a boot-to-boot difference would look like a change. Repeat over several boots%s.",
                          boots.c_str()));
    return out;
}

nlohmann::json diagnostics_json(const analysis::SampleDiagnostics& d, size_t max_listed,
                                const std::vector<std::pair<size_t, double>>* dropped) {
    json j;
    const analysis::Bimodality& b = d.bimodality;
    json modes = nullptr;
    if (b.bimodal) {
        modes = json::array();
        for (const auto& k : b.modes)
            modes.push_back({{"weight", num(k.weight)}, {"mean", num(k.mean)}, {"sd", num(k.sd)}});
    }
    json mixture = nullptr;
    if (b.judged)
        mixture = {{"bic_one", num(b.mixture.bic_one)},
                   {"bic_two", b.mixture.two_fitted ? num(b.mixture.bic_two) : json(nullptr)},
                   {"ashman_d", b.mixture.two_fitted ? num(b.mixture.ashman_d) : json(nullptr)},
                   {"separated", b.mixture_separated},
                   {"bic_lognormal", num(b.bic_lognormal)},
                   {"bic_ex_gaussian", num(b.bic_ex_gaussian)}};
    j["bimodality"] = {{"judged", b.judged},
                       {"dip", num(b.dip.dip)},
                       {"dip_p", num(b.dip.p)},
                       {"coefficient", num(b.coefficient)},
                       {"ties_spread", b.ties_spread},
                       {"mixture", mixture},
                       {"bimodal", b.bimodal},
                       {"modes", modes},
                       {"modes_from", b.bimodal ? json(b.modes_from_split ? "split" : "mixture") : json(nullptr)}};
    const analysis::Trend& t = d.drift.trend;
    const analysis::ChangePoint& c = d.drift.change_point;
    const analysis::FirstRunEffect& f = d.drift.first_run;
    j["drift"] = {
        {"unit", d.drift_over_boots ? "boots" : "values"},
        {"trend", t.defined ? json{{"slope", num(t.slope)},
                                   {"slope_ci", {num(t.slope_ci_low), num(t.slope_ci_high)}},
                                   {"slope_p", num(t.slope_p)},
                                   {"relative_drift", num(t.relative_drift)},
                                   {"spearman_rho", num(t.spearman_rho)},
                                   {"spearman_p", num(t.spearman_p)},
                                   {"kendall_tau", num(t.kendall_tau)},
                                   {"kendall_p", num(t.kendall_p)},
                                   {"flagged", d.trending}}
                            : json(nullptr)},
        {"change_point", c.defined ? json{{"index", d.drift_over_boots ? c.index : original_position(c.index, dropped)},
                                          {"p", num(c.p)},
                                          {"mean_before", num(c.mean_before)},
                                          {"mean_after", num(c.mean_after)},
                                          {"median_before", num(c.median_before)},
                                          {"median_after", num(c.median_after)},
                                          {"relative_shift", num(c.relative_shift)},
                                          {"flagged", d.shifted}}
                                   : json(nullptr)},
        {"within_boots", d.within_boots.defined ? json{{"slope", num(d.within_boots.slope)},
                                                       {"slope_ci", {num(d.within_boots.slope_ci_low),
                                                                     num(d.within_boots.slope_ci_high)}},
                                                       {"p", num(d.within_boots.p)},
                                                       {"relative_drift", num(d.within_boots.relative_drift)},
                                                       {"flagged", d.trending_within_boots}}
                                                : json(nullptr)},
        {"first_run", f.defined ? json{{"firsts", f.firsts},
                                       {"mean_firsts", num(f.mean_firsts)},
                                       {"mean_others", num(f.mean_others)},
                                       {"difference", num(f.difference)},
                                       {"relative_difference", num(f.relative_difference)},
                                       {"p", num(f.p)},
                                       {"flagged", d.first_run_differs}}
                                : json(nullptr)}};
    const analysis::OutlierReport& o = d.outliers;
    json listed = json::array();
    for (size_t i = 0; i < o.outliers.size() && i < max_listed; ++i) {
        const auto& x = o.outliers[i];
        listed.push_back({{"index", original_position(x.index, dropped)},
                          {"value", num(x.value)},
                          {"modified_z", num(x.modified_z)},
                          {"modified_z_flag", x.modified_z_flag},
                          {"tukey_flag", x.tukey_flag},
                          {"far_out", x.far_out},
                          {"reported", x.reported}});
    }
    j["outliers"] = {{"count", o.outliers.size()},
                     {"by_modified_z", o.by_modified_z},
                     {"by_tukey", o.by_tukey},
                     {"far_out", o.far_out},
                     // What the outlier sentence and --drop-outliers use.
                     {"reported", o.reported},
                     {"cutoff", num(o.cutoff)},
                     {"median", num(o.median)},
                     {"mad", num(o.mad)},
                     {"fences", {num(o.lower_fence), num(o.upper_fence)}},
                     {"far_fences", {num(o.lower_far), num(o.upper_far)}},
                     {"listed", std::move(listed)}};
    if (d.boots) {
        const analysis::BootVariance& v = *d.boots;
        j["boots"] = {{"boots", v.boots},
                      {"icc", v.defined ? num(v.icc) : json(nullptr)},
                      {"design_effect", v.defined ? num(v.design_effect) : json(nullptr)},
                      {"effective_n", v.defined ? num(v.effective_n) : json(nullptr)},
                      {"f_p", v.defined ? num(v.f_p) : json(nullptr)},
                      // 2+: judged within that many machines (values less their machine's mean)
                      {"within_machines", d.machines >= 2 ? json(d.machines) : json(nullptr)}};
    } else {
        j["boots"] = nullptr;
    }
    return j;
}

nlohmann::json clustering_json(const analysis::TwoSampleComparison& c) {
    const analysis::Clustering& k = c.clustering;
    const auto side = [&](const std::optional<analysis::SampleDiagnostics>& d) -> json {
        if (!k.known || !d || !d->boots) return nullptr;
        const analysis::BootVariance& v = *d->boots;
        return {{"boots", v.boots},
                {"icc", v.defined ? num(v.icc) : json(nullptr)},
                {"design_effect", v.defined ? num(v.design_effect) : json(nullptr)},
                {"effective_n", v.defined ? num(v.effective_n) : json(nullptr)},
                {"sigma2_between", v.defined ? num(v.sigma2_between) : json(nullptr)},
                {"sigma2_within", v.defined ? num(v.sigma2_within) : json(nullptr)},
                {"f_p", v.defined ? num(v.f_p) : json(nullptr)}};
    };
    json j = {{"known", k.known},
              {"unknown_side", k.unknown_side.empty() ? json(nullptr) : json(k.unknown_side)},
              {"baseline", side(c.baseline_diagnostics)},
              {"candidate", side(c.candidate_diagnostics)},
              {"shared_boots", k.shared_boots},
              {"boots_matter", k.boots_matter},
              {"confounded", k.confounded},
              {"unit", c.fleet.by_machines ? "machines" : k.by_boots ? "boots" : "runs"}};
    j["paired"] = k.paired;
    if (k.by_boots) {
        const analysis::TTest& t = k.boot_means_test;
        j["boot_means_test"] = means_test_json(t, k.paired);
        j["boot_means_equivalence"] = means_equivalence_json(k.boot_means_equivalence, t);
        if (k.paired) {
            json d = json::array();
            for (double x : k.boot_differences) d.push_back(num(x));
            j["boot_differences"] = std::move(d);
        }
    }
    return j;
}

nlohmann::json means_test_json(const analysis::TTest& t, bool paired) {
    return {{"test", paired ? "paired" : "welch"},
            {"t", num(t.t)},
            {"df", num(t.df)},
            {"p", t.defined ? num(t.p) : json(nullptr)},
            {"ci", t.defined ? json{num(t.ci[0]), num(t.ci[1])} : json(nullptr)},
            {"difference", num(t.difference)},
            {"defined", t.defined}};
}

nlohmann::json means_equivalence_json(const analysis::Equivalence& e, const analysis::TTest& t) {
    return {{"margin", num(e.margin)},
            {"p", t.defined ? num(e.p) : json(nullptr)},
            {"ci", t.defined ? json{num(e.ci[0]), num(e.ci[1])} : json(nullptr)},
            {"equivalent", t.defined && e.equivalent}};
}

}  // namespace gfxstat::cli
