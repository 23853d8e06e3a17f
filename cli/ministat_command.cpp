// SPDX-License-Identifier: MIT
// gfxstat ministat: reads the data sets (cli/sample_inputs.h; the command
// line: cli/ministat_options.h), computes ministat's statistics
// (findings/ministat_table.h) and prints its report (report/ministat_text.h),
// once, or once per metric of results files.
#include "cli/ministat_command.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "cli/ministat_options.h"
#include "data/input_error.h"
#include "data/projection.h"
#include "findings/ministat_table.h"
#include "report/ministat_text.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

// One report of the many-benchmark mode: a metric and its data sets.
struct MetricDataSets {
    data::MetricInfo metric;
    std::vector<LoadedSample> sets;
};

// The metrics of the results inputs to report on, one report each, in the
// order the inputs declare them (a metric of the second file that the
// first lacks comes after the first file's): per-run metrics only (frame
// times are within-run data, as compare skips them), narrowed to `wanted`
// when it is not empty. Each report holds the data sets of every input
// that has the metric, in input order; a variant without a value of it is
// left out of that report, with a note. Throws data::InputError for a
// wanted metric that no input holds, or that holds within-run values, and
// for a label on a file of several variants.
std::vector<MetricDataSets> metric_data_sets(const std::vector<SampleInput>& inputs, std::vector<InputOutcome>& outcomes,
                                         const std::vector<std::string>& wanted,
                                         const std::vector<std::string>& variants,
                                         const std::optional<data::BenchFilter>& filter, const char* prog) {
    const bool qualify = inputs.size() > 1;
    std::vector<MetricDataSets> reports;
    const auto report_of = [&](const data::MetricInfo& m) -> MetricDataSets* {
        if (m.within_run()) return nullptr;
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), m.name) == wanted.end()) return nullptr;
        for (MetricDataSets& r : reports)
            if (r.metric.name == m.name) return &r;
        reports.push_back({m, {}});
        return &reports.back();
    };
    for (const std::string& name : wanted) {
        bool held = false;
        for (size_t i = 0; i < outcomes.size(); ++i) {
            if (!outcomes[i].results) continue;
            const data::ResultsFile& file = *outcomes[i].results;
            if (const data::MetricInfo* m = file.find_metric(name)) {
                // A within-run metric is refused with the per-run metrics beside it.
                if (m->within_run()) select_metric_suggesting(file, inputs[i].name, name, variants);
                held = true;
            }
        }
        // No file has it: the first one's "has no metric", with the nearest names.
        for (size_t i = 0; i < outcomes.size() && !held; ++i)
            if (outcomes[i].results) select_metric_suggesting(*outcomes[i].results, inputs[i].name, name, variants);
    }
    // The filter: each file seen through it (data/projection.h), its
    // metrics in the order the file declares them (a projection declares
    // them in the order it meets them).
    std::vector<std::vector<std::string>> declared(outcomes.size());
    for (size_t i = 0; i < outcomes.size(); ++i) {
        if (!outcomes[i].results) continue;
        for (const data::MetricInfo& m : outcomes[i].results->metrics()) declared[i].push_back(m.name);
        if (!filter) continue;
        data::ProjectedResults p;
        try {
            p = data::project_results(*outcomes[i].results, *filter);
        } catch (const std::invalid_argument& e) {
            throw data::input_error(inputs[i].name, 0, e.what());
        }
        for (const std::string& note : p.notes)
            std::fprintf(stderr, "%s: note: %s: %s\n", prog, escape_text(inputs[i].name).c_str(),
                         escape_message(note).c_str());
        outcomes[i].results = std::move(p.file);
    }
    // Declared order first, so that data sets can be added input by input.
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const InputOutcome& o = outcomes[i];
        if (o.results) {
            for (const std::string& name : declared[i])
                if (const data::MetricInfo* m = o.results->find_metric(name)) report_of(*m);
            for (const data::MetricInfo& m : o.results->metrics()) report_of(m);
        } else if (!o.samples.empty()) {
            report_of(o.samples[0].metric);
        }
    }
    for (size_t i = 0; i < outcomes.size(); ++i) {
        InputOutcome& o = outcomes[i];
        std::vector<LoadedSample> taken;
        if (o.results && filter && o.results->runs().empty()) continue;  // the filter kept none of its runs
        if (o.results) {
            for (data::MetricSelection& sel : data::select_all_metrics(*o.results, inputs[i].name, variants))
                if (report_of(sel.metric))
                    for (LoadedSample& s : input_samples(std::move(sel), inputs[i], qualify))
                        taken.push_back(std::move(s));
        } else {
            taken = std::move(o.samples);
        }
        for (LoadedSample& s : taken) {
            MetricDataSets* r = report_of(s.metric);
            if (!r) continue;
            if (s.sample.size() == 0) {
                std::fprintf(stderr, "%s: note: %s: no values of %s; left out of its report\n", prog,
                             escape_text(s.sample.name).c_str(), escape_text(s.metric.name).c_str());
                continue;
            }
            r->sets.push_back(std::move(s));
        }
    }
    return reports;
}

