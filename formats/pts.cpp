// SPDX-License-Identifier: MIT
// --from pts: a Phoronix Test Suite result file (composite.xml). Each
// <System> is one variant, named by its <Identifier>; each <Result> is one
// metric (a test with one set of options); each <Entry> of a result holds a
// system's samples, and PTS joins the value of every time it ran the test
// with ':' in <RawString>. Each of those values is one run of its variant:
// PTS started the test anew for each. <Value> is their average and is not
// imported.
//
// Import only, no `run --parser pts`: composite.xml is a result file that
// PTS keeps under ~/.phoronix-test-suite/test-results/, holding every run
// of every system compared; PTS's own stdout is a progress display, not
// this file.
#include <algorithm>

#include "formats/format_list.h"
#include "formats/import_support.h"
#include "data/input_error.h"
#include "data/xml_reader.h"

namespace gfxstat::formats {

// The results model and the input errors this importer fills.
using namespace gfxstat::data;

namespace {

std::string_view trim(std::string_view s) {
    const size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The trimmed text of `parent`'s child `name`; "" when it is absent.
std::string text_of(const XmlElement& parent, std::string_view name) {
    const XmlElement* e = parent.child(name);
    return e ? std::string(trim(e->text)) : std::string();
}

const XmlElement& required(const std::string& path, const XmlElement& parent, std::string_view name) {
    const XmlElement* e = parent.child(name);
    if (!e) throw input_error(path, parent.line, "expected <" + std::string(name) + "> in <" + parent.name + ">");
    return *e;
}

// Whether `s` starts with the "Key: " of a PTS hardware/software list item
// ("Processor: ", "File-System: ", "Display Server: ").
bool starts_with_key(std::string_view s) {
    const size_t colon = s.find(": ");
    if (colon == 0 || colon == std::string_view::npos || colon > 40) return false;
    if (s[0] < 'A' || s[0] > 'Z') return false;
    return std::all_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(colon), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ' ||
               c == '-' || c == '/';
    });
}

// The value of `key` in a PTS list such as "Processor: X (8 Cores),
// Motherboard: Y"; "" when absent. PTS joins its items with ", ", which a
// value may hold too, so an item ends only where the next "Key: " begins.
std::string list_item(std::string_view list, std::string_view key) {
    size_t item = 0, search = 0;
    for (;;) {
        const size_t comma = list.find(", ", search);
        if (comma == std::string_view::npos || starts_with_key(list.substr(comma + 2))) {
            const std::string_view text = list.substr(item, comma == std::string_view::npos ? comma : comma - item);
            if (text.starts_with(key) && text.substr(key.size()).starts_with(": "))
                return std::string(trim(text.substr(key.size() + 2)));
            if (comma == std::string_view::npos) return {};
            item = comma + 2;
        }
        search = comma + 2;
    }
}

// What PTS says about one system, as environment fields.
std::map<std::string, std::string> system_fields(const XmlElement& system) {
    std::map<std::string, std::string> fields;
    const std::string hardware = text_of(system, "Hardware");
    const std::string software = text_of(system, "Software");
    if (!hardware.empty()) fields["pts_hardware"] = hardware;
    if (!software.empty()) fields["pts_software"] = software;
    if (std::string cpu = list_item(hardware, "Processor"); !cpu.empty()) fields["cpu_model"] = cpu;
    if (std::string kernel = list_item(software, "Kernel"); !kernel.empty()) {
        // PTS appends the architecture, "6.5.0-14-generic (x86_64)"; the
        // well-known field holds what uname -r says.
        if (kernel.ends_with(')')) {
            const size_t open = kernel.rfind(" (");
            if (open != std::string::npos) kernel.resize(open);
        }
        fields["kernel_release"] = kernel;
    }
    return fields;
}

// Display formats whose values are not repeated measurements of one
// quantity (pass/fail verdicts, image comparisons, series over time): their
// results are left out rather than read as samples.
bool not_samples(const std::string& display_format) {
    return display_format == "PASS_FAIL" || display_format == "MULTI_PASS_FAIL" ||
           display_format == "IMAGE_COMPARISON" || display_format == "LINE_GRAPH" ||
           display_format == "FILLED_LINE_GRAPH";
}

struct EntrySamples {
    std::string system;  // the entry's Identifier
    size_t line;         // of its <RawString>
    std::vector<NumberToken> values;
};

struct Metric {
    MetricInfo info;
    std::vector<EntrySamples> samples;
};

Metric read_result(const std::string& path, const XmlElement& result) {
    Metric m;
    const std::string title = text_of(result, "Title");
    if (title.empty()) throw input_error(path, result.line, "expected a non-empty <Title> in <Result>");
    // The description names the test's options ("Resolution: 1920 x 1080"):
    // the same test run with other options is another metric.
    const std::string description = text_of(result, "Description");
    m.info.name = description.empty() ? title : title + " (" + description + ")";
    m.info.unit = text_of(result, "Scale");
    const std::string proportion = text_of(result, "Proportion");
    if (proportion == "HIB") m.info.direction = Direction::higher_is_better;
    else if (proportion == "LIB") m.info.direction = Direction::lower_is_better;

    const XmlElement& data = required(path, result, "Data");
    for (const XmlElement* entry : data.children_named("Entry")) {
        EntrySamples s;
        s.system = std::string(trim(required(path, *entry, "Identifier").text));
        if (s.system.empty()) throw input_error(path, entry->line, "expected a non-empty <Identifier> in <Entry>");
        const XmlElement* raw = entry->child("RawString");
        const std::string_view raw_text = raw ? trim(raw->text) : std::string_view();
        // No raw values (results imported into PTS from elsewhere, or kept
        // from old versions): only <Value> is left, an average. Taking it
        // as one run would pass a mean off as a sample and understate the
        // spread, so the entry contributes nothing.
        if (raw_text.empty()) continue;
        s.line = raw->line;
        size_t from = 0;
        for (;;) {
            const size_t colon = raw_text.find(':', from);
            const std::string_view piece =
                trim(raw_text.substr(from, colon == std::string_view::npos ? colon : colon - from));
            const NumberToken t = parse_number_token(piece);
            if (piece.empty() || (t.status != TokenStatus::decimal && t.status != TokenStatus::binary))
                throw input_error(path, raw->line,
                                  "expected numbers separated by ':' in <RawString>, found " + quote_token(piece) +
                                      (piece.empty() ? "" : std::string(" (") + describe(t.status) + ")"));
            s.values.push_back(t);
            if (colon == std::string_view::npos) break;
            from = colon + 1;
        }
        m.samples.push_back(std::move(s));
    }
    return m;
}

}  // namespace

