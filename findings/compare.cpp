// SPDX-License-Identifier: MIT
// compare's pipeline (findings/compare.h): the samples chosen from the
// inputs, the analysis, and the same analysis without throttled runs.
#include "findings/compare.h"

#include <algorithm>

#include "data/input_error.h"
#include "data/throttled_runs.h"
#include "drivers/campaign_simulation.h"
#include "findings/compare_images.h"
#include "findings/compare_inputs.h"
#include "findings/compare_suite.h"
#include "findings/comparison_analysis.h"
#include "findings/sample_intervals.h"
#include "findings/throttled_view.h"
#include "text/text_escape.h"

namespace gfxstat::findings {

using cli::CompareReport;
using cli::MetricReport;
using cli::ReportSample;

namespace {

// The report before any metric: the settings it is analysed under.
CompareReport settings_report(const CompareOptions& o) {
    CompareReport report;
    report.confidence = o.confidence;
    report.threshold = o.threshold_pct / 100;
    report.width = o.width;
    report.resamples = o.resamples;
    report.seed = o.seed;
    report.drop_outliers = o.drop_outliers;
    report.keep_run_order = o.keep_run_order;
    report.allow_image_change = o.allow_image_change;
    report.advice = o.advice;
    report.adjustment = o.fdr ? "benjamini-hochberg" : "holm";
    return report;
}

// Column files: one metric without a name, the first file the baseline.
MetricReport column_metric(const CompareInputs& in, std::vector<data::Sample>& columns, bool exact) {
    if (columns.size() < 2) throw data::InputError("give a baseline and at least one candidate");
    MetricReport r;
    r.unit = "";
    r.exact = exact;
    for (size_t i = 0; i < columns.size(); ++i) {
        ReportSample s;
        s.label = in.inputs[i].label.empty() ? in.inputs[i].name : in.inputs[i].label;
        s.sample = std::move(columns[i]);
        if (i == 0) r.baseline = std::move(s);
        else r.candidates.push_back(std::move(s));
    }
    return r;
}

// Directions, roles, a blocked design's confidence and threshold, then the
// statistics: as pairs for a suite measured once a side, else metric by
// metric with the geomeans.
void analyse(CompareReport& r, const CompareOptions& o) {
    if (o.lower || o.higher)
        for (auto& m : r.metrics) m.better = o.lower ? analysis::Better::lower : analysis::Better::higher;
    cli::assign_roles(r.metrics, !o.choices.metrics.empty());
    r.suite = o.layout;
    r.suite.table = o.table;
    // A blocked design's confidence and threshold, unless the user gave
    // them (its interval is valid at any threshold).
    for (const auto& m : r.metrics) {
        const auto it = std::find_if(m.designs.begin(), m.designs.end(),
                                     [](const std::optional<cli::DesignUse>& u) { return u.has_value(); });
        if (it == m.designs.end()) continue;
        if (!o.confidence_given) r.confidence = (*it)->design.confidence;
        if (!o.threshold_given) r.threshold = (*it)->design.threshold;
        break;
    }
    if (cli::wants_paired_suite(r)) {
        cli::analyse_paired_suite(r, o.fdr);  // the benchmarks are the pairs
    } else {
        // A suite where some benchmark was not measured (enough) for a
        // variant: the rest are compared, and a note says what is missing.
        if (r.metrics.size() > 1) cli::leave_out_unmeasured(r);
        cli::analyse_comparisons(r, o.fdr, o.diagnostics);
        cli::compute_geomeans(r, o.geomean);  // its notes are in every format
    }
    describe_samples(r);
}

}  // namespace

// The facts of the moment of the variants compared, the baseline first:
// one file's variants by label, or each file's runs as its one variant.
static VolatileContext compare_context(const CompareFindings& f) {
    if (f.report.metrics.empty() || f.files.empty()) return {};
    const MetricReport& m = f.report.metrics.front();
    std::vector<std::string> labels = {m.baseline.label};
    for (const auto& c : m.candidates) labels.push_back(c.label);
    std::vector<VolatileReadings> by_label;
    for (const std::string& l : labels) by_label.push_back({l, {}});
    for (size_t i = 0; i < f.files.size(); ++i) {
        for (VolatileReadings& r : volatile_readings(f.files[i])) {
            const std::string label = f.files.size() == labels.size() ? labels[i] : r.variant;
            const auto it = std::find_if(by_label.begin(), by_label.end(),
                                         [&](const VolatileReadings& x) { return x.variant == label; });
            if (it == by_label.end()) continue;
            for (auto& [field, values] : r.fields)
                it->fields[field].insert(it->fields[field].end(), values.begin(), values.end());
        }
    }
    return volatile_context(by_label);
}

CompareFindings compare(CompareInputs in, const CompareOptions& o, const NoteSink& note) {
    const cli::CompareChoices& ch = o.choices;
    if (!in.results.empty() && !in.columns.empty())
        throw data::InputError("mixing results files and column files; import the column files "
                               "(gfxstat import --from lines) or compare like with like");
    CompareFindings f;
    f.names = cli::input_names(in.inputs);
    CompareReport& report = f.report;
    report = settings_report(o);
    if (in.results.empty()) {
        report.metrics.push_back(column_metric(in, in.columns, ch.exact));
        analyse(report, o);
        return f;
    }
    std::vector<data::ResultsFile>& rf = f.files;
    rf = std::move(in.results);
    // The checking runs, before --filter or --row/--col keep only runs.
    const auto image_checks = input_image_checks(rf);
    for (size_t i = 0; i < rf.size() && o.note_simulated_boots; ++i)  // campaign resume --simulate-reboots
        if (const std::string n = drivers::simulated_boots_note(drivers::count_simulated_boots(rf[i])); !n.empty())
            note("note", text::escape_text(in.inputs[i].name) + ": " + n);
    cli::select_benchmarks(o, in.inputs, rf, report.selection_notes);
    report.metrics = cli::results_metrics(in.inputs, rf, ch);
    cli::forget_split_runs(o, report.metrics);
    // Throttled runs: counted, and left out with --drop-throttled.
    if (!report.metrics.empty()) report.throttle = cli::throttle_sides(rf, report.metrics[0]);
    if (report.throttle && o.drop_throttled) {
        std::vector<data::ResultsFile> kept;
        for (const auto& file : rf) {
            size_t n = 0;
            kept.push_back(data::without_throttled(file, &n));
            report.throttle->left_out += n;
        }
        cli::check_runs_left(f.names, rf, kept);
        rf = std::move(kept);
        report.throttle->dropped = true;
        report.metrics = cli::results_metrics(in.inputs, rf, ch);
        cli::forget_split_runs(o, report.metrics);
    }
    analyse(report, o);
    apply_image_checks(report, image_checks);
    if (report.throttle && !report.throttle->dropped && !report.paired_by_benchmark) {
        // The same comparison on the unthrottled runs: does the verdict hold without them?
        CompareReport alt = settings_report(o);
        try {
            std::vector<data::ResultsFile> kept;
            for (const auto& file : rf) kept.push_back(data::without_throttled(file));
            cli::check_runs_left(f.names, rf, kept);
            alt.metrics = cli::results_metrics(in.inputs, kept, ch);
            analyse(alt, o);
            alt.images = report.images;  // the same frames: the same verdicts overruled
            overrule_improvements(alt);
            report.throttle->without = cli::verdicts_without(report, alt);
        } catch (const std::exception& e) {  // InputError: too few runs left, and the like
            report.throttle->without_error = e.what();
        }
    }
    f.context = compare_context(f);
    f.report.context_shifts = f.context.shifts;
    return f;
}

}  // namespace gfxstat::findings
