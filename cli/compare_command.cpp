// SPDX-License-Identifier: MIT
// gfxstat compare: candidates against a baseline, metric by metric, with a
// verdict per metric and an exit status CI can gate on.
//
// Inputs: column files (one sample each), one results file holding several
// variants (compared within itself), or several results files holding one
// variant each. Exit statuses: 0 no regression; 1 a regression beyond the
// threshold (with --gate); 3 something inconclusive (with --gate --strict);
// 2 usage or input errors, always.
#include "cli/command_line.h"
#include "cli/compare_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "analysis/t_tests.h"
#include "analysis/diagnostics.h"
#include "analysis/outliers.h"
#include "findings/compare_findings.h"
#include "cli/compare_inputs.h"
#include "cli/compare_suite.h"
#include "cli/plot_files.h"
#include "cli/summary_compare.h"
#include "report/diagnostic_words.h"
#include "report/suite_table.h"
#include "cli/sample_inputs.h"
#include "data/results_writer.h"
#include "cli/throttle_compare.h"
#include "data/input_error.h"
#include "data/results_select.h"
#include "data/throttled_runs.h"
#include "drivers/campaign_simulation.h"
#include "text/plural.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

analysis::SampleLayout layout_of(const ReportSample& s) {
    analysis::SampleLayout l;
    l.boot_of_value = s.layout.boot_of_value;
    l.boot_ids = s.layout.boots;
    l.firsts = s.layout.firsts;
    l.machine_of_value = s.layout.machine_of_value;
    l.machine_ids = s.layout.machines;
    return l;
}

// --drop-outliers: leaves out exactly the values the outlier sentence would
// name (OutlierReport::reported: a modified z-score beyond the calibrated
// cutoff c(n), outlier_cutoffs.h; none in a bimodal sample, whose far
// values are a mode), keeping the boot layout in step, and remembers them
// by their place in the original run order.
void drop_outliers(ReportSample& s) {
    std::vector<double> v(s.sample.size());
    const analysis::ScaledValues view = s.sample.view();
    for (size_t i = 0; i < v.size(); ++i) v[i] = view.at(i);
    std::vector<size_t> drop;
    const analysis::OutlierReport report = analysis::find_outliers(v);
    // With a MAD of 0 (more than half the values equal, as quantised
    // timings are) nothing is reported, so nothing is dropped; say why.
    if (report.mad_zero) {
        s.drop_refused = true;
        return;
    }
    if (report.reported == 0 || analysis::judge_bimodality(v).bimodal) return;
    for (const auto& o : report.outliers)
        if (o.reported) {
            drop.push_back(o.index);
            s.dropped.push_back({o.index, o.value});
        }
    data::erase_values(s.sample, drop);
    data::erase_values(s.layout, drop);
}

int exit_status(const CompareReport& report, bool gate, bool strict) {
    if (!gate) return 0;
    bool regression = false, inconclusive = false;
    // A suite tested as pairs: its verdicts are the suite's, one per candidate.
    for (const auto& p : report.paired) {
        regression |= p.verdict.outcome == analysis::Outcome::regression && p.verdict.beyond_threshold;
        inconclusive |= p.verdict.outcome == analysis::Outcome::inconclusive;
    }
    for (const auto& m : report.metrics)
        for (const auto& v : m.verdicts) {
            if (!m.primary) continue;  // secondary metrics are reported, never gate
            regression |= v.outcome == analysis::Outcome::regression && v.beyond_threshold;
            inconclusive |= v.outcome == analysis::Outcome::inconclusive;
        }
    if (regression) return 1;
    if (strict && inconclusive) return 3;
    return 0;
}

}  // namespace

std::string p_label(const CompareReport& r, const MetricReport& m, size_t k) {
    if (k < m.comparisons.size() && m.comparisons[k].blocks && m.comparisons[k].blocks->look)
        return "anytime-valid p";
    if (!m.primary) return "unadjusted p";
    if (k >= m.adjusted.size() || !m.adjusted[k] || r.family_size < 2) return "p";
    return r.adjustment == "holm" ? "Holm-adjusted p" : "BH-adjusted p";
}