void import_pts(const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::string text = read_whole_file(path);
    const XmlElement root = read_xml(text, path);
    if (root.name != "PhoronixTestSuite")
        throw input_error(path, root.line,
                          "expected <PhoronixTestSuite> (a PTS composite.xml), found <" + root.name + ">");

    // Everything is read before anything is added, so that a bad entry
    // leaves `out` as it was.
    std::map<std::string, const XmlElement*> systems;
    std::vector<std::string> identifiers;  // systems and entries, in order of appearance
    auto note_identifier = [&](const std::string& id) {
        if (std::find(identifiers.begin(), identifiers.end(), id) == identifiers.end()) identifiers.push_back(id);
    };
    for (const XmlElement* system : root.children_named("System")) {
        const std::string id(trim(required(path, *system, "Identifier").text));
        if (id.empty()) throw input_error(path, system->line, "expected a non-empty <Identifier> in <System>");
        const auto [it, added] = systems.emplace(id, system);
        if (!added)
            throw input_error(path, system->line, "system " + quote_token(id) + " is described twice (first at line " +
                                                      std::to_string(it->second->line) + ")");
        note_identifier(id);
    }

    std::vector<Metric> metrics;
    for (const XmlElement* result : root.children_named("Result")) {
        if (not_samples(text_of(*result, "DisplayFormat"))) continue;
        metrics.push_back(read_result(path, *result));
        for (const EntrySamples& s : metrics.back().samples) note_identifier(s.system);
    }

    if (!options.label.empty() && identifiers.size() > 1) {
        std::string names;
        for (const std::string& id : identifiers) names += (names.empty() ? "" : ", ") + quote_token(id);
        throw input_error(path, 0, "--label names one variant, but this file holds " +
                                       std::to_string(identifiers.size()) + " systems (" + names +
                                       "), each imported as its own variant labelled by its identifier");
    }
    if (!options.metric.empty()) {
        std::vector<Metric> kept;
        std::vector<std::string> available;
        for (Metric& m : metrics) {
            if (std::find(available.begin(), available.end(), m.info.name) == available.end())
                available.push_back(m.info.name);
            if (m.info.name == options.metric) kept.push_back(std::move(m));
        }
        if (kept.empty()) {
            std::string names;
            for (const std::string& n : available) names += (names.empty() ? "" : ", ") + n;
            throw input_error(path, 0, "no metric '" + options.metric + "' in this file; it has: " + names);
        }
        metrics = std::move(kept);
    }
    const bool any = std::any_of(metrics.begin(), metrics.end(), [](const Metric& m) { return !m.samples.empty(); });
    if (!any) throw input_error(path, 0, "no samples: no <Result> has an <Entry> with a non-empty <RawString>");

    // Declarations first: a conflict with what `out` holds stops the import
    // before any run is added. A result without raw values declares nothing.
    for (const Metric& m : metrics)
        if (!m.samples.empty()) import_declare_metric(out, path, m.info, options);
    std::map<std::string, std::string> environments;  // by system identifier, made on first use
    for (const Metric& m : metrics) {
        for (const EntrySamples& s : m.samples) {
            auto env = environments.find(s.system);
            if (env == environments.end()) {
                // An entry whose system has no <System> record gets only the --tag pairs.
                const auto sys = systems.find(s.system);
                std::map<std::string, std::string> fields;
                if (sys != systems.end()) fields = system_fields(*sys->second);
                env = environments.emplace(s.system, import_environment(out, std::move(fields), options)).first;
            }
            const std::string& variant = options.label.empty() ? s.system : options.label;
            for (const NumberToken& value : s.values) {
                RunRecord run;
                run.variant = variant;
                run.run = out.next_run_index(variant);
                run.environment = env->second;
                run.source = path + ":" + std::to_string(s.line);
                run.metrics.push_back(MetricValues{SharedString(m.info.name), {value}, false});
                import_add_run(out, path, s.line, std::move(run));
            }
        }
    }
}

const Format& pts_format() {
    static const Format f{"pts", "Phoronix Test Suite composite.xml: every result's raw values", nullptr, import_pts};
    return f;
}

}  // namespace gfxstat::formats
