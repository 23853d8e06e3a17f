// SPDX-License-Identifier: MIT
// The steps file of bisect_log.h, read and written with nlohmann_json:
// a small document rewritten whole after each step.
#include "data/bisect_log.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "data/file_read.h"
#include "data/input_error.h"
#include "data/safe_files.h"

namespace gfxstat::data {

namespace {

using nlohmann::json;

json reference_json(const BisectReferenceRecord& r) {
    return json{{"file", r.file}, {"variant", r.variant}, {"values", r.values}};
}

// The reader's errors name the file and the member.
struct Reader {
    const std::string& name;
    [[noreturn]] void fail(const std::string& what) const { throw input_error(name, 0, what); }
    const json& member(const json& o, const char* key) const {
        if (!o.is_object()) fail(std::string("expected an object holding \"") + key + "\"");
        const auto it = o.find(key);
        if (it == o.end()) fail(std::string("missing \"") + key + "\"");
        return *it;
    }
    std::string text(const json& o, const char* key, bool required = true) const {
        if (!o.contains(key)) {
            if (required) fail(std::string("missing \"") + key + "\"");
            return "";
        }
        const json& v = o.at(key);
        if (!v.is_string()) fail(std::string("\"") + key + "\" must be a string");
        return v.get<std::string>();
    }
    double real(const json& o, const char* key) const {
        const json& v = member(o, key);
        if (!v.is_number()) fail(std::string("\"") + key + "\" must be a number");
        const double x = v.get<double>();
        if (!std::isfinite(x)) fail(std::string("\"") + key + "\" must be finite");
        return x;
    }
    size_t count(const json& o, const char* key, size_t fallback) const {
        if (!o.contains(key)) return fallback;
        const json& v = o.at(key);
        if (!v.is_number_unsigned()) fail(std::string("\"") + key + "\" must be a count (0 or more)");
        return v.get<size_t>();
    }
    std::vector<double> values(const json& o, const char* key) const {
        const json& v = member(o, key);
        if (!v.is_array()) fail(std::string("\"") + key + "\" must be an array of numbers");
        std::vector<double> out;
        out.reserve(v.size());
        for (const json& x : v) {
            if (!x.is_number()) fail(std::string("\"") + key + "\" must hold numbers only");
            const double d = x.get<double>();
            if (!std::isfinite(d)) fail(std::string("\"") + key + "\" must hold finite numbers");
            out.push_back(d);
        }
        return out;
    }
    std::vector<std::string> strings(const json& o, const char* key) const {
        std::vector<std::string> out;
        if (!o.contains(key)) return out;
        const json& v = o.at(key);
        if (!v.is_array()) fail(std::string("\"") + key + "\" must be an array of strings");
        for (const json& x : v) {
            if (!x.is_string()) fail(std::string("\"") + key + "\" must hold strings only");
            out.push_back(x.get<std::string>());
        }
        return out;
    }
    BisectReferenceRecord reference(const json& o) const {
        BisectReferenceRecord r;
        r.file = text(o, "file");
        r.variant = text(o, "variant", false);
        r.values = values(o, "values");
        return r;
    }
};

}  // namespace

std::string bisect_log_json(const BisectLog& log) {
    const BisectPlanRecord& p = log.plan;
    json plan = {
        {"created", p.created},
        {"generator", p.generator},
        {"metric", p.metric},
        {"unit", p.unit},
        {"direction", direction_name(p.direction)},
        {"exact", p.exact},
        {"good", reference_json(p.good)},
        {"bad", reference_json(p.bad)},
        {"confidence", p.confidence},
        {"threshold", p.threshold},
        {"commits", p.commits},
        {"expected_steps", p.expected_steps},
        {"min_runs", p.min_runs},
        {"max_runs", p.max_runs},
        {"command", p.command},
        {"build", p.build},
        {"results", p.results},
        {"good_commits", p.good_commits},
        {"bad_commit", p.bad_commit},
        {"bad_parents", p.bad_parents},
    };
    json steps = json::array();
    for (const BisectStepRecord& s : log.steps) {
        json j = {
            {"commit", s.commit}, {"subject", s.subject}, {"parents", s.parents}, {"started", s.started},
            {"ended", s.ended},   {"build", s.build},     {"values", s.values},   {"failed_runs", s.failed_runs},
            {"call", s.call},     {"exit", s.exit},       {"reason", s.reason},
        };
        if (s.build_exit) j["build_exit"] = *s.build_exit;
        steps.push_back(std::move(j));
    }
    json doc = {{"format", kBisectLogFormat}, {"version", log.version}, {"plan", plan}, {"steps", steps}};
    // Invalid UTF-8 in a subject or a command (git does not promise UTF-8)
    // is replaced, not a reason to lose the step.
    return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

BisectLog parse_bisect_log(const std::string& text, const std::string& name) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        // Byte offset to a line, for the message.
        size_t line = 1;
        const size_t end = std::min(e.byte, text.size());
        for (size_t i = 0; i + 1 < end; ++i) line += text[i] == '\n';
        throw input_error(name, line, "not a gfxstat bisect steps file: the JSON does not parse");
    } catch (const json::exception& e) {
        // A number too large for any type (3E0920): nlohmann gives no position.
        std::string what = e.what();
        const size_t bracket = what.find("] ");
        throw input_error(name, 0, "not a gfxstat bisect steps file: " +
                                       (bracket == std::string::npos ? what : what.substr(bracket + 2)));
    }
    const Reader r{name};
    if (!doc.is_object() || !doc.contains("format") || doc["format"] != kBisectLogFormat)
        r.fail(std::string("not a gfxstat bisect steps file (expected \"format\": \"") + kBisectLogFormat + "\")");
    BisectLog log;
    const json& version = r.member(doc, "version");
    if (!version.is_number_integer()) r.fail("\"version\" must be an integer");
    log.version = version.get<int>();
    if (log.version != kBisectLogVersion)
        r.fail("steps file version " + std::to_string(log.version) + "; this gfxstat reads version " +
               std::to_string(kBisectLogVersion));
    const json& p = r.member(doc, "plan");
    BisectPlanRecord& plan = log.plan;
    plan.created = r.text(p, "created", false);
    plan.generator = r.text(p, "generator", false);
    plan.metric = r.text(p, "metric");
    plan.unit = r.text(p, "unit", false);
    const auto dir = parse_direction(r.text(p, "direction", false));
    plan.direction = dir.value_or(Direction::unknown);
    if (p.contains("exact")) {
        if (!p["exact"].is_boolean()) r.fail("\"exact\" must be true or false");
        plan.exact = p["exact"].get<bool>();
    }
    plan.good = r.reference(r.member(p, "good"));
    plan.bad = r.reference(r.member(p, "bad"));
    plan.confidence = r.real(p, "confidence");
    if (!(plan.confidence > 0 && plan.confidence < 1)) r.fail("\"confidence\" must be in (0, 1)");
    plan.threshold = r.real(p, "threshold");
    if (!(plan.threshold >= 0)) r.fail("\"threshold\" must be >= 0");
    plan.commits = r.count(p, "commits", 0);
    plan.expected_steps = r.count(p, "expected_steps", 7);
    if (plan.expected_steps < 1) r.fail("\"expected_steps\" must be at least 1");
    plan.min_runs = r.count(p, "min_runs", 3);
    plan.max_runs = r.count(p, "max_runs", 50);
    if (plan.max_runs < 2 || plan.min_runs > plan.max_runs) r.fail("\"min_runs\" and \"max_runs\" are out of order");
    plan.command = r.strings(p, "command");
    plan.build = r.text(p, "build", false);
    plan.results = r.text(p, "results", false);
    plan.good_commits = r.strings(p, "good_commits");
    plan.bad_commit = r.text(p, "bad_commit", false);
    plan.bad_parents = r.strings(p, "bad_parents");