void assign_roles(std::vector<MetricReport>& metrics, bool named) {
    // The user's --metric list is the family; otherwise the metrics the
    // workload declares primary; otherwise those with a direction (a metric
    // without one cannot regress); otherwise all.
    if (named) return;
    // A design's role assignment stands.
    const bool declared = std::any_of(metrics.begin(), metrics.end(), [](const MetricReport& m) {
        return m.declared_primary.value_or(false);
    });
    const bool directed = std::any_of(metrics.begin(), metrics.end(), [](const MetricReport& m) {
        return m.better != analysis::Better::unknown;
    });
    for (auto& m : metrics) {
        if (m.design_role) continue;  // a sequential design said which metric it watched
        if (declared && !m.declared_primary.value_or(false)) {
            m.primary = false;
            m.secondary_why = "not the workload's primary metric";
        } else if (!declared && directed && m.better == analysis::Better::unknown) {
            m.primary = false;
            m.secondary_why = "no direction is known, so it cannot regress";
        }
    }
}

namespace {

// The geomean of each candidate over the metrics named with --geomean, or
// by default over the primary metrics when they are one kind of quantity
// (one unit: the same metric across benchmarks) and there are 2 or more.
void compute_geomeans(CompareReport& r, const std::vector<std::string>& named) {
    std::vector<const MetricReport*> set;
    if (!named.empty()) {
        for (const std::string& name : named) {
            const auto it = std::find_if(r.metrics.begin(), r.metrics.end(),
                                         [&](const MetricReport& m) { return m.metric == name; });
            if (it == r.metrics.end())
                throw data::InputError("--geomean: no metric '" + name + "' among those compared");
            if (it->better == analysis::Better::unknown)
                throw data::InputError("--geomean: metric '" + name +
                                       "' has no direction, so its ratio cannot be turned so that above 1 is better "
                                       "(--lower-is-better or --higher-is-better)");
            set.push_back(&*it);
        }
    } else {
        for (const auto& m : r.metrics)
            if (m.primary && m.better != analysis::Better::unknown) set.push_back(&m);
        if (set.size() < 2) return;
        for (const MetricReport* m : set)
            if (m->unit != set[0]->unit) {
                r.geomean_notes.push_back("no geomean: the primary metrics measure different things (units '" +
                                          set[0]->unit + "' and '" + m->unit +
                                          "'); name the ones that belong together with --geomean");
                return;
            }
    }
    // Candidates in order of first appearance; each over the metrics every
    // candidate has, so that the ratios compare.
    std::vector<std::string> labels;
    for (const MetricReport* m : set)
        for (const auto& c : m->candidates)
            if (std::find(labels.begin(), labels.end(), c.label) == labels.end()) labels.push_back(c.label);
    std::vector<const MetricReport*> common;
    for (const MetricReport* m : set) {
        std::vector<std::string> missing;
        for (const auto& l : labels)
            if (std::none_of(m->candidates.begin(), m->candidates.end(),
                             [&](const ReportSample& c) { return c.label == l; }))
                missing.push_back(l);
        if (missing.empty()) common.push_back(m);
        else
            r.geomean_notes.push_back("the geomean leaves out " + metric_title(*m) + ": not measured for " +
                                      missing[0] + (missing.size() > 1 ? " and others" : ""));
    }
    for (const auto& label : labels) {
        GeomeanReport g;
        g.candidate = label;
        std::vector<analysis::RatioInput> in;
        for (const MetricReport* m : common)
            for (size_t k = 0; k < m->candidates.size(); ++k) {
                if (m->candidates[k].label != label) continue;
                const analysis::TwoSampleComparison& c = m->comparisons[k];
                if (!(c.baseline.mean > 0) || !(c.candidate.mean > 0)) {
                    r.geomean_notes.push_back("the geomean leaves out " + metric_title(*m) + " for " + label +
                                              ": a mean is not positive");
                    continue;
                }
                in.push_back({c.baseline.mean, c.baseline.stddev, c.baseline.n, c.candidate.mean,
                              c.candidate.stddev, c.candidate.n, m->better});
                g.metrics.push_back(metric_title(*m));
            }
        if (in.empty()) continue;
        g.geomean = analysis::oriented_geomean(in, r.confidence);
        if (g.geomean.defined) r.geomeans.push_back(std::move(g));
    }
}

}  // namespace

