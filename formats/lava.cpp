// SPDX-License-Identifier: MIT
// --from lava: a LAVA job's results, read back as runs.
//
// Inputs (each file on its own; give one of them per job):
//   - the job's log: lava-run's (`{"dt": ..., "lvl": ..., "msg": ...}`
//     a line, on its stderr) or the server's copy (the same lines after
//     "- ": /api/v0.2/jobs/ID/logs/, `lavacli jobs logs --raw`). Console
//     text is in `lvl: target` records, test cases in `lvl: results`.
//   - the results export: /api/v0.2/jobs/ID/yaml/ or `lavacli results ID
//     --yaml`, a list of test cases {job, suite, name, result,
//     measurement, unit, metadata: {set, ...}, ...}.
//
// A log that holds a results block (formats/lava_block.h: what gfxstat
// run/ab/campaign print inside a LAVA test shell) gives the runs of that
// results file exactly, as written on the device; each run keeps the id of
// that file as its origin, so that blocks of several jobs merge. Without
// one, runs are rebuilt from the test cases: LAVA keeps one number per
// case, so a job gives one run per test set (or suite, where no set was
// started), whose metrics are the cases' measurements, with the job as
// the boot ("lava-job-ID"; a log names no job id, so there it is the log
// file's name). LAVA's own cases (suite "lava"), gfxstat's attachment case
// (gfxstat-results) and its verdict sets (gfxstat-verdicts...) are not
// measurements of a variant and are left out.
#include <map>
#include <optional>

#include "data/input_error.h"
#include "data/results_reader.h"
#include "formats/format_list.h"
#include "formats/import_support.h"
#include "formats/lava_block.h"
#include "formats/yaml_reader.h"