// The many-benchmark mode (gfxstat's own: Debian's ministat reads no
// results files): one report per metric, each under a line naming the
// metric, separated by a blank line; each report's body is what
// `--metric NAME` alone prints. A report that cannot be made (a data set
// of fewer than 3 values) is said on stderr and the others still are: the
// exit status is the worst of the reports' (ministat's: 0, or 2).
int many_reports(const std::vector<SampleInput>& inputs, std::vector<InputOutcome>& outcomes,
                 const std::vector<std::string>& metrics, const std::vector<std::string>& variants,
                 const std::optional<data::BenchFilter>& filter, const data::ColumnFormat& format,
                 const report::MinistatLayout& ro, const char* prog) {
    const bool plain = std::strcmp(prog, "ministat") == 0;
    for (size_t i = 0; i < outcomes.size(); ++i)
        if (!outcomes[i].results && !outcomes[i].samples.empty() && !outcomes[i].samples[0].from_results) {
            if (filter)
                std::fprintf(stderr,
                             "%s: %s is a column file: --filter applies to results files (gfxstat import "
                             "--from lines makes one)\n",
                             prog, escape_text(inputs[i].name).c_str());
            else
                std::fprintf(stderr,
                             "%s: %s is a column file, and a report per metric is made of results files: "
                             "choose one metric with --metric, or import it (gfxstat import --from lines)\n",
                             prog, escape_text(inputs[i].name).c_str());
            return 2;
        }
    for (InputOutcome& o : outcomes) {
        for (const std::string& note : o.notes)
            std::fprintf(stderr, "%s: warning: %s\n", prog, escape_message(note).c_str());
        o.notes.clear();
    }
    std::vector<MetricDataSets> reports;
    try {
        reports = metric_data_sets(inputs, outcomes, metrics, variants, filter, prog);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    }
    if (reports.empty()) {
        if (filter)
            std::fprintf(stderr, "%s: --filter '%s' keeps no metric with one sample per run\n", prog,
                         escape_text(filter->text()).c_str());
        else
            std::fprintf(stderr, "%s: %s holds no metric with one sample per run\n", prog,
                         escape_text(inputs[0].name).c_str());
        return 2;
    }
    for (const MetricDataSets& r : reports)
        if (r.sets.size() > static_cast<size_t>(kMinistatMaxSets))
            ministat_usage(prog, "Too many datasets (results files give one per variant; choose with --variant).");

    int status = 0;
    bool printed = false;
    for (MetricDataSets& r : reports) {
        const std::string metric = escape_text(r.metric.name);
        InputOutcome left_out;  // what reading left out of this metric's data sets
        left_out.samples = std::move(r.sets);
        warn_left_out(prog, left_out, format);
        if (left_out.samples.empty()) {
            std::fprintf(stderr, "%s: note: no values of %s; no report\n", prog, metric.c_str());
            continue;
        }
        std::vector<data::Sample> samples;
        std::vector<findings::MinistatStats> stats;
        bool complete = true;
        for (LoadedSample& s : left_out.samples) {
            if (s.sample.size() < 3) {
                std::fprintf(stderr, "%s%s%s: Dataset %s must contain at least 3 data points\n", plain ? "" : prog,
                             plain ? "" : ": ", metric.c_str(), escape_text(s.sample.name).c_str());
                complete = false;
                break;
            }
            stats.push_back(findings::ministat_stats(s.sample));
            samples.push_back(std::move(s.sample));
        }
        if (!complete) {
            status = std::max(status, 2);
            continue;
        }
        if (printed) std::printf("\n");
        std::printf("%s\n", escape_text(report::ministat_metric_heading(r.metric)).c_str());
        report::print_ministat_report(
            findings::ministat_table(std::move(samples), std::move(stats), ro.level, !ro.stats_only), ro);
        printed = true;
    }
    return status;
}

}  // namespace

