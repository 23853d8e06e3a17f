// SPDX-License-Identifier: MIT
// gfxstat report's page, built from what compare found: per metric the
// distributions, the runs in order and the boot means, beside compare's
// own text report; a suite's forest plot; the environment differences and
// each file as `gfxstat show` describes it.
#include "report/report_page.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "data/gfxstat_version.h"
#include "data/results_overview.h"
#include "data/volatile_facts.h"
#include "data/results_writer.h"
#include "plot/charts.h"
#include "report/ci/ci_exports.h"
#include "report/compare_renderers.h"
#include "report/image_check_section.h"
#include "report/image_check_words.h"
#include "report/plot_inputs.h"
#include "report/suite_table.h"
#include "report/show_text.h"
#include "report/volatile_words.h"
#include "text/text_width.h"

namespace gfxstat::report {

using cli::CompareReport;
using cli::MetricReport;

namespace {

// A page of hundreds of charts helps nobody and takes long to open: the
// first metrics are drawn, and the page says how to draw others.
constexpr size_t kMaxDrawnMetrics = 40;

std::string percent(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g%%", v * 100);
    return buf;
}

// The report's settings without its metrics, copied once: a suite's report
// may hold thousands of metrics, and each drawn metric's text needs a report
// of its own.
CompareReport settings_of(const CompareReport& r) {
    CompareReport s = r;
    s.metrics.clear();
    s.metrics.shrink_to_fit();
    return s;
}

// compare's text report of one metric alone: the report with only it (its
// p-values stay adjusted with the family's others).
std::string metric_text(const CompareReport& settings, const MetricReport& m) {
    CompareReport one = settings;
    one.metrics = {m};
    one.geomeans.clear();
    one.geomean_notes.clear();
    one.paired.clear();
    one.paired_by_benchmark = false;
    return cli::render_to_string(cli::render_text, one);
}

// The environment fields whose values differ between the variants compared,
// as `gfxstat show` finds them within one file (data/results_overview.h);
// across files (one variant each) the same comparison over each file's
// runs. Rows: field, then each variant's values ("(not recorded)" for none).
HtmlTable environment_differences(const findings::CompareFindings& o, std::vector<std::string>& labels) {
    // field -> variant label -> value -> runs
    std::map<std::string, std::map<std::string, std::map<std::string, size_t>>> fields;
    const MetricReport& first = o.report.metrics.front();
    labels = {first.baseline.label};
    for (const auto& c : first.candidates) labels.push_back(c.label);
    if (o.files.size() == 1) {
        for (const data::EnvironmentField& e : data::overview(o.files[0]).environment)
            if (e.differs_between_variants)
                for (const auto& [variant, values] : e.values)
                    if (std::find(labels.begin(), labels.end(), variant) != labels.end())
                        fields[e.field][variant] = values;
    } else if (o.files.size() == labels.size()) {
        std::set<std::string> names;
        for (const auto& f : o.files)
            for (const auto& env : f.environments()) {
                for (const auto& [k, v] : env.fields)
                    if (!data::is_volatile_field(k)) names.insert(k);  // context, below
                for (const auto& [k, v] : env.tags) names.insert("tag:" + k);
            }
        for (size_t i = 0; i < o.files.size(); ++i)
            for (const data::RunRecord& run : o.files[i].runs()) {
                if (run.warmup) continue;
                const data::Environment* env = run.environment.empty() ? nullptr : o.files[i].find_environment(run.environment);
                for (const std::string& name : names) {
                    std::string value;
                    if (env) {
                        const bool tag = name.rfind("tag:", 0) == 0;
                        const auto& map = tag ? env->tags : env->fields;
                        const auto it = map.find(tag ? name.substr(4) : name);
                        if (it != map.end()) value = it->second;
                    }
                    ++fields[name][labels[i]][value];
                }
            }
        // Only the fields whose set of values differs between variants.
        for (auto it = fields.begin(); it != fields.end();) {
            std::set<std::set<std::string>> sets;
            for (const std::string& l : labels) {
                std::set<std::string> vals;
                for (const auto& [v, n] : it->second[l]) vals.insert(v);
                sets.insert(vals);
            }
            it = sets.size() > 1 ? std::next(it) : fields.erase(it);
        }
    }
    HtmlTable t;
    t.head = {"field"};
    for (const auto& l : labels) t.head.push_back(l);
    for (const auto& [field, by_variant] : fields) {
        std::vector<std::string> row = {field};
        for (const std::string& l : labels) {
            std::string cell;
            const auto it = by_variant.find(l);
            if (it != by_variant.end())
                for (const auto& [value, n] : it->second)
                    cell += (cell.empty() ? "" : ", ") + (value.empty() ? std::string("(not recorded)") : value) +
                            (it->second.size() > 1 ? " (" + std::to_string(n) + (n == 1 ? " run)" : " runs)") : "");
            row.push_back(cell.empty() ? "-" : cell);
        }
        t.rows.push_back(std::move(row));
    }
    return t;
}

// What the charts' captions say of the variants whose runs they draw as
// bins (plot::kMaxRunMarks), said beneath them too: " Past 2000 runs a
// variant the runs are drawn as bins, not one mark each: a (50000 runs),
// b (50000 runs)."; "" when every run is drawn.
std::string bins_sentence(const plot::MetricPlot& p) {
    std::string binned;
    for (const plot::VariantPlot& v : p.variants) {
        size_t n = 0;
        if (plot::runs_drawn_as_bins(v, &n))
            binned += (binned.empty() ? "" : ", ") + v.label + " (" + std::to_string(n) + " runs)";
    }
    return plot::bins_sentence("a variant", binned);
}

HtmlSection metric_section(const findings::CompareFindings& o, const CompareReport& settings, const MetricReport& m,
                                   size_t index) {
    const CompareReport& r = o.report;
    HtmlSection s;
    s.id = "metric-" + std::to_string(index + 1);
    // The unit the charts below and compare's text show (not always the recorded one).
    s.title = cli::metric_heading(m);
    for (size_t k = 0; k < m.candidates.size(); ++k)
        if (std::string c = cli::verdict_caption(r, m, k); !c.empty()) s.paragraphs.push_back(c);
    if (!m.primary && !m.secondary_why.empty())
        s.paragraphs.push_back("A secondary metric (" + m.secondary_why + "): reported, never gating.");
    const plot::MetricPlot p = cli::metric_plot(r, m, o.files);
    const std::string conf = percent(r.confidence);
    const std::string bins = bins_sentence(p);
    s.figures.push_back({plot::distributions_svg(p), "The values of each variant as histograms, each median with its " +
                                                         conf + " distribution-free interval." + bins});
    s.figures.push_back({plot::run_order_svg(p),
                         "The values in the order they ran, coloured by boot; warm-ups, invalid runs and dropped "
                         "outliers marked: they are not in the analysis." + bins});
    bool boots = false;
    for (const auto& v : p.variants) boots |= !v.boots.empty();
    if (boots)
        s.figures.push_back({plot::boot_means_svg(p), "The mean of each boot with its " + conf + " t interval."});
    if (!m.comparisons.empty()) s.blocks.push_back({"gfxstat compare's report", metric_text(settings, m), true});
    return s;
}

}  // namespace

HtmlPage report_page(const findings::CompareFindings& o, bool table, const std::string& title,
                     const std::vector<std::optional<findings::ShowOverview>>& shows,
                     const findings::ImageCheckPictures* images) {
    const CompareReport& r = o.report;
    HtmlPage page;
    const MetricReport& first = r.metrics.front();
    std::string against;
    for (const auto& c : first.candidates) against += (against.empty() ? "" : ", ") + c.label;
    page.title = title.empty() ? against + " against " + first.baseline.label : title;
    std::string inputs;
    for (const auto& n : o.names) inputs += (inputs.empty() ? "" : ", ") + n;
    page.subtitle.push_back("From " + inputs + ".");
    page.subtitle.push_back("Confidence " + percent(r.confidence) + ", threshold " + percent(r.threshold) + ", " +
                            std::to_string(r.metrics.size()) + (r.metrics.size() == 1 ? " metric." : " metrics."));

    // The verdicts at a glance.
    HtmlSection summary;
    summary.id = "summary";
    summary.title = "Verdicts";
    HtmlTable t;
    t.head = {"metric", "candidate", "change", "verdict"};
    for (const auto& m : r.metrics)
        for (size_t k = 0; k < m.comparisons.size() && k < m.verdicts.size(); ++k) {
            const std::string caption = cli::verdict_caption(r, m, k);
            const std::string verdict = verdict_outcome_words(m, k);  // "renders differently" where images overrule
            // The caption is "LABEL: VERDICT, CHANGE": the change alone here.
            const std::string lead = m.candidates[k].label + ": " + verdict + ", ";
            t.rows.push_back({cli::metric_title(m) + (m.primary ? "" : " (secondary)"), m.candidates[k].label,
                              caption.rfind(lead, 0) == 0 ? caption.substr(lead.size()) : caption, verdict});
            t.verdicts.push_back(analysis::outcome_name(m.verdicts[k].outcome));
        }
    for (const auto& g : r.geomeans) {
        char ratio[64];
        std::snprintf(ratio, sizeof ratio, "%.4g", g.geomean.ratio);
        summary.paragraphs.push_back("Geomean of " + g.candidate + " over " + std::to_string(g.metrics.size()) +
                                     " metrics: " + ratio + " (each ratio turned so that above 1 is better).");
    }
    if (!t.rows.empty()) summary.tables.push_back(std::move(t));
    for (const auto& note : r.geomean_notes) summary.paragraphs.push_back(note);
    for (const auto& note : r.selection_notes) summary.paragraphs.push_back(note);
    page.sections.push_back(std::move(summary));
    // Whether the candidates render what the baseline renders, beside the verdicts.
    if (images) page.sections.push_back(image_check_section(*images));

    // A suite: its changes as a forest, and compare's table.
    if (r.metrics.size() > 1 || table) {
        HtmlSection suite;
        suite.id = "suite";
        suite.title = "The suite";
        if (const auto f = cli::forest_plot(r))
            suite.figures.push_back({plot::forest_svg(*f, cli::forest_options(*f)), "Each benchmark's change with the " + percent(r.confidence) +
                                                               " interval of its primary test; the band is the " +
                                                               percent(r.threshold) + " threshold."});
        if (table)
            suite.blocks.push_back(
                {"gfxstat compare's suite table", cli::render_to_string(cli::render_suite_text, r), true});
        if (!suite.figures.empty() || !suite.blocks.empty()) page.sections.push_back(std::move(suite));
    }

    const CompareReport settings = settings_of(r);
    for (size_t i = 0; i < r.metrics.size() && i < kMaxDrawnMetrics; ++i)
        page.sections.push_back(metric_section(o, settings, r.metrics[i], i));
    if (r.metrics.size() > kMaxDrawnMetrics) {
        HtmlSection more;
        more.title = "Metrics not drawn";
        more.paragraphs.push_back("The page draws the first " + std::to_string(kMaxDrawnMetrics) + " of " +
                                  std::to_string(r.metrics.size()) +
                                  " metrics; name the others with --metric (or --filter) for a page of their own.");
        page.sections.push_back(std::move(more));
    }

    if (!o.files.empty()) {
        HtmlSection env;
        env.id = "environment";
        env.title = "Environment";
        std::vector<std::string> labels;
        HtmlTable diff = environment_differences(o, labels);
        if (diff.rows.empty() && !o.context.shifts.empty())
            env.paragraphs.push_back("No recorded configuration differs between the variants compared, but what "
                                     "the machine was doing while they ran did:");
        else if (diff.rows.empty())
            env.paragraphs.push_back("No recorded environment field differs between the variants compared.");
        else {
            env.paragraphs.push_back("What differed between the variants' machines, besides the builds compared:");
            env.tables.push_back(std::move(diff));
        }
        // Facts of the moment: a finding when a candidate met
        // systematically different ones, else their ranges as context.
        for (const auto& shift : o.context.shifts) env.paragraphs.push_back(volatile_shift_line(shift) + ".");
        if (!o.context.facts.empty()) {
            std::string ranges = "What the runs met (facts of the moment, not differences): ";
            for (size_t i = 0; i < o.context.facts.size(); ++i)
                ranges += (i ? "; " : "") + volatile_context_line(o.context.facts[i]);
            env.paragraphs.push_back(ranges + ".");
        }
        for (size_t i = 0; i < o.files.size() && i < o.names.size() && i < shows.size(); ++i) {
            if (!shows[i]) continue;  // a file show refuses (no runs): nothing to show
            char* buf = nullptr;
            size_t size = 0;
            FILE* f = open_memstream(&buf, &size);
            if (!f) continue;
            print_show_text(f, text::kDefaultWidth, o.names[i], o.files[i], *shows[i]);
            std::fclose(f);
            env.blocks.push_back({"gfxstat show " + o.names[i], std::string(buf, size), false});
            std::free(buf);
        }
        page.sections.push_back(std::move(env));
    }
    page.footer = std::string("Made by gfxstat ") + data::gfxstat_version() + " on " + data::utc_now_rfc3339() +
                  ". Nothing on this page is fetched or run: it is one file.";
    return page;
}

}  // namespace gfxstat::report
