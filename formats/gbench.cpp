// SPDX-License-Identifier: MIT
// --from gbench: the JSON Google Benchmark writes (--benchmark_format=json
// or --benchmark_out), usually with --benchmark_repetitions. The whole file
// is one run: one process measured every benchmark, each repetition an
// "iteration" entry. A benchmark's repetitions become the values of two
// metrics, "<name>" (real_time) and "<name>:cpu_time", in file order and in
// the file's time_unit. The "aggregate" entries (mean, median, stddev, cv,
// BigO) are computed from those repetitions and are not imported; entries
// that report error_occurred measured nothing and are left out.
//
// Both ways in read this one grammar: `import --from gbench` a saved file,
// and `run --parser gbench -- ./bench --benchmark_format=json` each run's
// stdout (one run of gfxstat = one process = one run record, its
// repetitions the values of its metrics).
#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

#include "formats/format_list.h"
#include "formats/import_json.h"
#include "formats/json_document.h"
#include "formats/parser_support.h"
#include "formats/import_support.h"
#include "data/input_error.h"

namespace gfxstat::formats {

// The results model and the input errors this importer fills.
using namespace gfxstat::data;

namespace {

using nlohmann::json;

// A member that may be absent; when present it must be of the kind asked.
const json* optional_member(const std::string& path, const std::string& where, const json& object,
                            const char* name, bool (json::*is_kind)() const noexcept, const char* kind) {
    const auto it = object.find(name);
    if (it == object.end()) return nullptr;
    if (!((*it).*is_kind)()) json_expected(path, where + "." + name, kind, *it);
    return &*it;
}

// One benchmark's repetitions: the values of its two metrics.
struct Benchmark {
    std::string name;
    std::string unit;
    std::vector<NumberToken> real_time, cpu_time;
};

// The time units Google Benchmark writes (benchmark::TimeUnit).
bool known_unit(const std::string& u) { return u == "ns" || u == "us" || u == "ms" || u == "s"; }

// context -> the run's environment fields and start time.
void read_context(const std::string& path, const json& doc, std::map<std::string, std::string>& fields,
                  std::string& start) {
    const auto context = doc.find("context");
    if (context == doc.end()) return;
    if (!context->is_object()) json_expected(path, "context", "an object", *context);
    const std::string where = "context";
    if (const json* v = optional_member(path, where, *context, "host_name", &json::is_string, "a string"))
        fields["hostname"] = v->get<std::string>();
    if (const json* v = optional_member(path, where, *context, "date", &json::is_string, "a string"))
        start = v->get<std::string>();
    if (const json* v = optional_member(path, where, *context, "num_cpus", &json::is_number, "a number"))
        fields["gbench_num_cpus"] = json_number_text(path, where + ".num_cpus", *v);
    if (const json* v = optional_member(path, where, *context, "mhz_per_cpu", &json::is_number, "a number"))
        fields["gbench_mhz_per_cpu"] = json_number_text(path, where + ".mhz_per_cpu", *v);
    if (const json* v = optional_member(path, where, *context, "cpu_scaling_enabled", &json::is_boolean, "a boolean"))
        fields["cpu_scaling"] = v->get<bool>() ? "enabled" : "disabled";
    if (const json* v = optional_member(path, where, *context, "library_build_type", &json::is_string, "a string"))
        fields["gbench_build_type"] = v->get<std::string>();
}

// One process's measurements: every benchmark's repetitions as the values
// of its two metrics, in order of first appearance, and the context.
struct GbenchMetric {
    std::string name, unit;
    bool primary;
    std::vector<NumberToken> values;
};
struct GbenchRun {
    std::vector<GbenchMetric> metrics;
    std::map<std::string, std::string> fields;  // the run's environment
    std::string start;                          // context.date
};

// The grammar, for both ways in: `source` names the input in errors (the
// file, or "stdout"). Throws InputError.
GbenchRun read_gbench(const std::string& source, std::string_view text) {
    const std::string& path = source;
    const json doc = parse_json_file(path, text);
    const json& entries = json_top_array(path, doc, "Google Benchmark JSON output", "benchmarks",
                                         "is this Google Benchmark's --benchmark_format=json output?");

    std::vector<Benchmark> benchmarks;  // in order of first appearance
    size_t errored = 0, aggregates = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
        const json& e = entries[i];
        const std::string where = "benchmarks[" + std::to_string(i) + "]";
        if (!e.is_object()) json_expected(path, where, "an object", e);
        const auto name = e.find("name");
        if (name == e.end()) throw input_error(path, 0, where + ".name: missing");
        if (!name->is_string()) json_expected(path, where + ".name", "a string", *name);
        // Entries without run_type come from versions before aggregates
        // were marked; they are iterations.
        if (const json* type = optional_member(path, where, e, "run_type", &json::is_string, "a string")) {
            if (*type == "aggregate") {
                ++aggregates;
                continue;
            }
            if (*type != "iteration")
                throw input_error(path, 0, where + ".run_type: expected \"iteration\" or \"aggregate\", found " +
                                               quote_token(type->get<std::string>()));
        }
        const json* error = optional_member(path, where, e, "error_occurred", &json::is_boolean, "a boolean");
        if (error && error->get<bool>()) {
            ++errored;
            continue;
        }

        const auto unit = e.find("time_unit");
        if (unit == e.end()) throw input_error(path, 0, where + ".time_unit: missing");
        if (!unit->is_string()) json_expected(path, where + ".time_unit", "a string", *unit);
        const std::string u = unit->get<std::string>();
        if (!known_unit(u))
            throw input_error(path, 0,
                              where + ".time_unit: expected \"ns\", \"us\", \"ms\" or \"s\", found " + quote_token(u));
        for (const char* member : {"real_time", "cpu_time"})
            if (!e.contains(member)) throw input_error(path, 0, where + "." + member + ": missing");

        const std::string n = name->get<std::string>();
        auto it = std::find_if(benchmarks.begin(), benchmarks.end(), [&](const Benchmark& b) { return b.name == n; });
        if (it == benchmarks.end()) {
            benchmarks.push_back(Benchmark{n, u, {}, {}});
            it = benchmarks.end() - 1;
        } else if (it->unit != u) {
            throw input_error(path, 0, where + ".time_unit: " + quote_token(u) + ", but earlier repetitions of " + n +
                                           " are in " + quote_token(it->unit));
        }
        it->real_time.push_back(json_number(path, where + ".real_time", e.at("real_time")));
        it->cpu_time.push_back(json_number(path, where + ".cpu_time", e.at("cpu_time")));
    }
    if (benchmarks.empty())
        throw input_error(path, 0, "no benchmark repetitions to import (" + std::to_string(errored) + " errored, " +
                                       std::to_string(aggregates) + " aggregate entries)");

