// SPDX-License-Identifier: MIT
// Results-file records as JSON lines: the writing half (the reading half is
// results_json.cpp). Numbers keep their exact decimal tokens; strings are
// escaped so that any byte sequence round-trips.
#include "data/results_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "data/throttle_json.h"

namespace gfxstat::data {

void append_json_string(std::string& out, std::string_view s) {
    bool plain = true;
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        plain &= (u >= 0x20 && u < 0x80 && c != '"' && c != '\\');
    }
    if (plain) {  // the common case, without building a json value
        out += '"';
        out += s;
        out += '"';
        return;
    }
    out += nlohmann::json(std::string(s)).dump(-1, ' ', false,
                                               nlohmann::json::error_handler_t::replace);
}

void append_json_number(std::string& out, const NumberToken& v) {
    if (v.status == TokenStatus::binary) {
        char buf[32];
        auto res = std::to_chars(buf, buf + sizeof buf, v.value);  // shortest round trip
        out.append(buf, res.ptr);
        return;
    }
    uint64_t s = v.significand;
    int64_t e = v.exponent;
    if (v.negative) out += '-';
    if (s == 0) {
        out += '0';
        return;
    }
    while (s % 10 == 0) s /= 10, ++e;
    char digits[24];
    const int len = static_cast<int>(std::to_chars(digits, digits + sizeof digits, s).ptr - digits);
    const int64_t point = len + e;  // digits before the decimal point
    if (e >= 0 && point <= 21) {
        out.append(digits, len);
        out.append(static_cast<size_t>(e), '0');
    } else if (e < 0 && point > 0) {
        out.append(digits, static_cast<size_t>(point));
        out += '.';
        out.append(digits + point, static_cast<size_t>(len - point));
    } else if (e < 0 && point > -6) {
        out += "0.";
        out.append(static_cast<size_t>(-point), '0');
        out.append(digits, len);
    } else {
        out += digits[0];
        if (len > 1) {
            out += '.';
            out.append(digits + 1, static_cast<size_t>(len - 1));
        }
        out += 'e';
        out += std::to_string(point - 1);
    }
}

namespace {

void append_unknown(std::string& out, const UnknownMembers& unknown) {
    for (const auto& [k, raw] : unknown) {
        out += ',';
        append_json_string(out, k);
        out += ':';
        out += raw;
    }
}

void member(std::string& out, std::string_view key, std::string_view value) {
    out += ",\"";
    out += key;
    out += "\":";
    append_json_string(out, value);
}

}  // namespace

void append_header_line(std::string& out, const ResultsHeader& h) {
    out += "{\"format\":\"";
    out += kResultsFormatName;
    out += "\",\"version\":";
    out += std::to_string(h.version);
    member(out, "id", h.id);
    member(out, "created", h.created);
    member(out, "generator", h.generator);
    if (!h.merged_from.empty()) {
        out += ",\"merged_from\":[";
        for (size_t i = 0; i < h.merged_from.size(); ++i) {
            const auto& s = h.merged_from[i];
            out += i ? ",{\"id\":" : "{\"id\":";
            append_json_string(out, s.id);
            member(out, "path", s.path);
            member(out, "created", s.created);
            out += '}';
        }
        out += ']';
    }
    append_unknown(out, h.unknown);
    out += "}\n";
}

void append_metric_line(std::string& out, const MetricInfo& m) {
    out += "{\"type\":\"metric\"";
    member(out, "name", m.name);
    member(out, "unit", m.unit);
    member(out, "direction", direction_name(m.direction));
    // Written only when they say something: a file without them reads as
    // before (not exact, primary unknown).
    if (m.exact) out += ",\"exact\":true";
    if (m.primary) out += *m.primary ? ",\"primary\":true" : ",\"primary\":false";
    if (!m.per.empty()) member(out, "per", m.per);
    append_unknown(out, m.unknown);
    out += "}\n";
}

namespace {

void append_string_array(std::string& out, const std::vector<std::string>& items) {
    out += '[';
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ',';
        append_json_string(out, items[i]);
    }
    out += ']';
}