// Statistics, then multiplicity over the primary metrics' comparisons, then
// verdicts.
void analyse_comparisons(CompareReport& report, bool fdr, bool diagnostics, int threads) {
    analysis::ComparisonOptions opt;
    opt.confidence = report.confidence;
    opt.threshold = report.threshold;
    opt.bootstrap_resamples = report.resamples;
    opt.seed = report.seed;
    opt.diagnostics = diagnostics;
    opt.threads = threads;
    for (auto& m : report.metrics) {
        const size_t least = m.exact ? 1 : 2;
        const auto check_n = [&](const ReportSample& s) {
            if (s.sample.size() < least)
                throw data::InputError((m.metric.empty() ? "" : "metric '" + m.metric + "': ") + s.label +
                                       " has " + gfxstat::text::plural(s.sample.size(), "value") + "; a comparison needs " +
                                       (m.exact ? "at least 1 a side" : "at least 2 a side (or --exact for a "
                                                                        "deterministic metric)"));
        };
        if (report.drop_outliers && !m.exact) {
            drop_outliers(m.baseline);
            for (auto& c : m.candidates) drop_outliers(c);
        }
        check_n(m.baseline);
        if (report.keep_run_order) {
            const auto keep = [](ReportSample& s) {
                const auto view = s.sample.view();
                s.run_order.resize(view.size());
                for (size_t i = 0; i < view.size(); ++i) s.run_order[i] = view.at(i);
            };
            keep(m.baseline);
            for (auto& c : m.candidates) keep(c);
        }
        opt.exact = m.exact;
        for (size_t k = 0; k < m.candidates.size(); ++k) {
            auto& c = m.candidates[k];
            check_n(c);
            m.comparisons.push_back(analysis::compare_samples(m.baseline.sample.mutable_view(),
                                                              c.sample.mutable_view(), opt,
                                                              layout_of(m.baseline), layout_of(c)));
            if (const DesignUse* u = m.design(k); u && !m.exact) {
                // The blocks are the experiment: their pairs decide.
                analysis::BlockDesign bd;
                bd.sequential = u->design.stopping == "sequential" && u->design.metric == m.metric;
                // As `gfxstat ab` stops: Bonferroni over the design's candidates.
                const size_t candidates = u->design.variants.size() > 1 ? u->design.variants.size() - 1 : 1;
                bd.confidence = bd.sequential ? 1 - (1 - report.confidence) / static_cast<double>(candidates)
                                              : report.confidence;
                bd.threshold = report.threshold;
                bd.incomplete = u->pairs.incomplete;
                analysis::analyse_blocks(m.comparisons.back(), u->pairs.baseline, u->pairs.candidate, bd);
            }
        }
    }
    // The family: primary metrics whose test is defined. An exact metric,
    // or one without variability, has no p to adjust, and a secondary
    // metric must not dilute the primary ones.
    std::vector<double> pvals;
    for (auto& m : report.metrics)
        for (const auto& c : m.comparisons) {
            // A confidence sequence's error rate is set by its own level
            // (Bonferroni over the design's candidates), not by Holm.
            const bool sequential = c.blocks && c.blocks->look;
            const bool in_family = m.primary && !m.exact && c.primary_defined && !sequential;
            m.adjusted.push_back(in_family);
            if (in_family) pvals.push_back(c.primary_p);
        }
    report.family_size = pvals.size();
    const std::vector<double> adjusted =
        fdr ? analysis::benjamini_hochberg_adjust(pvals) : analysis::holm_adjust(pvals);
    size_t k = 0;
    for (auto& m : report.metrics)
        for (size_t i = 0; i < m.comparisons.size(); ++i) {
            const auto& c = m.comparisons[i];
            const double p = m.adjusted[i] ? adjusted[k++] : c.primary_p;
            analysis::VerdictInputs vi = analysis::verdict_inputs(c, m.better, report.confidence, report.threshold, p,
                                                                  p_label(report, m, i));
            m.verdicts.push_back(analysis::decide(vi));
        }
}