int ministat_main(int argc, char** argv, const char* prog) {
    if (describe_requested()) return describe_fixed(ministat_description());
    MinistatArguments args;
    if (const auto done = parse_ministat_arguments(argc, argv, prog, args)) return *done;
    const data::ColumnFormat& format = args.format;
    const ResultsChoice& choice = args.choice;
    const std::vector<std::string>& metrics = args.metrics;
    const std::optional<data::BenchFilter>& filter = args.filter;
    const std::vector<SampleInput>& inputs = args.inputs;
    const report::MinistatLayout& ro = args.layout;
    const bool plain = std::strcmp(prog, "ministat") == 0;

    // Statistics are computed on each file's reading thread (each thread
    // touches only its own input's slot). Data sets with fewer than 3
    // values are reported below, before anything is printed.
    std::vector<std::vector<findings::MinistatStats>> input_stats(inputs.size());
    auto outcomes = read_inputs_parallel(
        inputs, format, choice, [&](size_t i, size_t k, LoadedSample& loaded) {
            if (input_stats[i].size() <= k) input_stats[i].resize(k + 1);
            data::Sample& s = loaded.sample;
            if (s.size() < 3) return;
            input_stats[i][k] = findings::ministat_stats(s);
        });
    bool whole = false;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const InputOutcome& o = outcomes[i];
        if (o.open_errno) {
            // ministat's own words and status (err(1, "Cannot open %s", n)):
            // scripts written for it test for exit 1.
            std::fprintf(stderr, "%s: Cannot open %s: %s\n", prog, escape_text(inputs[i].name).c_str(),
                         std::strerror(o.open_errno));
            return 1;
        }
        if (!o.error.empty()) {
            std::fprintf(stderr, "%s: %s\n", prog, escape_message(o.error).c_str());
            return 2;
        }
        whole |= o.results.has_value();
    }
    if (whole || filter) return many_reports(inputs, outcomes, metrics, choice.variants, filter, format, ro, prog);

    std::vector<data::Sample> samples;
    std::vector<findings::MinistatStats> stats;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        InputOutcome& o = outcomes[i];
        warn_left_out(prog, o, format);
        for (size_t k = 0; k < o.samples.size(); ++k) {
            if (o.samples[k].sample.size() < 3) {
                // The symlink says it as ministat does; gfxstat ministat with its name.
                std::fprintf(stderr, "%s%sDataset %s must contain at least 3 data points\n", plain ? "" : prog,
                             plain ? "" : ": ", escape_text(o.samples[k].sample.name).c_str());
                return 2;
            }
            samples.push_back(std::move(o.samples[k].sample));
            stats.push_back(input_stats[i][k]);
        }
    }
    if (samples.size() > static_cast<size_t>(kMinistatMaxSets))
        ministat_usage(prog, "Too many datasets (results files give one per variant; choose with --variant).");

    report::print_ministat_report(findings::ministat_table(std::move(samples), std::move(stats), ro.level, !ro.stats_only),
                                  ro);
    return 0;
}

}  // namespace gfxstat::cli
