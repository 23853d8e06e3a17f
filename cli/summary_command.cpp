// SPDX-License-Identifier: MIT
#include "cli/command_line.h"
#include "cli/summary_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "analysis/diagnostics.h"

#include "analysis/moments.h"
#include "analysis/order_stats.h"
#include "report/diagnostic_words.h"
#include "report/sample_keys.h"
#include "report/json_version.h"
#include "cli/sample_inputs.h"
#include "text/fit_table.h"
#include "text/readable_units.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

struct Row {
    std::string name;
    size_t n = 0;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0, mean = 0, stddev = 0;
    bool exact = true;
    size_t binary_tokens = 0;
    std::string metric, unit;  // results files only
    data::Direction direction = data::Direction::unknown;
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
        r.direction = loaded.metric.direction;
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

// The table of one metric's rows, no wider than `width`: numbers with as
// many digits as fit (8, as ministat prints, down to 4), in one readable
// unit for the table (from the first row's mean: report/readable_units.h),
// each row's name after it when every name fits there, else named by its
// key ("x", "+", ... or numbers past 7 rows) in lines above the table.
// Names and units come from data: escaped as they are printed.
void print_table(const std::vector<Row>& rows, const text::DisplayUnit& du, size_t width, FILE* out) {
    const SampleKeys keys(rows.size());
    static const char* kHead[] = {"N", "Min", "Q1", "Median", "Q3", "Max", "Avg", "Stddev"};
    std::vector<std::vector<std::string>> cells;
    std::vector<size_t> w;
    size_t total = 0;
    for (int digits = 8;; --digits) {
        cells.clear();
        w.assign(std::size(kHead), 0);
        for (size_t c = 0; c < std::size(kHead); ++c) w[c] = std::string(kHead[c]).size();
        for (const Row& r : rows) {
            std::vector<std::string> line = {std::to_string(r.n)};
            for (double v : {r.min, r.q1, r.median, r.q3, r.max, r.mean, r.stddev})
                line.push_back(text::scaled_number(v, du, digits));
            for (size_t c = 0; c < line.size(); ++c) w[c] = std::max(w[c], line[c].size());
            cells.push_back(std::move(line));
        }
        total = keys.width();
        for (size_t c = 0; c < w.size(); ++c) total += (c ? 2 : 1) + w[c];
        if (total <= width || digits == 4) break;
    }
    std::vector<std::string> names;
    size_t widest_name = 0;
    for (const Row& r : rows) {
        names.push_back(escape_text(r.name));
        widest_name = std::max(widest_name, text::display_width(names.back()));
    }
    const bool names_after = total + 2 + widest_name <= width;
    if (!names_after)
        for (size_t i = 0; i < rows.size(); ++i) {
            const std::vector<std::string> pieces =
                text::split_columns(names[i], width > keys.width() + 1 ? width - keys.width() - 1 : 1);
            for (size_t j = 0; j < pieces.size(); ++j)
                std::fprintf(out, "%s %s\n", j ? std::string(keys.width(), ' ').c_str() : keys.key(i).c_str(),
                             pieces[j].c_str());
        }
    if (total > width) {
        // Too narrow even at 4 digits: the columns over several tables.
        text::TextTable t;
        t.head = {""};
        t.head.insert(t.head.end(), std::begin(kHead), std::end(kHead));
        for (size_t i = 0; i < rows.size(); ++i) {
            t.rows.push_back({keys.key(i)});
            t.rows.back().insert(t.rows.back().end(), cells[i].begin(), cells[i].end());
        }
        for (const std::string& line : text::fit_columns(t, width)) std::fprintf(out, "%s\n", line.c_str());
        return;
    }
    std::string head(keys.width(), ' ');
    for (size_t c = 0; c < w.size(); ++c) head += std::string(c ? 2 : 1, ' ') + text::pad_left(kHead[c], w[c]);
    std::fprintf(out, "%s\n", head.c_str());
    for (size_t i = 0; i < rows.size(); ++i) {
        std::string line = keys.key(i);
        for (size_t c = 0; c < w.size(); ++c) line += std::string(c ? 2 : 1, ' ') + text::pad_left(cells[i][c], w[c]);
        if (names_after) line += "  " + names[i];
        std::fprintf(out, "%s\n", line.c_str());
    }
}

const char* direction_words(data::Direction d) {
    switch (d) {
        case data::Direction::lower_is_better: return "lower is better";
        case data::Direction::higher_is_better: return "higher is better";
        case data::Direction::unknown: break;
    }
    return "direction unknown";
}

// Rows of one metric (or of column files): its heading when there are
// several metrics or its unit was scaled, the table, then diagnostics in
// words under it for the samples they concern.
void print_rows(const std::vector<Row>& rows, FILE* out, int width = text::kDefaultWidth, bool heading = false) {
    const size_t limit = static_cast<size_t>(std::max(width, text::kMinWidth));
    const text::DisplayUnit du =
        text::readable_unit(rows.empty() ? "" : rows[0].unit, rows.empty() ? 0 : rows[0].mean);
    if (!rows.empty() && (heading || du.scaled())) {
        std::string head = rows[0].metric.empty() ? std::string("value") : rows[0].metric;
        head += " (";
        if (!du.unit.empty()) head += du.unit + (du.scaled() ? ", recorded in " + rows[0].unit : "") + ", ";
        head += std::string(direction_words(rows[0].direction)) + ")";
        for (const std::string& line : text::wrap_text(escape_text(head), limit, 0, 2))
            std::fprintf(out, "%s\n", line.c_str());
    }
    print_table(rows, du, limit, out);
    bool first = true;
    for (const Row& r : rows) {
        if (!r.diagnostics) continue;
        for (const std::string& s : sample_findings("'" + r.name + "'", *r.diagnostics, r.unit, 0.95)) {
            if (first) std::fprintf(out, "\n");
            for (const std::string& line : text::wrap_text(escape_text(s), limit, 0, 2))
                std::fprintf(out, "%s\n", line.c_str());
            first = false;
        }
    }
}

// Rows grouped by metric, in order of first appearance.
std::vector<std::vector<Row>> by_metric(const std::vector<Row>& rows) {
    std::vector<std::vector<Row>> groups;
    for (const Row& r : rows) {
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const std::vector<Row>& g) { return g[0].metric == r.metric; });
        if (it == groups.end()) groups.push_back({r});
        else it->push_back(r);
    }
    return groups;
}

