// --from gbench: the JSON Google Benchmark writes (--benchmark_format=json
// or --benchmark_out), usually with --benchmark_repetitions. The whole file
// is one run: one process measured every benchmark, each repetition an
// "iteration" entry. A benchmark's repetitions become the values of two
// metrics, "<name>" (real_time) and "<name>:cpu_time", in file order and in
// the file's time_unit. The "aggregate" entries (mean, median, stddev, cv,
// BigO) are computed from those repetitions and are not imported; entries
// that report error_occurred measured nothing and are left out.
#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

#include "data/importers.h"
#include "data/input_error.h"

namespace gfxstat::data {

namespace {

using nlohmann::json;

// JSON helpers. import_hyperfine.cpp holds the same few; they stay private
// to each importer because the build lists no shared file for them.

const char* json_kind(const json& v) {
    switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "a value";
    }
}

[[noreturn]] void expected(const std::string& path, const std::string& where, const std::string& what,
                           const json& found) {
    throw input_error(path, 0, where + ": expected " + what + ", found " + json_kind(found));
}

// nlohmann's message without its "[json.exception...] parse error at line
// L, column C: " prefix: the line is given the way every importer gives it.
std::string json_message(const nlohmann::json::exception& e) {
    std::string_view m = e.what();
    const size_t tag = m.find("] ");
    if (tag != std::string_view::npos) m.remove_prefix(tag + 2);
    if (m.starts_with("parse error")) {
        const size_t colon = m.find(": ");
        if (colon != std::string_view::npos) m.remove_prefix(colon + 2);
    }
    return std::string(m);
}

json parse_json(const std::string& path, const std::string& text) {
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        // e.byte counts from 1 and is the byte that could not be read; one
        // past the text at end of input, where the last line is the one to
        // name rather than the empty one after its newline.
        size_t end = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
        if (end == text.size() && end > 0 && text[end - 1] == '\n') --end;
        const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
        throw input_error(path, line, "invalid JSON: " + json_message(e));
    } catch (const json::exception& e) {
        // A number beyond the double range ("number overflow parsing '1e400'",
        // which names the token); nlohmann gives no position for it.
        throw input_error(path, 0, "invalid JSON: " + json_message(e));
    }
}

// nlohmann keeps a JSON number as a double (or an integer), not as the text
// written. The text is recovered with std::to_chars, which writes the
// shortest decimal that reads back as the same double. Google Benchmark
// prints times with 17 significant digits ("1.2345000000000000e+03"), a
// longer spelling of that same double, so nothing is lost that the file
// held; the shorter text is the one a person would have written. Integers
// (older versions rounded times to integers) are exact as they are.
std::string json_number_text(const std::string& path, const std::string& where, const json& v) {
    char buf[64];
    std::to_chars_result r{};
    if (v.is_number_unsigned()) r = std::to_chars(buf, buf + sizeof buf, v.get<uint64_t>());
    else if (v.is_number_integer()) r = std::to_chars(buf, buf + sizeof buf, v.get<int64_t>());
    else if (v.is_number_float()) r = std::to_chars(buf, buf + sizeof buf, v.get<double>());
    else expected(path, where, "a number", v);
    return std::string(buf, r.ptr);
}

NumberToken json_number(const std::string& path, const std::string& where, const json& v) {
    const NumberToken t = parse_number_token(json_number_text(path, where, v));
    // nlohmann refuses non-finite numbers already; kept as a guard.
    if (t.status != TokenStatus::decimal && t.status != TokenStatus::binary)
        throw input_error(path, 0, where + ": " + describe(t.status));
    return t;
}

// A member that may be absent; when present it must be of the kind asked.
const json* optional_member(const std::string& path, const std::string& where, const json& object,
                            const char* name, bool (json::*is_kind)() const noexcept, const char* kind) {
    const auto it = object.find(name);
    if (it == object.end()) return nullptr;
    if (!((*it).*is_kind)()) expected(path, where + "." + name, kind, *it);
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
    if (!context->is_object()) expected(path, "context", "an object", *context);
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

}  // namespace

void import_gbench(const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::string text = import_read_file(path);
    const json doc = parse_json(path, text);
    if (!doc.is_object()) expected(path, "top level", "an object (Google Benchmark JSON output)", doc);
    const auto entries = doc.find("benchmarks");
    if (entries == doc.end())
        throw input_error(path, 0, "benchmarks: missing (is this Google Benchmark's --benchmark_format=json output?)");
    if (!entries->is_array()) expected(path, "benchmarks", "an array", *entries);

    // Everything is read before anything is added, so that a bad entry
    // leaves `out` as it was.
    std::vector<Benchmark> benchmarks;  // in order of first appearance
    size_t errored = 0, aggregates = 0;
    for (size_t i = 0; i < entries->size(); ++i) {
        const json& e = (*entries)[i];
        const std::string where = "benchmarks[" + std::to_string(i) + "]";
        if (!e.is_object()) expected(path, where, "an object", e);
        const auto name = e.find("name");
        if (name == e.end()) throw input_error(path, 0, where + ".name: missing");
        if (!name->is_string()) expected(path, where + ".name", "a string", *name);
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
        if (!unit->is_string()) expected(path, where + ".time_unit", "a string", *unit);
        const std::string u = unit->get<std::string>();
        if (!known_unit(u))
            throw input_error(path, 0, where + ".time_unit: expected \"ns\", \"us\", \"ms\" or \"s\", found " + quote_token(u));
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
        it->real_time.push_back(json_number(path, where + ".real_time", e["real_time"]));
        it->cpu_time.push_back(json_number(path, where + ".cpu_time", e["cpu_time"]));
    }
    if (benchmarks.empty())
        throw input_error(path, 0, "no benchmark repetitions to import (" + std::to_string(errored) + " errored, " +
                                       std::to_string(aggregates) + " aggregate entries)");

    std::map<std::string, std::string> fields;
    RunRecord run;
    read_context(path, doc, fields, run.start);

    struct Metric {
        MetricValues values;
        std::string unit;
    };
    std::vector<Metric> metrics;
    for (Benchmark& b : benchmarks) {
        metrics.push_back({MetricValues{b.name, std::move(b.real_time), true}, b.unit});
        metrics.push_back({MetricValues{b.name + ":cpu_time", std::move(b.cpu_time), true}, b.unit});
    }
    if (!options.metric.empty()) {
        auto keep = std::find_if(metrics.begin(), metrics.end(),
                                 [&](const Metric& m) { return m.values.name == options.metric; });
        if (keep == metrics.end()) {
            std::string names;
            for (const Metric& m : metrics) names += (names.empty() ? "" : ", ") + m.values.name;
            throw input_error(path, 0, "no metric '" + options.metric + "' in this file; it has: " + names);
        }
        Metric kept = std::move(*keep);
        metrics.clear();
        metrics.push_back(std::move(kept));
    }

    for (Metric& m : metrics) {
        MetricInfo info;
        info.name = m.values.name;
        info.unit = m.unit;
        info.direction = Direction::lower_is_better;
        import_declare_metric(out, path, info, options);
        run.metrics.push_back(std::move(m.values));
    }

    run.variant = options.label.empty() ? default_label(path) : options.label;
    run.run = out.next_run_index(run.variant);
    run.environment = import_environment(out, std::move(fields), options);
    run.source = path;
    import_add_run(out, path, 0, std::move(run));
}

}  // namespace gfxstat::data