// The "key":"value" members of `m`, comma-separated, with a comma before
// the first as well when members precede them. Keys are data: escaped
// (member() does not).
void append_string_members(std::string& out, const std::map<std::string, std::string>& m, bool after_members) {
    bool comma = after_members;
    for (const auto& [k, v] : m) {
        if (comma) out += ',';
        comma = true;
        append_json_string(out, k);
        out += ':';
        append_json_string(out, v);
    }
}

void append_string_map(std::string& out, const std::map<std::string, std::string>& m) {
    out += '{';
    append_string_members(out, m, false);
    out += '}';
}

// {"argv":[...]} or {"builtin":"...","options":{...}}, then the parser and
// what is set; empty members are left out.
void append_workload(std::string& out, const WorkloadRecord& w) {
    out += ",\"workload\":{";
    if (!w.builtin.empty()) {
        out += "\"builtin\":";
        append_json_string(out, w.builtin);
        if (!w.options.empty()) {
            out += ",\"options\":";
            append_string_map(out, w.options);
        }
    } else {
        out += "\"argv\":";
        append_string_array(out, w.argv);
    }
    if (!w.parser.empty()) member(out, "parser", w.parser);
    if (!w.parser_options.empty()) {
        out += ",\"parser_options\":";
        append_string_map(out, w.parser_options);
    }
    if (!w.metrics.empty()) {
        out += ",\"metrics\":";
        append_string_array(out, w.metrics);
    }
    if (!w.env.empty()) {
        out += ",\"env\":";
        append_string_map(out, w.env);
    }
    append_unknown(out, w.unknown);
    out += '}';
}

}  // namespace

void append_environment_line(std::string& out, const Environment& env) {
    out += "{\"type\":\"environment\"";
    member(out, "id", env.id);
    append_string_members(out, env.fields, true);
    if (!env.tags.empty()) {
        out += ",\"tags\":";
        append_string_map(out, env.tags);
    }
    if (env.workload) append_workload(out, *env.workload);
    out += "}\n";
}

void append_run_line(std::string& out, const RunRecord& r) { append_run_line(out, r, {}); }

void append_run_line(std::string& out, const RunRecord& r, const std::vector<PackedTokens>& packed) {
    out += "{\"type\":\"run\"";
    member(out, "variant", r.variant);
    out += ",\"run\":";
    out += std::to_string(r.run);
    if (!r.boot.empty()) member(out, "boot", r.boot);
    if (!r.start.empty()) member(out, "start", r.start);
    if (r.duration_s) {
        out += ",\"duration_s\":";
        char buf[32];
        out.append(buf, std::to_chars(buf, buf + sizeof buf, *r.duration_s).ptr);
    }
    out += ",\"exit\":{\"class\":\"";
    out += exit_class_name(r.exit_class);
    out += '"';
    if (r.exit_code) out += ",\"code\":" + std::to_string(*r.exit_code);
    if (r.signal) out += ",\"signal\":" + std::to_string(*r.signal);
    if (!r.exit_reason.empty()) member(out, "reason", r.exit_reason);
    out += '}';
    if (r.warmup) out += ",\"warmup\":true";
    if (!r.environment.empty()) member(out, "environment", r.environment);
    out += ",\"metrics\":{";
    for (size_t i = 0; i < r.metrics.size(); ++i) {
        const MetricValues& m = r.metrics[i];
        if (i) out += ',';
        append_json_string(out, m.name);
        out += ':';
        const PackedTokens* p = i < packed.size() && !packed[i].empty() ? &packed[i] : nullptr;
        const bool array = m.array || (p ? p->size() : m.values.size()) != 1;
        if (array) out += '[';
        bool first = true;
        const auto number = [&](const NumberToken& t) {
            if (!first) out += ',';
            first = false;
            append_json_number(out, t);
        };
        if (p) p->for_each(number);
        else std::for_each(m.values.begin(), m.values.end(), number);
        if (array) out += ']';
    }
    out += '}';
    if (!r.origin.empty()) member(out, "origin", r.origin);
    if (!r.source.empty()) member(out, "source", r.source);
    if (!r.log.empty()) member(out, "log", r.log);
    if (r.campaign_step) {
        out += ",\"campaign_step\":";
        out += std::to_string(*r.campaign_step);
    }
    if (!r.design.empty()) member(out, "design", r.design);
    if (r.block) out += ",\"block\":" + std::to_string(*r.block);
    if (r.position) out += ",\"position\":" + std::to_string(*r.position);
    if (r.throttle) append_throttle_member(out, *r.throttle);
    append_unknown(out, r.unknown);
    out += "}\n";
}