nlohmann::json number(double v) {  // NaN (stddev of one value) becomes null
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

}  // namespace

void render_summary_text(std::vector<LoadedSample>& samples, bool diagnose, FILE* out) {
    std::vector<Row> rows;
    for (LoadedSample& s : samples) rows.push_back(summarize(s, diagnose));
    const auto groups = by_metric(rows);
    for (size_t i = 0; i < groups.size(); ++i) {
        if (i) std::fprintf(out, "\n");
        print_rows(groups[i], out, text::kDefaultWidth, groups.size() > 1);
    }
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

nlohmann::json row_json(const Row& r) {
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
    return j;
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
                   "its data set, FILE:N reads its column N");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;

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
    std::vector<std::vector<Row>> input_rows(inputs.size());
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
                                 escape_text(s.source).c_str(), s.column);
                return 2;
            }
            rows.push_back(input_rows[i][k]);
        }
    }

    if (json) {
        nlohmann::json out;
        add_gfxstat_version(out);
        out["inputs"] = nlohmann::json::array();
        for (const Row& r : rows) out["inputs"].push_back(row_json(r));
        // Several metrics: the same rows again, an array per metric.
        if (every_metric) {
            out["metrics"] = nlohmann::json::array();
            for (const std::vector<Row>& g : by_metric(rows)) {
                nlohmann::json m = {{"metric", g[0].metric}, {"unit", g[0].unit},
                                    {"direction", data::direction_name(g[0].direction)}};
                m["inputs"] = nlohmann::json::array();
                for (const Row& r : g) m["inputs"].push_back(row_json(r));
                out["metrics"].push_back(std::move(m));
            }
        }
        // A file name need not be UTF-8: its bad bytes become U+FFFD, as
        // in show's and compare's JSON, rather than an abort.
        std::printf("%s\n", out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return 0;
    }

    const auto groups = by_metric(rows);
    for (size_t i = 0; i < groups.size(); ++i) {
        if (i) std::fprintf(stdout, "\n");
        print_rows(groups[i], stdout, width, groups.size() > 1);
    }
    return 0;
}

}  // namespace gfxstat::cli