    GbenchRun run;
    read_context(path, doc, run.fields, run.start);
    // The wall-clock time is what Google Benchmark reports first and what
    // its compare.py compares; the CPU time is a by-product.
    for (Benchmark& b : benchmarks) {
        run.metrics.push_back({b.name, b.unit, true, std::move(b.real_time)});
        run.metrics.push_back({b.name + ":cpu_time", b.unit, false, std::move(b.cpu_time)});
    }
    return run;
}

// run --parser gbench: the program's stdout is that JSON
// (--benchmark_format=json); one gfxstat run is one process, and its
// repetitions (--benchmark_repetitions) are the values of the run's metrics.
ParseResult parse_gbench(const RunOutput& o) {
    ParseResult r;
    try {
        GbenchRun run = read_gbench("stdout", o.out);
        for (GbenchMetric& m : run.metrics)
            r.metrics.push_back(parsing::parsed_metric(std::move(m.name), std::move(m.unit),
                                                       Direction::lower_is_better, m.primary, std::move(m.values)));
        r.environment = std::move(run.fields);
    } catch (const InputError& e) {
        r = parsing::stdout_failure(e.what(), o.out);
    }
    return r;
}

std::unique_ptr<OutputParser> make_gbench(const formats::ParserOptions& o) {
    // Metric names come from the benchmarks' names.
    return formats::parsing::parser_without_options(o, "gbench", {}, parse_gbench);
}

}  // namespace

void import_gbench(const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::string text = read_whole_file(path);
    // Everything is read before anything is added, so that a bad entry
    // leaves `out` as it was.
    GbenchRun parsed = read_gbench(path, text);
    std::vector<GbenchMetric>& metrics = parsed.metrics;
    if (!options.metric.empty()) {
        auto keep = std::find_if(metrics.begin(), metrics.end(),
                                 [&](const GbenchMetric& m) { return m.name == options.metric; });
        if (keep == metrics.end()) {
            std::string names;
            for (const GbenchMetric& m : metrics) names += (names.empty() ? "" : ", ") + m.name;
            throw input_error(path, 0, "no metric '" + options.metric + "' in this file; it has: " + names);
        }
        GbenchMetric kept = std::move(*keep);
        metrics.clear();
        metrics.push_back(std::move(kept));
    }

    RunRecord run;
    run.start = parsed.start;
    for (GbenchMetric& m : metrics) {
        MetricInfo info;
        info.name = m.name;
        info.unit = m.unit;
        info.direction = Direction::lower_is_better;
        info.primary = m.primary;
        import_declare_metric(out, path, info, options);
        run.metrics.push_back(MetricValues{SharedString(m.name), std::move(m.values), true});
    }

    run.variant = options.label.empty() ? default_label(path) : options.label;
    run.run = out.next_run_index(run.variant);
    run.environment = import_environment(out, std::move(parsed.fields), options);
    run.source = path;
    import_add_run(out, path, 0, std::move(run));
}

const Format& gbench_format() {
    static const Format f{"gbench", "Google Benchmark --benchmark_format=json: every repetition", make_gbench,
                          import_gbench};
    return f;
}

}  // namespace gfxstat::formats
