// SPDX-License-Identifier: MIT
// --from hyperfine: the file `hyperfine --export-json` writes. Each entry of
// "results" is one benchmarked command, imported as a variant labelled by
// the command's text (or by the name --command-name gave it); each element
// of its "times" is one run -- hyperfine starts the command afresh for every
// timing -- with metric "time" in seconds. The summary members (mean,
// stddev, median, min, max, user, system) are aggregates of those times and
// are not imported. Parameters of a scan (-P / -L) become tags of the runs'
// environment, next to the --tag pairs.
//
// Import only, no `run --parser hyperfine`: the JSON is an export file that
// hyperfine writes at the end, holding every run it made itself; running
// hyperfine under `gfxstat run` would nest one repetition loop inside
// another, and hyperfine prints no per-run numbers on stdout to parse.
#include <algorithm>
#include <charconv>
#include <limits>
#include <nlohmann/json.hpp>

#include "formats/import_json.h"
#include "formats/json_document.h"
#include "formats/format_list.h"
#include "formats/import_support.h"
#include "data/input_error.h"

namespace gfxstat::formats {

// The results model and the input errors this importer fills.
using namespace gfxstat::data;

namespace {

using nlohmann::json;

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
    std::map<std::string, std::string> tags;  // --tag pairs and the scan's parameters
};

Command read_command(const std::string& path, size_t index, const json& entry, const ImportOptions& options) {
    const std::string where = "results[" + std::to_string(index) + "]";
    if (!entry.is_object()) json_expected(path, where, "an object", entry);
    Command c;
    c.where = where;

    const auto command = entry.find("command");
    if (command == entry.end()) throw input_error(path, 0, where + ".command: missing");
    if (!command->is_string()) json_expected(path, where + ".command", "a string", *command);
    c.label = command->get<std::string>();
    if (c.label.empty()) throw input_error(path, 0, where + ".command: empty");

    const auto times = entry.find("times");
    if (times == entry.end() || times->is_null())
        throw input_error(path, 0, where + ".times: missing: this file was exported without per-run times "
                                           "(only summaries such as mean and stddev), which are not samples; "
                                           "export it again with a hyperfine that writes \"times\"");
    if (!times->is_array()) json_expected(path, where + ".times", "an array", *times);
    if (times->empty()) throw input_error(path, 0, where + ".times: empty");
    for (size_t i = 0; i < times->size(); ++i)
        c.times.push_back(json_number(path, where + ".times[" + std::to_string(i) + "]", (*times)[i]));

    const auto codes = entry.find("exit_codes");
    if (codes != entry.end() && !codes->is_null()) {
        if (!codes->is_array()) json_expected(path, where + ".exit_codes", "an array", *codes);
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
                json_expected(path, at, "an integer exit code or null", code);
            }
        }
    }

    c.tags = options.tags;
    const auto params = entry.find("parameters");
    if (params != entry.end() && !params->is_null()) {
        if (!params->is_object()) json_expected(path, where + ".parameters", "an object", *params);
        for (const auto& [name, v] : params->items()) {
            const std::string at = where + ".parameters." + name;
            std::string value;
            if (v.is_string()) value = v.get<std::string>();
            else if (v.is_number() || v.is_boolean()) value = v.dump();
            else json_expected(path, at, "a string or a number", v);
            const auto [it, added] = c.tags.emplace(name, value);
            if (!added && it->second != value)
                throw input_error(path, 0, at + ": value " + quote_token(value) + " differs from --tag " + name +
                                               "=" + it->second);
        }
    }
    return c;
}

}  // namespace

void import_hyperfine(const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::string text = read_whole_file(path);
    const json doc = parse_json_file(path, text);
    const json& results =
        json_top_array(path, doc, "hyperfine --export-json", "results", "is this a file from hyperfine --export-json?");
    if (results.empty()) throw input_error(path, 0, "results: empty: no commands were benchmarked");

    // Everything is read before anything is added, so that a bad entry
    // leaves `out` as it was.
    std::vector<Command> commands;
    for (size_t i = 0; i < results.size(); ++i) commands.push_back(read_command(path, i, results[i], options));

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
        with_parameters.tags = c.tags;
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

const Format& hyperfine_format() {
    static const Format f{"hyperfine", "hyperfine --export-json: every run's wall, user and system time", nullptr, import_hyperfine};
    return f;
}

}  // namespace gfxstat::formats