    const json& steps = r.member(doc, "steps");
    if (!steps.is_array()) r.fail("\"steps\" must be an array");
    for (const json& s : steps) {
        BisectStepRecord step;
        step.commit = r.text(s, "commit", false);
        step.subject = r.text(s, "subject", false);
        step.parents = r.strings(s, "parents");
        step.started = r.text(s, "started", false);
        step.ended = r.text(s, "ended", false);
        step.build = r.text(s, "build", false);
        if (s.contains("build_exit")) {
            if (!s["build_exit"].is_number_integer()) r.fail("\"build_exit\" must be an integer");
            step.build_exit = s["build_exit"].get<int>();
        }
        step.values = r.values(s, "values");
        step.failed_runs = r.count(s, "failed_runs", 0);
        step.call = r.text(s, "call");
        if (step.call != "good" && step.call != "bad" && step.call != "skip")
            r.fail("a step's \"call\" must be \"good\", \"bad\" or \"skip\", not " + quote_token(step.call));
        const json& e = r.member(s, "exit");
        if (!e.is_number_integer()) r.fail("a step's \"exit\" must be an integer");
        step.exit = e.get<int>();
        step.reason = r.text(s, "reason", false);
        log.steps.push_back(std::move(step));
    }
    return log;
}

BisectLog read_bisect_log(const std::string& path) { return parse_bisect_log(read_whole_file(path), path); }

void write_bisect_log(const std::string& path, const BisectLog& log) {
    write_file_atomically(path, bisect_log_json(log), 0644, true);
}

}  // namespace gfxstat::data
