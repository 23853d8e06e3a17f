// SPDX-License-Identifier: MIT
// gfxstat summary: reads the data sets (cli/sample_inputs.h), summarises
// each (findings/sample_summary.h) and prints a table per metric
// (report/summary_text.h) or JSON (report/summary_json.h).
#include "cli/command_line.h"
#include "cli/summary_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/sample_inputs.h"
#include "cli/store_option.h"
#include "findings/sample_summary.h"
#include "report/summary_json.h"
#include "report/summary_text.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

findings::SampleSummary summarize(LoadedSample& loaded, bool diagnose) {
    if (!loaded.from_results) return findings::summarize_sample(loaded.sample, loaded.layout, nullptr, diagnose);
    const findings::SampleOrigin origin{loaded.metric, loaded.counts.excluded()};
    return findings::summarize_sample(loaded.sample, loaded.layout, &origin, diagnose);
}

}  // namespace

void render_summary_text(std::vector<LoadedSample>& samples, bool diagnose, FILE* out) {
    std::vector<findings::SampleSummary> rows;
    for (LoadedSample& s : samples) rows.push_back(summarize(s, diagnose));
    report::print_summary_tables(rows, out, text::kDefaultWidth);
}

namespace {

// Every metric of every input, for a results file of several metrics and
// no --metric (a single metric is read by read_inputs_parallel, in one
// pass). A metric that a variant never reported is left out of that
// variant's rows, and said on stderr.
std::vector<InputOutcome> read_every_metric(const std::vector<SampleInput>& inputs, const data::ColumnFormat& format,
                                            const ResultsChoice& choice) {
    std::vector<InputOutcome> out(inputs.size());
    const bool qualify = inputs.size() > 1;
    for (size_t i = 0; i < inputs.size(); ++i) {
        try {
            RawInput raw = read_input(inputs[i], format);
            out[i].notes = std::move(raw.notes);
            if (raw.column) {
                LoadedSample s;
                s.sample = std::move(raw.column->sample);
                s.source = inputs[i].name;
                s.column = inputs[i].column ? static_cast<int>(*inputs[i].column) : format.column;
                s.lines_without_column = raw.column->lines_without_column;
                s.first_line_without_column = raw.column->first_line_without_column;
                out[i].samples.push_back(std::move(s));
                continue;
            }
            for (data::MetricSelection& sel : data::select_all_metrics(*raw.results, inputs[i].name, choice.variants))
                for (LoadedSample& s : input_samples(std::move(sel), inputs[i], qualify)) {
                    if (s.sample.size() == 0) {
                        std::fprintf(stderr, "gfxstat summary: note: %s: no samples of %s; left out\n",
                                     escape_text(s.sample.name).c_str(), escape_text(s.metric.name).c_str());
                        continue;
                    }
                    out[i].samples.push_back(std::move(s));
                }
        } catch (const std::exception& e) {  // InputError, and a file that cannot be opened
            out[i].samples.clear();
            out[i].error = e.what();
        }
    }
    return out;
}

// Whether input `in` is a results file declaring several metrics: then
// summary summarises each (today's refusal to choose becomes a table per metric).
bool several_metrics(const SampleInput& in, const data::ColumnFormat& format) {
    try {
        const RawInput raw = read_input(in, format);
        return raw.results && raw.results->metrics().size() > 1;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace

int summary_main(int argc, char** argv) {
    CLI::App app{"Summary statistics: one data set per column file, or per variant of a results file "
                 "(a table per metric when it holds several).",
                 "gfxstat summary"};
    bool json = false, no_diagnostics = false;
    int width = text::kDefaultWidth;
    data::ColumnFormat format;
    std::vector<std::string> files;
    app.add_flag("--json", json, "machine output: full precision (shortest round-trip)");
    app.add_flag("--no-diagnostics", no_diagnostics, "skip bimodality, drift, outlier and boot diagnostics");
    app.add_option("--width", width, "text: lines at most this many columns, 40 to 1000 (default 72: a mail reply)")
        ->check(CLI::Range(text::kMinWidth, text::kMaxWidth));
    app.add_option("-C,--column", format.column, "column to read (1-based)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("-d,--delimiters", format.delimiters, "field delimiter characters")
        ->check([](const std::string& s) { return s.empty() ? "empty delimiter string" : ""; });
    ResultsChoice choice;
    app.add_option("--metric", choice.metric, "the metric to take from results files (default: every metric)");
    app.add_option("--variant", choice.variants,
                   "variants to take from results files (default: all)")
        ->allow_extra_args(false);  // one value per --variant; the rest are files
    app.add_option("files", files,
                   "column files or results files ('-' or none: standard input); LABEL=FILE names "
                   "its data set, FILE:N reads its column N; store:SELECTION reads stored runs (docs/store.md)");
    std::string store;
    add_store_option(app, store);
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    use_store_option(store);

    std::vector<SampleInput> inputs;
    if (files.empty()) files.push_back("-");
    try {
        for (const auto& f : files) {
            inputs.push_back(parse_sample_argument(f));
            if (inputs.back().path == "-") inputs.back().name = "<stdin>";
        }
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "gfxstat summary: %s\n", escape_message(e.what()).c_str());
        return 2;
    }
    std::vector<std::vector<findings::SampleSummary>> input_rows(inputs.size());
    auto outcomes = read_inputs_parallel(inputs, format, choice,
                                         [&](size_t i, size_t k, LoadedSample& loaded) {
                                             if (input_rows[i].size() <= k) input_rows[i].resize(k + 1);
                                             if (loaded.sample.size() > 0)
                                                 input_rows[i][k] = summarize(loaded, !no_diagnostics);
                                         });
    // Without --metric, a results file of several metrics is summarised
    // metric by metric: read again, every metric at once (standard input
    // cannot be read twice, so there the refusal stands).
    bool every_metric = false;
    if (choice.metric.empty())
        for (size_t i = 0; i < outcomes.size() && !every_metric; ++i)
            every_metric = !outcomes[i].error.empty() && inputs[i].path != "-" && several_metrics(inputs[i], format);
    if (every_metric) {
        outcomes = read_every_metric(inputs, format, choice);
        for (size_t i = 0; i < outcomes.size(); ++i) {
            input_rows[i].clear();
            for (LoadedSample& s : outcomes[i].samples) input_rows[i].push_back(summarize(s, !no_diagnostics));
        }
    }
    for (auto& o : outcomes) {
        if (!o.error.empty()) {
            std::fprintf(stderr, "gfxstat summary: %s\n", escape_message(o.error).c_str());
            return 2;
        }
    }
    std::vector<findings::SampleSummary> rows;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        warn_left_out("gfxstat summary", outcomes[i], format);
        for (size_t k = 0; k < outcomes[i].samples.size(); ++k) {
            const LoadedSample& s = outcomes[i].samples[k];
            if (s.sample.size() == 0) {
                if (s.from_results)
                    std::fprintf(stderr, "gfxstat summary: %s: no samples of %s\n",
                                 escape_text(s.sample.name).c_str(),
                                 escape_text(s.metric.name).c_str());
                else
                    std::fprintf(stderr, "gfxstat summary: %s: no numbers in column %d\n",
                                 escape_text(s.source).c_str(), s.column);
                return 2;
            }
            rows.push_back(input_rows[i][k]);
        }
    }

    if (json) {
        std::printf("%s\n", report::summary_json(rows, every_metric).c_str());
        return 0;
    }

    report::print_summary_tables(rows, stdout, width);
    return 0;
}

}  // namespace gfxstat::cli
