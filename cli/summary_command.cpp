#include "cli/command_line.h"
#include "cli/summary_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "analysis/diagnostics.h"

#include "analysis/moments.h"
#include "analysis/order_stats.h"
#include "cli/report/diagnostic_words.h"
#include "cli/report/json_version.h"
#include "cli/sample_inputs.h"
#include "report/text_escape.h"

namespace gfxstat::cli {

using report::escape_message;
using report::escape_text;

namespace {

struct Row {
    std::string name;
    size_t n = 0;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0, mean = 0, stddev = 0;
    bool exact = true;
    size_t binary_tokens = 0;
    std::string metric, unit;  // results files only
    size_t excluded = 0;       // runs left out (failed, warm-up, ...)
    std::optional<analysis::SampleDiagnostics> diagnostics;
};

Row summarize(LoadedSample& loaded, bool diagnose) {
    data::Sample& s = loaded.sample;
    Row r;
    r.name = s.name;
    if (loaded.from_results) {
        r.metric = loaded.metric.name;
        r.unit = loaded.metric.unit;
        r.excluded = loaded.counts.excluded();
    }
    if (diagnose && s.size() > 0) {
        // In run order, before the quantile selections below reorder it.
        std::vector<double> values(s.size());
        const analysis::ScaledValues view = s.view();
        for (size_t i = 0; i < values.size(); ++i) values[i] = view.at(i);
        analysis::SampleLayout layout;
        layout.boot_of_value = loaded.layout.boot_of_value;
        layout.boot_ids = loaded.layout.boots;
        layout.firsts = loaded.layout.firsts;
        r.diagnostics = analysis::diagnose_sample(values, layout, {});
    }
    const auto m = analysis::moments(s.view());
    const auto range = analysis::range(s.view());
    r.n = m.n;
    r.mean = m.mean;
    r.stddev = m.stddev;
    r.min = range.min;
    r.max = range.max;
    r.q1 = analysis::quantile_type7(s.mutable_view(), 1, 4);
    r.median = analysis::median(s.mutable_view());
    r.q3 = analysis::quantile_type7(s.mutable_view(), 3, 4);
    r.exact = s.exact();
    r.binary_tokens = s.binary_tokens;
    return r;
}

// The table, then diagnostics in words under it for the samples they
// concern. Names and units come from data: escaped as they are printed.
void print_rows(const std::vector<Row>& rows, FILE* out) {
    std::fprintf(out, "%-*s %8s %13s %13s %13s %13s %13s %13s %13s\n", 1, "", "N", "Min", "Q1",
                 "Median", "Q3", "Max", "Avg", "Stddev");
    int k = 0;
    for (const Row& r : rows) {
        std::fprintf(out, "%c %8zu %13.8g %13.8g %13.8g %13.8g %13.8g %13.8g %13.8g  %s\n",
                     "x+*%#@O"[k % 7], r.n, r.min, r.q1, r.median, r.q3, r.max, r.mean, r.stddev,
                     escape_text(r.name).c_str());
        ++k;
    }
    bool first = true;
    for (const Row& r : rows) {
        if (!r.diagnostics) continue;
        for (const std::string& s : sample_findings("'" + r.name + "'", *r.diagnostics, r.unit, 0.95)) {
            if (first) std::fprintf(out, "\n");
            for (const std::string& line : wrap_words(escape_text(s), 76, 0, 2))
                std::fprintf(out, "%s\n", line.c_str());
            first = false;
        }
    }
}

nlohmann::json number(double v) {  // NaN (stddev of one value) becomes null
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

}  // namespace

void render_summary_text(std::vector<LoadedSample>& samples, bool diagnose, FILE* out) {
    std::vector<Row> rows;
    for (LoadedSample& s : samples) rows.push_back(summarize(s, diagnose));
    print_rows(rows, out);
}

int summary_main(int argc, char** argv) {
    CLI::App app{"Summary statistics: one data set per column file, or per variant of a results file.",
                 "gfxstat summary"};
    bool json = false, no_diagnostics = false;
    data::ColumnFormat format;
    std::vector<std::string> files;
    app.add_flag("--json", json, "machine output: full precision (shortest round-trip)");
    app.add_flag("--no-diagnostics", no_diagnostics, "skip bimodality, drift, outlier and boot diagnostics");
    app.add_option("-C,--column", format.column, "column to read (1-based)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("-d,--delimiters", format.delimiters, "field delimiter characters")
        ->check([](const std::string& s) { return s.empty() ? "empty delimiter string" : ""; });
    ResultsChoice choice;
    app.add_option("--metric", choice.metric, "the metric to take from results files");
    app.add_option("--variant", choice.variants,
                   "variants to take from results files (default: all)")
        ->allow_extra_args(false);  // one value per --variant; the rest are files
    app.add_option("files", files,
                   "column files or results files ('-' or none: standard input)");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;

    std::vector<SampleInput> inputs;
    if (files.empty()) files.push_back("-");
    for (const auto& f : files) inputs.push_back({f, f == "-" ? "<stdin>" : f});
    std::vector<std::vector<Row>> input_rows(inputs.size());
    auto outcomes = read_inputs_parallel(inputs, format, choice,
                                         [&](size_t i, size_t k, LoadedSample& loaded) {
                                             if (input_rows[i].size() <= k) input_rows[i].resize(k + 1);
                                             if (loaded.sample.size() > 0)
                                                 input_rows[i][k] = summarize(loaded, !no_diagnostics);
                                         });
    for (auto& o : outcomes) {
        if (!o.error.empty()) {
            std::fprintf(stderr, "gfxstat summary: %s\n", escape_message(o.error).c_str());
            return 2;
        }
    }
    std::vector<Row> rows;
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
                                 escape_text(s.sample.name).c_str(), format.column);
                return 2;
            }
            rows.push_back(input_rows[i][k]);
        }
    }

    if (json) {
        nlohmann::json out;
        add_gfxstat_version(out);
        out["inputs"] = nlohmann::json::array();
        for (const Row& r : rows) {
            nlohmann::json j;
            j["name"] = r.name;
            j["n"] = r.n;
            j["min"] = number(r.min);
            j["q1"] = number(r.q1);
            j["median"] = number(r.median);
            j["q3"] = number(r.q3);
            j["max"] = number(r.max);
            j["mean"] = number(r.mean);
            j["stddev"] = number(r.stddev);
            // exact: every value was held as an exact decimal, so mean and
            // stddev carry no error from parsing. When false, binary_tokens
            // counts the tokens only a double could hold (hex floats, more
            // than 18 significant digits); if it is 0, the values spanned
            // too many powers of ten for 64-bit significands.
            j["exact"] = r.exact;
            j["binary_tokens"] = r.binary_tokens;
            if (!r.metric.empty()) {
                j["metric"] = r.metric;
                j["unit"] = r.unit;
                j["runs_excluded"] = r.excluded;
            }
            if (r.diagnostics) j["diagnostics"] = diagnostics_json(*r.diagnostics);
            out["inputs"].push_back(std::move(j));
        }
        // A file name need not be UTF-8: its bad bytes become U+FFFD, as
        // in show's and compare's JSON, rather than an abort.
        std::printf("%s\n", out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return 0;
    }

    print_rows(rows, stdout);
    return 0;
}

}  // namespace gfxstat::cli