namespace {

// A note or warning on stderr ("PROG: note: ..."), broken at spaces into
// lines of 72 columns, the later ones indented: notes are pasted into mail
// with the report, which is 72 columns wide too.
void print_note(const char* prog, const char* kind, const std::string& text) {
    for (const auto& line : wrap_words(std::string(prog) + ": " + kind + ": " + text, 72, 0, 4))
        std::fprintf(stderr, "%s\n", line.c_str());
}

// The compare run itself, on parsed settings: reads the inputs, analyses,
// prints the report to `out`, returns the exit status.
int run_compare(const std::vector<std::string>& files, const CompareSettings& s, FILE* out) {
    const auto started = std::chrono::steady_clock::now();
    const char* prog = s.program.c_str();
    const CompareChoices& ch = s.choices;
    const data::ColumnFormat& column = s.column;
    const std::vector<std::string>& geomean = s.geomean;
    const bool lower = s.lower, higher = s.higher, fdr = s.fdr, gate = s.gate, strict = s.strict;
    const bool no_diagnostics = !s.diagnostics;
    const std::string& format = s.format;
    CompareReport report;
    report.confidence = s.confidence;
    report.threshold = s.threshold_pct / 100;
    report.width = s.width;
    report.resamples = s.resamples;
    report.seed = s.seed;
    report.drop_outliers = s.drop_outliers;
    report.keep_run_order = std::any_of(s.exports.begin(), s.exports.end(),
                                        [](const ExportRequest& q) { return q.kind == "kcidb"; });
    // Pictures draw the runs in the order they ran.
    report.keep_run_order |= !s.plot.empty() || static_cast<bool>(s.after_report);
    report.advice = s.advice;
    for (const auto* list : {&ch.metrics, &ch.variants})
        for (size_t i = 0; i < list->size(); ++i)
            for (size_t j = 0; j < i; ++j)
                if ((*list)[i] == (*list)[j]) {
                    std::fprintf(stderr, "%s: '%s' given twice\n", prog, escape_text((*list)[i]).c_str());
                    return 2;
                }
    report.adjustment = fdr ? "benjamini-hochberg" : "holm";

    try {
        // A plot that cannot be written (a .png without rsvg-convert) is
        // refused before anything is compared.
        if (!s.plot.empty()) check_plot_request(s.plot, s.plot_kind);
        std::vector<SampleInput> inputs;
        // LABEL=PATH and PATH:COLUMN, as benchstat and ministat users write them.
        for (const auto& f : files) {
            SampleInput in = parse_sample_argument(f);
            if (in.path == "-") in.name = "<stdin>";
            for (const SampleInput& before : inputs)
                if (!in.label.empty() && before.label == in.label)
                    throw data::InputError("the label '" + in.label + "' is given twice: each data set needs its own");
            inputs.push_back(std::move(in));
        }
        std::vector<RawInput> raw;
        for (const auto& in : inputs) {
            raw.push_back(read_input(in, column));
            for (const auto& note : raw.back().notes)
                print_note(prog, "warning", escape_message(note));
        }
        const size_t n_results = static_cast<size_t>(std::count_if(
            raw.begin(), raw.end(), [](const RawInput& r) { return r.results.has_value(); }));
        if (n_results != 0 && n_results != raw.size())
            throw data::InputError("mixing results files and column files; import the column files "
                                   "(gfxstat import --from lines) or compare like with like");
        const CompareReport settings_only = report;  // before any metric: the comparison without throttled runs
        if (n_results == 0) {
            if (raw.size() < 2) throw data::InputError("give a baseline and at least one candidate");
            MetricReport r;
            r.unit = "";
            r.exact = ch.exact;
            for (size_t i = 0; i < raw.size(); ++i) {
                ReportSample s;
                s.label = inputs[i].label.empty() ? inputs[i].name : inputs[i].label;
                s.sample = std::move(raw[i].column->sample);
                if (i == 0) r.baseline = std::move(s);
                else r.candidates.push_back(std::move(s));
            }
            report.metrics.push_back(std::move(r));
        }
        std::vector<data::ResultsFile> rf;
        if (n_results != 0) {
            for (auto& r : raw) rf.push_back(std::move(*r.results));
            for (size_t i = 0; i < rf.size() && s.note_simulated_boots; ++i)  // campaign resume --simulate-reboots
                if (const std::string note = drivers::simulated_boots_note(drivers::count_simulated_boots(rf[i]));
                    !note.empty())
                    print_note(prog, "note", escape_text(inputs[i].name) + ": " + note);
            select_benchmarks(s, inputs, rf, report.selection_notes);
            report.metrics = results_metrics(inputs, rf, ch);
            forget_split_runs(s, report.metrics);
            // Throttled runs: counted, and left out with --drop-throttled.
            if (!report.metrics.empty()) report.throttle = throttle_sides(rf, report.metrics[0]);
            if (report.throttle && s.drop_throttled) {
                std::vector<data::ResultsFile> kept;
                for (const auto& f : rf) {
                    size_t n = 0;
                    kept.push_back(data::without_throttled(f, &n));
                    report.throttle->left_out += n;
                }
                check_runs_left(input_names(inputs), rf, kept);
                rf = std::move(kept);
                report.throttle->dropped = true;
                report.metrics = results_metrics(inputs, rf, ch);
                forget_split_runs(s, report.metrics);
            }
        }
        const auto finish = [&](CompareReport& r) {
            if (lower || higher)
                for (auto& m : r.metrics) m.better = lower ? analysis::Better::lower : analysis::Better::higher;
            assign_roles(r.metrics, !ch.metrics.empty());
            r.suite = s.layout;
            r.suite.table = s.table;
            // A blocked design's confidence and threshold, unless the user gave
            // them (its interval is valid at any threshold).
            for (const auto& m : r.metrics) {
                const auto it = std::find_if(m.designs.begin(), m.designs.end(),
                                             [](const std::optional<DesignUse>& u) { return u.has_value(); });
                if (it == m.designs.end()) continue;
                if (!s.confidence_given) r.confidence = (*it)->design.confidence;
                if (!s.threshold_given) r.threshold = (*it)->design.threshold;
                break;
            }
            if (wants_paired_suite(r)) {
                analyse_paired_suite(r, fdr);  // the benchmarks are the pairs
                return;
            }
            // A suite where some benchmark was not measured (enough) for a
            // variant: the rest are compared, and a note says what is missing.
            if (r.metrics.size() > 1) leave_out_unmeasured(r);
            analyse_comparisons(r, fdr, !no_diagnostics);
            compute_geomeans(r, geomean);  // its notes are in every format
        };
        finish(report);
        if (report.throttle && !report.throttle->dropped && !report.paired_by_benchmark) {
            // The same comparison on the unthrottled runs: does the verdict hold without them?
            CompareReport alt = settings_only;
            try {
                std::vector<data::ResultsFile> kept;
                for (const auto& f : rf) kept.push_back(data::without_throttled(f));
                check_runs_left(input_names(inputs), rf, kept);
                alt.metrics = results_metrics(inputs, kept, ch);
                finish(alt);
                report.throttle->without = verdicts_without(report, alt);
            } catch (const std::exception& e) {  // InputError: too few runs left, and the like
                report.throttle->without_error = e.what();
            }
        }
        struct Exclusion {
            std::string label, left;
            std::vector<std::string> metrics;
        };
        std::vector<Exclusion> exclusions;
        for (const auto& m : report.metrics) {
            std::vector<const ReportSample*> all = {&m.baseline};
            for (const auto& c : m.candidates) all.push_back(&c);
            for (const ReportSample* s : all) {
                if (s->drop_refused)
                    print_note(prog, "note",
                               escape_text(s->label) +
                                   ": nothing dropped: more than half its values are equal (MAD 0), so no value "
                                   "is called an outlier: the next quantum up is not one");
                if (s->dropped.empty()) continue;
                std::string list;
                for (size_t i = 0; i < s->dropped.size() && i < 10; ++i)
                    list += (i ? ", " : "") + with_unit(s->dropped[i].second, m.unit) + " (value " +
                            std::to_string(s->dropped[i].first + 1) + ")";
                if (s->dropped.size() > 10) list += ", ...";
                print_note(prog, "note",
                           escape_text(s->label) + ": dropped " + gfxstat::text::plural(s->dropped.size(), "outlier") +
                               (m.metric.empty() ? "" : " of ") + escape_text(m.metric) + ": " + escape_text(list));
            }
            for (const ReportSample* s : all) {
                const std::string left = data::describe_exclusions(s->counts);
                if (left.empty()) continue;
                auto it = std::find_if(exclusions.begin(), exclusions.end(), [&](const auto& e) {
                    return e.label == s->label && e.left == left;
                });
                if (it == exclusions.end()) it = exclusions.insert(exclusions.end(), {s->label, left, {}});
                it->metrics.push_back(m.metric);
            }
        }
        // The same runs left out of several metrics (gfxstat ab's warm-ups
        // of every metric) are one note.
        for (const auto& e : exclusions) {
            std::string of;
            if (e.metrics.size() > 1 && e.metrics.size() == report.metrics.size())
                of = "every metric";
            else
                for (const auto& name : e.metrics) of += (of.empty() ? "" : ", ") + escape_text(name);
            print_note(prog, "note", escape_text(e.label) + ": " + e.left + " left out of " + of);
        }
        // A suite (2+ benchmarks of one unit) is a table unless a report per
        // benchmark is asked for; a suite tested as pairs has no report per
        // benchmark, only its table.
        const bool table =
            report.paired_by_benchmark || (suite_shape(report) && !s.full && (!s.brief || s.table));
        if (report.paired_by_benchmark && (s.full || s.brief) && format != "json" && format != "csv")
            print_note(prog, "note",
                       std::string(s.full ? "--full" : "--brief") +
                           ": no benchmark of a suite measured once a side is compared on its own; the suite's "
                           "table is the report");
        // Outside the table (which prints them), what the selection pooled or
        // left out is said on stderr.
        if (!table && format != "json")
            for (const std::string& note : report.selection_notes) print_note(prog, "note", escape_text(note));
        void (*const text)(const CompareReport&, FILE*) =
            table ? render_suite_text : s.brief ? render_brief_text : render_text;
        void (*const markdown)(const CompareReport&, FILE*) =
            table ? render_suite_markdown : s.brief ? render_brief_markdown : render_markdown;
        if (format == "json") render_json(report, out);
        else if (format == "csv") render_suite_csv(report, out);
        else if (format == "markdown") markdown(report, out);
        else text(report, out);
        if (!s.exports.empty()) {
            ExportContext ctx;
            ctx.gate = {gate, strict};
            ctx.program = s.program;
            ctx.text_report = render_to_string(text, report);
            ctx.kcidb_origin = s.kcidb_origin;
            ctx.generated_at = data::utc_now_rfc3339();
            ctx.table = table;
            ctx.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            std::fflush(out);
            write_exports(s.exports, report, ctx, markdown, render_json);
        }
        if (!s.plot.empty()) {
            std::fflush(out);
            write_plots(s.plot, s.plot_kind, report, rf);
        }
        if (s.after_report) {
            std::fflush(out);
            const std::vector<std::string> names = input_names(inputs);
            if (const auto status = s.after_report(CompareOutcome{report, rf, names, text, table})) return *status;
        }
        return exit_status(report, gate, strict);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    } catch (const std::invalid_argument& e) {  // a statistic refused its arguments
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    }
}

}  // namespace