namespace gfxstat::formats {

using namespace gfxstat::data;

namespace {

// One LAVA test case, from either input.
struct Case {
    std::string job, variant, name, result, units;
    std::optional<NumberToken> measurement;
    size_t line = 0;
};

// A block decoded from the log: the results file and where it began.
struct Block {
    std::string bytes;
    size_t line = 0;
};

std::string scalar_member(const YamlNode& m, std::string_view key, const std::string& path, const char* what) {
    const YamlNode* v = m.get(key);
    if (!v || v->is_null()) return {};
    if (!v->is_scalar())
        throw input_error(path, v->line,
                          std::string("expected ") + what + "'s " + std::string(key) + " to be a scalar, not " +
                              yaml_kind_name(v->kind));
    return v->text;
}

std::optional<NumberToken> measurement_of(const std::string& text, const std::string& path, size_t line) {
    // The server writes str(None) where a case has no measurement.
    if (text.empty() || text == "None") return std::nullopt;
    const NumberToken t = parse_number_token(text);
    if (t.status != TokenStatus::decimal && t.status != TokenStatus::binary)
        throw input_error(path, line, "expected a measurement (a finite number), not " + quote_token(text) + " (" +
                                          describe(t.status) + ")");
    return t;
}

// The fields of a case that both inputs share (`m` is a results record's
// msg, or an export's entry; `meta` its metadata where it has one).
Case read_case(const YamlNode& m, const YamlNode* meta, const std::string& path, size_t line, const char* what) {
    Case c;
    c.line = line;
    c.name = scalar_member(m, m.get("case") ? "case" : "name", path, what);
    if (c.name.empty()) throw input_error(path, line, std::string("expected ") + what + " to have a case name");
    c.result = scalar_member(m, "result", path, what);
    std::string suite = scalar_member(m, m.get("suite") ? "suite" : "definition", path, what);
    std::string set = scalar_member(m, "set", path, what);
    if (set.empty() && meta && meta->kind == YamlNode::Kind::mapping) set = scalar_member(*meta, "set", path, what);
    c.variant = set.empty() ? suite : set;
    c.units = scalar_member(m, m.get("unit") ? "unit" : "units", path, what);
    if (c.units == "None") c.units.clear();
    c.measurement = measurement_of(scalar_member(m, "measurement", path, what), path, line);
    if (suite == "lava" || c.name == "gfxstat-results" || c.variant.rfind("gfxstat-verdicts", 0) == 0)
        c.name.clear();  // not a measurement of a variant
    return c;
}

// A log's first record is a flow mapping with "lvl" and "msg"; an export
// is a block list (or, from an older PyYAML, flow mappings without them).
bool is_log(std::string_view text) {
    for (size_t at = 0; at < text.size();) {
        const size_t nl = text.find('\n', at);
        std::string_view line = text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
        at = nl == std::string_view::npos ? text.size() : nl + 1;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
        if (line.empty()) continue;
        if (line.substr(0, 2) == "- ") line.remove_prefix(2);
        if (line.empty() || line[0] != '{') return false;
        try {
            const YamlNode n = parse_yaml_flow_line(line, "", 1);
            return n.get("lvl") && n.get("msg");
        } catch (const InputError&) {
            return false;
        }
    }
    return false;
}

std::string trimmed(std::string_view s) {
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.remove_suffix(1);
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    return std::string(s);
}

// The log, record by record: blocks decoded, cases collected.
void read_log(std::string_view text, const std::string& path, const std::string& job, std::vector<Block>& blocks,
              std::vector<Case>& cases) {
    std::optional<ResultsBlockDecoder> decoder;
    size_t block_line = 0, number = 0;
    for (size_t at = 0; at < text.size();) {
        const size_t nl = text.find('\n', at);
        const std::string_view raw = text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
        at = nl == std::string_view::npos ? text.size() : nl + 1;
        ++number;
        if (trimmed(raw).empty()) continue;
        const YamlNode rec = parse_yaml_flow_line(raw, path, number);
        const std::string lvl = scalar_member(rec, "lvl", path, "a log record");
        const YamlNode* msg = rec.get("msg");
        if (lvl.empty() || !msg)
            throw input_error(path, number, "expected a log record with \"lvl\" and \"msg\"");
        if (lvl == "results") {
            if (msg->kind != YamlNode::Kind::mapping)
                throw input_error(path, number, std::string("expected a results record's msg to be a mapping, not ") +
                                                    yaml_kind_name(msg->kind));
            Case c = read_case(*msg, nullptr, path, number, "a results record");
            c.job = job;
            if (!c.name.empty()) cases.push_back(std::move(c));
            continue;
        }
        if (lvl != "target" || !msg->is_scalar()) continue;
        const std::string line = trimmed(msg->text);
        std::string why;
        if (!decoder) {
            const size_t begin = line.find(kResultsBlockBegin);
            if (begin == std::string::npos) continue;
            auto header = parse_results_block_begin(std::string_view(line).substr(begin), why);
            if (!header) throw input_error(path, number, "expected " + why);
            decoder.emplace(std::move(*header));
            block_line = number;
            continue;
        }
        if (line == kResultsBlockEnd) {
            std::optional<std::string> bytes = decoder->finish(why);
            if (!bytes)
                throw input_error(path, number, "the results block that begins on line " + std::to_string(block_line) +
                                                    " is damaged: expected " + why);
            blocks.push_back({std::move(*bytes), block_line});
            decoder.reset();
            continue;
        }
        // A serial console is also the kernel's: its messages can land
        // between the block's lines. No base64 line holds a space; the
        // digest still catches any other damage.
        if (line.find(' ') != std::string::npos) continue;
        if (!decoder->add_line(line, why))
            throw input_error(path, number, "in the results block that begins on line " + std::to_string(block_line) +
                                                ": expected " + why + ", not " + quote_token(line.substr(0, 40)));
    }
    if (decoder)
        throw input_error(path, block_line, "the results block that begins here has no end line '" +
                                                std::string(kResultsBlockEnd) + "' (the job's log was cut short?)");
}

// The export: a list of test cases.
void read_export(std::string_view text, const std::string& path, std::vector<Case>& cases) {
    const YamlNode doc = parse_yaml(text, path);
    if (doc.is_null()) return;
    if (doc.kind != YamlNode::Kind::sequence)
        throw input_error(path, doc.line,
                          std::string("expected a LAVA results export (a list of test cases, as "
                                      "/api/v0.2/jobs/ID/yaml/ or lavacli results ID --yaml write) or a job log, not ") +
                              yaml_kind_name(doc.kind));
    for (const YamlNode& item : doc.items) {
        if (item.kind != YamlNode::Kind::mapping)
            throw input_error(path, item.line, std::string("expected a test case (a mapping), not ") +
                                                   yaml_kind_name(item.kind));
        if (!item.get("name") || !item.get("result"))
            throw input_error(path, item.line, "expected a test case with \"name\" and \"result\"");
        Case c = read_case(item, item.get("metadata"), path, item.line, "a test case");
        c.job = scalar_member(item, "job", path, "a test case");
        if (!c.name.empty()) cases.push_back(std::move(c));
    }
}

void add_block_runs(const Block& b, const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::string where = path + ":" + std::to_string(b.line) + " (results block)";
    const ResultsFile f = parse_results(b.bytes, where);
    const std::vector<std::string> variants = f.variants();
    if (!options.label.empty() && variants.size() > 1)
        throw input_error(path, b.line, "--label names one variant, but the results block holds " +
                                            std::to_string(variants.size()));
    for (const MetricInfo& m : f.metrics()) {
        if (!options.metric.empty() && m.name != options.metric) continue;
        if (const std::string conflict = out.declare_metric(m); !conflict.empty()) throw input_error(where, 0, conflict);
    }
    for (Environment e : f.environments())
        if (const std::string conflict = out.add_environment(e); !conflict.empty()) throw input_error(where, 0, conflict);
    for (const DesignRecord& d : f.designs())
        if (const std::string conflict = out.add_design(d); !conflict.empty()) throw input_error(where, 0, conflict);
    for (RunRecord run : f.runs()) {
        if (run.origin.empty()) run.origin = f.header.id;
        if (!options.label.empty()) run.variant = options.label;
        if (!options.metric.empty())
            erase_if(run.metrics, [&](const MetricValues& m) { return m.name != options.metric; });
        if (const std::string conflict = out.add_run(std::move(run)); !conflict.empty())
            throw input_error(where, 0, conflict);
    }
}

void add_case_runs(const std::vector<Case>& cases, const std::string& path, const ImportOptions& options,
                   ResultsFile& out) {
    // One run per job and variant, in the order they first appear.
    std::vector<std::pair<std::string, std::string>> order;
    std::map<std::pair<std::string, std::string>, std::vector<const Case*>> by_run;
    for (const Case& c : cases) {
        if (!options.metric.empty() && c.name != options.metric) continue;
        const auto key = std::make_pair(c.job, c.variant);
        if (!by_run.count(key)) order.push_back(key);
        by_run[key].push_back(&c);
    }
    std::map<std::string, bool> variants;
    for (const auto& k : order) variants[k.second] = true;
    if (!options.label.empty() && variants.size() > 1)
        throw input_error(path, 0, "--label names one variant, but this file holds " + std::to_string(variants.size()) +
                                       " test sets (or suites), each a variant");
    for (const auto& key : order) {
        const std::vector<const Case*>& list = by_run[key];
        RunRecord run;
        run.variant = options.label.empty() ? key.second : options.label;
        if (run.variant.empty()) throw input_error(path, list.front()->line, "expected a suite or test set name");
        run.run = out.next_run_index(run.variant);
        run.boot = "lava-job-" + key.first;
        run.source = path + ":" + std::to_string(list.front()->line);
        run.environment = import_environment(out, {{"lava_job", key.first}}, options);
        std::string failed;
        size_t skipped = 0;
        for (const Case* c : list) {
            if (c->result == "fail" || c->result == "unknown")
                failed += (failed.empty() ? "" : ", ") + c->name;
            skipped += c->result == "skip";
            if (!c->measurement) continue;
            MetricInfo info(c->name, c->units, Direction::unknown);
            import_declare_metric(out, path, info, options);
            MetricValues* values = nullptr;
            for (auto& m : run.metrics)
                if (m.name == c->name) values = &m;
            if (!values) {
                run.metrics.push_back({});
                values = &run.metrics.back();
                values->name = c->name;
            }
            values->values.push_back(*c->measurement);
        }
        if (!failed.empty()) {
            run.exit_class = ExitClass::fail;
            run.exit_reason = "LAVA test case failed: " + failed;
        } else if (skipped == list.size()) {
            run.exit_class = ExitClass::skip;
            run.exit_reason = "every LAVA test case skipped";
        }
        import_add_run(out, path, list.front()->line, std::move(run));
    }
}

}  // namespace

void import_lava(const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::string whole = read_whole_file(path);
    std::string_view text = whole;
    // A UTF-8 byte-order mark first (an editor's) is not part of the YAML;
    // line numbers are unchanged without it.
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    std::vector<Block> blocks;
    std::vector<Case> cases;
    // Read whole before adding: a bad record leaves `out` as it was.
    if (is_log(text)) read_log(text, path, default_label(path), blocks, cases);
    else read_export(text, path, cases);
    ResultsFile staged = out;
    if (!blocks.empty())
        for (const Block& b : blocks) add_block_runs(b, path, options, staged);
    else
        add_case_runs(cases, path, options, staged);
    out = std::move(staged);
}

const Format& lava_format() {
    static const Format f{"lava", "a LAVA job's log or results export: the attached results file, else its test cases",
                          nullptr, import_lava};
    return f;
}

}  // namespace gfxstat::formats