void append_design_line(std::string& out, const DesignRecord& d) {
    const auto number = [&](const char* key, double v) {
        char buf[32];
        out += ",\"";
        out += key;
        out += "\":";
        out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);  // shortest round trip
    };
    out += "{\"type\":\"design\"";
    member(out, "id", d.id);
    member(out, "kind", d.kind);
    out += ",\"variants\":";
    append_string_array(out, d.variants);
    if (!d.order.empty()) member(out, "order", d.order);
    out += ",\"seed\":" + std::to_string(d.seed);
    if (!d.stopping.empty()) member(out, "stopping", d.stopping);
    if (!d.method.empty()) member(out, "method", d.method);
    if (!d.metric.empty()) member(out, "metric", d.metric);
    number("confidence", d.confidence);
    number("threshold", d.threshold);
    if (d.max_runs) out += ",\"max_runs\":" + std::to_string(*d.max_runs);
    if (d.runs) out += ",\"runs\":" + std::to_string(*d.runs);
    if (!d.looks.empty()) {
        out += ",\"looks\":[";
        for (size_t i = 0; i < d.looks.size(); ++i) out += (i ? "," : "") + std::to_string(d.looks[i]);
        out += "]";
    }
    if (!d.boundary.empty()) {
        out += ",\"boundary\":[";
        for (size_t i = 0; i < d.boundary.size(); ++i) {
            char buf[32];
            if (i) out += ",";
            out.append(buf, std::to_chars(buf, buf + sizeof buf, d.boundary[i]).ptr);
        }
        out += "]";
    }
    append_unknown(out, d.unknown);
    out += "}\n";
}

void append_image_check_line(std::string& out, const ImageCheck& k) {
    out += "{\"type\":\"image_check\"";
    member(out, "variant", k.variant);
    out += ",\"check\":";
    out += std::to_string(k.check);
    if (!k.boot.empty()) member(out, "boot", k.boot);
    if (!k.start.empty()) member(out, "start", k.start);
    if (k.duration_s) {
        out += ",\"duration_s\":";
        char buf[32];
        out.append(buf, std::to_chars(buf, buf + sizeof buf, *k.duration_s).ptr);  // shortest round trip
    }
    out += ",\"exit\":{\"class\":\"";
    out += exit_class_name(k.exit_class);
    out += '"';
    if (k.exit_code) out += ",\"code\":" + std::to_string(*k.exit_code);
    if (!k.exit_reason.empty()) member(out, "reason", k.exit_reason);
    out += '}';
    if (!k.environment.empty()) member(out, "environment", k.environment);
    member(out, "tool", k.tool);
    member(out, "method", k.method);
    out += ",\"images\":{";
    bool first = true;
    for (const auto& [frame, sum] : k.frames) {
        out += first ? "\"" : ",\"";
        first = false;
        out += std::to_string(frame);
        out += "\":";
        append_json_string(out, sum);
    }
    out += '}';
    if (!k.kept.empty()) member(out, "kept", k.kept);
    if (!k.origin.empty()) member(out, "origin", k.origin);
    if (!k.design.empty()) member(out, "design", k.design);
    if (k.block) out += ",\"block\":" + std::to_string(*k.block);
    append_unknown(out, k.unknown);
    out += "}\n";
}

}  // namespace gfxstat::data