int compare_results_file(const std::string& path, const CompareSettings& s, FILE* out) {
    return run_compare({path}, s, out);
}

int compare_files(const std::vector<std::string>& files, const CompareSettings& s, FILE* out) {
    return run_compare(files, s, out);
}

int compare_main(int argc, char** argv) { return compare_main(argc, argv, CompareSettings{}); }

int compare_main(int argc, char** argv, const CompareSettings& preset) {
    CLI::App app{"Compare candidates with a baseline: tests, effect sizes, equivalence and a "
                 "verdict per metric. Inputs are column files, one results file with several "
                 "variants, or results files with one variant each.",
                 "gfxstat compare"};
    std::vector<std::string> files;
    CompareSettings s = preset;
    // gfxstat campaign analyze runs compare under its own name.
    if (argc > 0 && std::string_view(argv[0]).starts_with("gfxstat ")) s.program = argv[0];
    app.name(s.program);
    CompareChoices& ch = s.choices;
    app.add_option("files", files, "BASELINE CANDIDATE... (or one results file)")->required();
    app.add_option("--metric", ch.metrics, "metrics to compare (default: all shared)")
        ->allow_extra_args(false);
    app.add_option("--baseline", ch.baseline, "baseline variant of a single results file (default: the first)");
    app.add_option("--variant", ch.variants, "candidate variants of a single results file (default: all others)")
        ->allow_extra_args(false);
    app.add_flag("--exact", ch.exact,
                 "the metrics are deterministic (sizes, instruction counts): any difference is a change, and "
                 "one run a side is enough");
    add_report_options(app, s);
    add_plot_options(app, s);
    app.add_flag("--summaries", s.summaries,
                 "the files hold summary statistics (N, mean, sd a side: a pasted ministat table, or a table with "
                 "n, mean and sd columns): Welch's t from them, without diagnostics");
    app.add_option("--filter", s.filter,
                   "benchmarks and runs to compare: name:gl_4, /regex/, variant:x, a tag key:value, with AND, OR, "
                   "- (not) and parentheses (docs/filter-language.md)");
    app.add_option("--row", s.row, "suite table rows: keys such as name (default), or name,gpu (a tag)");
    app.add_option("--col", s.col, "suite table columns: variant (default), or a tag key such as kernel");
    app.add_option("-C,--column", s.column.column, "column files: column to read")->check(CLI::Range(1, 1000000));
    app.add_option("-d,--delimiters", s.column.delimiters, "column files: field delimiters");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    if (s.after_parse)
        if (const auto done = s.after_parse(files, s)) return *done;
    if (s.summaries) {
        // Summaries hold no runs: options about runs, samples or tables of
        // benchmarks would be ignored, so they are refused.
        for (const char* name : {"--metric", "--variant", "--exact", "--geomean", "--brief", "--table", "--full",
                                 "--sort", "--only-changed", "--filter", "--row", "--col", "--bootstrap", "--seed",
                                 "--drop-outliers", "--drop-throttled", "--no-diagnostics", "--column",
                                 "--delimiters", "--plot", "--plot-kind"})
            if (app.count(name) > 0) {
                std::fprintf(stderr, "%s: %s does not apply to --summaries (N, mean and sd a side hold no runs)\n",
                             s.program.c_str(), name);
                return 2;
            }
        for (const char* name : {"--junit", "--openmetrics", "--kcidb", "--kcidb-origin", "--markdown", "--json"})
            if (app.count(name) > 0) {
                std::fprintf(stderr,
                             "%s: %s: the CI reports are written from runs' comparisons, not from --summaries; "
                             "use --format markdown or json and redirect stdout\n",
                             s.program.c_str(), name);
                return 2;
            }
        return compare_summaries(files, summary_compare_settings(s), stdout);
    }
    return run_compare(files, s, stdout);
}

}  // namespace gfxstat::cli
