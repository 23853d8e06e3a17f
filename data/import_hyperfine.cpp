// --from hyperfine: the file `hyperfine --export-json` writes. Each entry of
// "results" is one benchmarked command, imported as a variant labelled by
// the command's text (or by the name --command-name gave it); each element
// of its "times" is one run -- hyperfine starts the command afresh for every
// timing -- with metric "time" in seconds. The summary members (mean,
// stddev, median, min, max, user, system) are aggregates of those times and
// are not imported. Parameters of a scan (-P / -L) become tags of the runs'
// environment, next to the --tag pairs.
#include <algorithm>
#include <charconv>
#include <limits>
#include <nlohmann/json.hpp>

#include "data/importers.h"
#include "data/input_error.h"

namespace gfxstat::data {

namespace {

using nlohmann::json;

// JSON helpers. import_gbench.cpp holds the same few; they stay private to
// each importer because the build lists no shared file for them.

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
// shortest decimal that reads back as the same double: hyperfine (serde_json,
// which prints the shortest round-trip form too) wrote exactly that text, so
// the exact decimal survives. Integers are exact as they are.
NumberToken json_number(const std::string& path, const std::string& where, const json& v) {
    char buf[64];
    std::to_chars_result r{};
    if (v.is_number_unsigned()) r = std::to_chars(buf, buf + sizeof buf, v.get<uint64_t>());
    else if (v.is_number_integer()) r = std::to_chars(buf, buf + sizeof buf, v.get<int64_t>());
    else if (v.is_number_float()) r = std::to_chars(buf, buf + sizeof buf, v.get<double>());
    else expected(path, where, "a number", v);
    const NumberToken t = parse_number_token(std::string_view(buf, static_cast<size_t>(r.ptr - buf)));
    // nlohmann refuses non-finite numbers already; kept as a guard.
    if (t.status != TokenStatus::decimal && t.status != TokenStatus::binary)
        throw input_error(path, 0, where + ": " + describe(t.status));
    return t;
}

bool fits_int(const json& v) {
    using limits = std::numeric_limits<int>;
    if (v.is_number_unsigned()) return v.get<uint64_t>() <= static_cast<uint64_t>(limits::max());
    return v.is_number_integer() && v.get<int64_t>() >= limits::min() && v.get<int64_t>() <= limits::max();
}

// One results[] entry, checked.
struct Command {
    std::string label;
    std::string where;   // "results[1]", for messages and each run's source
    std::vector<NumberToken> times;
    std::vector<std::optional<int>> exit_codes;  // empty, or one per time; nullopt: killed by a signal
    std::map<std::string, std::string> parameters;
};

Command read_command(const std::string& path, size_t index, const json& entry) {
    const std::string where = "results[" + std::to_string(index) + "]";
    if (!entry.is_object()) expected(path, where, "an object", entry);
    Command c;
    c.where = where;

    const auto command = entry.find("command");
    if (command == entry.end()) throw input_error(path, 0, where + ".command: missing");
    if (!command->is_string()) expected(path, where + ".command", "a string", *command);
    c.label = command->get<std::string>();
    if (c.label.empty()) throw input_error(path, 0, where + ".command: empty");

    const auto times = entry.find("times");
    if (times == entry.end() || times->is_null())
        throw input_error(path, 0, where + ".times: missing: this file was exported without per-run times "
                                           "(only summaries such as mean and stddev), which are not samples; "
                                           "export it again with a hyperfine that writes \"times\"");
    if (!times->is_array()) expected(path, where + ".times", "an array", *times);
    if (times->empty()) throw input_error(path, 0, where + ".times: empty");
    for (size_t i = 0; i < times->size(); ++i)
        c.times.push_back(json_number(path, where + ".times[" + std::to_string(i) + "]", (*times)[i]));

    const auto codes = entry.find("exit_codes");
    if (codes != entry.end() && !codes->is_null()) {
        if (!codes->is_array()) expected(path, where + ".exit_codes", "an array", *codes);
        if (codes->size() != times->size())
            throw input_error(path, 0, where + ".exit_codes: " + std::to_string(codes->size()) +
                                           " exit codes for " + std::to_string(times->size()) + " times");
        for (size_t i = 0; i < codes->size(); ++i) {
            const json& code = (*codes)[i];
            const std::string at = where + ".exit_codes[" + std::to_string(i) + "]";
            if (code.is_null()) {
                // hyperfine writes null when the command was ended by a
                // signal (it does not say which).
                c.exit_codes.emplace_back();
            } else if (fits_int(code)) {
                c.exit_codes.emplace_back(static_cast<int>(code.get<int64_t>()));
            } else {
                expected(path, at, "an integer exit code or null", code);
            }
        }
    }

    const auto params = entry.find("parameters");
    if (params != entry.end() && !params->is_null()) {
        if (!params->is_object()) expected(path, where + ".parameters", "an object", *params);
        for (const auto& [name, value] : params->items()) {
            if (value.is_string()) c.parameters[name] = value.get<std::string>();
            else if (value.is_number() || value.is_boolean()) c.parameters[name] = value.dump();
            else expected(path, where + ".parameters." + name, "a string or a number", value);
        }
    }
    return c;
}

}  // namespace

void import_hyperfine(const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::string text = import_read_file(path);
    const json doc = parse_json(path, text);
    if (!doc.is_object()) expected(path, "top level", "an object (hyperfine --export-json)", doc);
    const auto results = doc.find("results");
    if (results == doc.end())
        throw input_error(path, 0, "results: missing (is this a file from hyperfine --export-json?)");
    if (!results->is_array()) expected(path, "results", "an array", *results);
    if (results->empty()) throw input_error(path, 0, "results: empty: no commands were benchmarked");

    // Everything is read before anything is added, so that a bad entry
    // leaves `out` as it was.
    std::vector<Command> commands;
    for (size_t i = 0; i < results->size(); ++i) commands.push_back(read_command(path, i, (*results)[i]));

    if (!options.label.empty()) {
        if (commands.size() != 1)
            throw input_error(path, 0, "--label names one variant, but this file holds " +
                                           std::to_string(commands.size()) +
                                           " commands, each imported as its own variant labelled by its "
                                           "command; name them with hyperfine's --command-name instead");
        commands[0].label = options.label;
    }
    if (!options.metric.empty() && options.metric != "time")
        throw input_error(path, 0, "no metric '" + options.metric + "' in this file; it has: time");

    MetricInfo metric;
    metric.name = "time";
    metric.unit = "s";
    metric.direction = Direction::lower_is_better;
    import_declare_metric(out, path, metric, options);

    for (const Command& c : commands) {
        ImportOptions with_parameters = options;
        for (const auto& [name, value] : c.parameters) {
            const auto [it, added] = with_parameters.tags.emplace(name, value);
            if (!added && it->second != value)
                throw input_error(path, 0, c.where + ".parameters." + name + ": value " +
                                               quote_token(value) + " differs from --tag " + name + "=" +
                                               it->second);
        }
        const std::string environment = import_environment(out, {}, with_parameters);
        for (size_t i = 0; i < c.times.size(); ++i) {
            RunRecord run;
            run.variant = c.label;
            run.run = out.next_run_index(c.label);
            run.environment = environment;
            run.source = path + ":" + c.where;
            if (!c.exit_codes.empty()) {
                const std::optional<int>& code = c.exit_codes[i];
                if (!code) run.exit_class = ExitClass::crash;
                else if (*code != 0) run.exit_class = ExitClass::fail;
                run.exit_code = code;
            }
            MetricValues values;
            values.name = metric.name;
            values.values.push_back(c.times[i]);
            run.metrics.push_back(std::move(values));
            import_add_run(out, path, 0, std::move(run));
        }
    }
}

}  // namespace gfxstat::data
