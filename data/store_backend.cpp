// SPDX-License-Identifier: MIT
#include "data/store_backend.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <map>
#include <variant>

#include "data/image_check.h"
#include "data/input_error.h"
#include "data/results_json.h"
#include "data/results_writer.h"

namespace gfxstat::data {

namespace {

// A stored run's (or check's) line with its origin filled in, as
// prepare_push makes identity lines: the stored line has no origin when
// its file recorded it.
std::string stored_identity_line(StoreRecord::Kind kind, const std::string& line, const std::string& file_id) {
    ResultsRecord rec = parse_record_line(line);
    std::string out;
    if (kind == StoreRecord::Kind::run) {
        auto& run = std::get<RunRecord>(rec);
        if (run.origin.empty()) run.origin = file_id;
        append_run_line(out, run);
    } else {
        auto& check = std::get<ImageCheck>(rec);
        if (check.origin.empty()) check.origin = file_id;
        append_image_check_line(out, check);
    }
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

// Every sample row holds the value its run's line prints, as printed and
// as the number read from it: a value changed in either place (an edited
// line, an edited sample) is a problem.
void check_samples(StoreCheck& c, const std::string& where, const RunRecord& run,
                   const std::vector<CheckedSample>& rows) {
    std::map<std::pair<std::string, int64_t>, std::string> expected;
    for (const MetricValues& mv : run.metrics)
        for (size_t k = 0; k < mv.values.size(); ++k) {
            std::string text;
            append_json_number(text, mv.values[k]);
            expected[{mv.name.str(), static_cast<int64_t>(k)}] = text;
        }
    for (const CheckedSample& s : rows) {
        const std::string what = where + ": sample " + std::to_string(s.position) + " of metric " + quote_token(s.metric);
        const auto it = expected.find({s.metric, s.position});
        if (it == expected.end()) {
            c.problems.push_back(what + " is not in the run's line");
        } else if (it->second != s.text) {
            c.problems.push_back(what + " is " + s.text + " in the store, " + it->second + " in the run's line");
        } else if (s.value != std::strtod(s.text.c_str(), nullptr)) {
            c.problems.push_back(what + ": its number is not the value " + s.text + " it prints");
        }
    }
}

constexpr std::string_view kMetricsHead = ",\"metrics\":{";

// One metric's member as the writer prints it.
void append_member(std::string& out, const std::string& name_token, bool scalar, const std::vector<std::string>& texts) {
    out += name_token;
    out += ':';
    if (!scalar) out += '[';
    for (size_t i = 0; i < texts.size(); ++i) out += (i ? "," : "") + texts[i];
    if (!scalar) out += ']';
}

// The skeleton with `members` in its metrics object.
std::string with_members(const std::string& skeleton, const std::string& members) {
    const size_t open = skeleton.find(kMetricsHead);
    if (open == std::string::npos) return skeleton;
    std::string out = skeleton;
    out.insert(open + kMetricsHead.size(), members);
    return out;
}

}  // namespace

size_t string_end(std::string_view s, size_t at) {
    if (at >= s.size() || s[at] != '"') return std::string_view::npos;
    for (size_t i = at + 1; i < s.size(); ++i) {
        if (s[i] == '\\') ++i;
        else if (s[i] == '"') return i + 1;
    }
    return std::string_view::npos;
}

RunSkeleton store_run_skeleton(const std::string& line, const RunRecord& run) {
    RunSkeleton s;
    std::string members;
    for (const MetricValues& mv : run.metrics) {
        const bool scalar = !mv.array && mv.values.size() == 1;
        if (scalar) s.scalar_metrics.push_back(mv.name.str());
        std::vector<std::string> texts;
        for (const NumberToken& v : mv.values) {
            texts.emplace_back();
            append_json_number(texts.back(), v);
        }
        std::string name;
        append_json_string(name, mv.name.str());
        if (!members.empty()) members += ',';
        append_member(members, name, scalar, texts);
    }
    std::string skeleton = store_projected_run(line, {});
    // Kept only when the skeleton and the values give the line back.
    if (skeleton.find(kMetricsHead) != std::string::npos && with_members(skeleton, members) == line)
        s.skeleton = std::move(skeleton);
    return s;
}

RunSkeleton store_run_skeleton(const std::string& line) {
    try {
        ResultsRecord rec = parse_record_line(line);
        if (const auto* run = std::get_if<RunRecord>(&rec)) return store_run_skeleton(line, *run);
    } catch (const std::exception&) {
    }
    return {};
}

std::string store_projected_run(const std::string& line, const std::vector<std::string>& names) {
    const auto wants = [&](std::string_view token) { return std::find(names.begin(), names.end(), token) != names.end(); };
    const size_t open = line.find(kMetricsHead);
    if (open == std::string::npos) return line;
    std::string out = line.substr(0, open + kMetricsHead.size());
    size_t at = open + kMetricsHead.size();
    bool first = true;
    while (at < line.size() && line[at] != '}') {
        const size_t key_end = string_end(line, at);
        if (key_end == std::string::npos || key_end >= line.size() || line[key_end] != ':') return line;
        size_t end = key_end + 1;
        if (end < line.size() && line[end] == '[') end = line.find(']', end);
        if (end == std::string::npos) return line;
        end = line.find_first_of(",}", end);
        if (end == std::string::npos) return line;
        if (wants(std::string_view(line).substr(at, key_end - at))) {
            if (!first) out += ',';
            out.append(line, at, end - at);
            first = false;
        }
        at = line[end] == ',' ? end + 1 : end;
    }
    if (at >= line.size()) return line;
    out.append(line, at, std::string::npos);
    return out;
}

std::string store_rebuilt_run(const std::string& skeleton, const std::string& metric, int scalar,
                              const std::vector<std::string>& texts) {
    if (scalar < 0) return skeleton;
    std::string name, members;
    append_json_string(name, metric);
    append_member(members, name, scalar > 0, texts);
    return with_members(skeleton, members);
}

void apply_store_steps(const StoreStep* steps, size_t count, int from, const std::function<void(const StoreStep&)>& apply,
                       std::vector<std::string>* done) {
    for (size_t i = 0; i < count; ++i) {
        if (steps[i].to <= from) continue;
        apply(steps[i]);
        if (done) done->push_back("v" + std::to_string(steps[i].to) + ": " + steps[i].what);
    }
}

std::string store_newer_schema(const std::string& shown, int version) {
    return shown + ": this store is schema v" + std::to_string(version) + "; this gfxstat reads up to v" +
           std::to_string(kStoreSchemaVersion) + ": upgrade gfxstat";
}

std::string store_older_schema(const std::string& shown, int version) {
    return shown + ": this store is schema v" + std::to_string(version) + "; this gfxstat uses v" +
           std::to_string(kStoreSchemaVersion) + ": run gfxstat store upgrade";
}

std::string store_not_a_store(const std::string& shown) {
    return shown + ": not a gfxstat store (no schema_version table); refusing to touch it";
}

std::string store_empty_database(const std::string& shown) {
    return shown + ": not a gfxstat store (an empty database; gfxstat store init makes one)";
}

std::string store_identity_conflict(const StoreRecord& pushed, const std::string& name, const std::string& stored_line,
                                    const std::string& stored_file_id, const std::string& stored_name,
                                    const std::string& stored_pushed_at) {
    if (stored_identity_line(pushed.kind, stored_line, stored_file_id) == pushed.identity_line) return "";
    const std::string what = pushed.kind == StoreRecord::Kind::run ? "run" : "image check";
    return name + ": " + what + " " + std::to_string(pushed.index) + " of variant " + quote_token(pushed.variant) +
           " (first recorded in file " + pushed.origin + ") differs from the stored " + what + " of file " +
           stored_file_id + " (pushed from " + stored_name + " at " + stored_pushed_at +
           "); nothing of this push is written";
}

StoreRecord::Kind store_record_kind_of(const std::string& name) {
    for (auto k : {StoreRecord::Kind::metric, StoreRecord::Kind::environment, StoreRecord::Kind::design,
                   StoreRecord::Kind::run, StoreRecord::Kind::image_check})
        if (name == store_record_kind_name(k)) return k;
    throw InputError("a stored record of unknown kind " + quote_token(name) + " (gfxstat store check)");
}

std::string store_run_conditions(const StoreQuery& query, std::vector<std::string>& values, char placeholder) {
    std::string where = "r.kind = 'run'";
    const auto in = [&](const std::vector<std::string>& list) {
        std::string s = "(";
        for (size_t i = 0; i < list.size(); ++i) {
            values.push_back(list[i]);
            s += (i ? ", " : "") + std::string(1, placeholder) + std::to_string(values.size());
        }
        return s + ")";
    };
    // SQLite: with machines given, `+r.variant` keeps the planner off the
    // variant index (one variant may hold every run) and on
    // records_machine_build; PostgreSQL's statistics choose by themselves.
    const bool off_variant_index = placeholder == '?' && !query.machines.empty();
    if (!query.variants.empty())
        where += std::string(" AND ") + (off_variant_index ? "+" : "") + "r.variant IN " + in(query.variants);
    if (!query.machines.empty()) where += " AND r.machine IN " + in(query.machines);
    if (!query.builds.empty()) where += " AND r.build IN " + in(query.builds);
    if (!query.metrics.empty())
        where += " AND r.id IN (SELECT rm.record FROM run_metrics rm JOIN metric_names m ON m.id = rm.metric "
                 "WHERE m.name IN " + in(query.metrics) + ")";
    return where;
}

void check_stored_record(StoreCheck& c, const CheckedRecord& r,
                         const std::function<std::vector<CheckedSample>(int64_t record)>& samples) {
    const std::string where = "record " + std::to_string(r.id) + " (file " + r.file_id + ")";
    try {
        const ResultsRecord rec = parse_record_line(r.line);
        const bool ok = (r.kind == "metric" && std::holds_alternative<MetricInfo>(rec)) ||
                        (r.kind == "environment" && std::holds_alternative<Environment>(rec)) ||
                        (r.kind == "design" && std::holds_alternative<DesignRecord>(rec)) ||
                        (r.kind == "run" && std::holds_alternative<RunRecord>(rec)) ||
                        (r.kind == "image_check" && std::holds_alternative<ImageCheck>(rec));
        if (!ok) {
            c.problems.push_back(where + ": a " + r.kind + " record whose line is another kind");
            return;
        }
        if (const auto* run = std::get_if<RunRecord>(&rec)) {
            size_t values = 0;
            for (const MetricValues& mv : run->metrics) values += mv.values.size();
            if (values != static_cast<size_t>(r.samples))
                c.problems.push_back(where + ": the run holds " + std::to_string(values) + " values, the store " +
                                     std::to_string(r.samples) + " samples");
            if (run->metrics.size() != static_cast<size_t>(r.metrics))
                c.problems.push_back(where + ": the run has " + std::to_string(run->metrics.size()) +
                                     " metrics, the store lists " + std::to_string(r.metrics));
            if (r.origin != (run->origin.empty() ? r.file_id : run->origin.str()) || r.variant != run->variant.str() ||
                r.idx != static_cast<int64_t>(run->run))
                c.problems.push_back(where + ": its identity columns (origin, variant, index) differ from its line");
            check_samples(c, where, *run, samples(r.id));
            const RunSkeleton sk = store_run_skeleton(r.line, *run);
            if (sk.skeleton != r.skeleton)
                c.problems.push_back(where + ": its skeleton differs from its line with the metrics emptied");
            if (static_cast<int64_t>(sk.scalar_metrics.size()) != r.scalar_metrics)
                c.problems.push_back(where + ": the run prints " + std::to_string(sk.scalar_metrics.size()) +
                                     " metrics as a lone number, the store marks " + std::to_string(r.scalar_metrics));
        } else if (const auto* check = std::get_if<ImageCheck>(&rec)) {
            if (r.origin != (check->origin.empty() ? r.file_id : check->origin) || r.variant != check->variant ||
                r.idx != static_cast<int64_t>(check->check))
                c.problems.push_back(where + ": its identity columns (origin, variant, index) differ from its line");
        }
    } catch (const std::exception& e) {
        c.problems.push_back(where + ": does not parse: " + e.what());
    }
}

void check_stored_header(StoreCheck& c, const std::string& file_id, const std::string& header) {
    try {
        if (parse_header_line(header).id != file_id) c.problems.push_back("file " + file_id + ": its header names another id");
    } catch (const std::exception& e) {
        c.problems.push_back("file " + file_id + ": its header does not parse: " + e.what());
    }
}

}  // namespace gfxstat::data
