// SPDX-License-Identifier: MIT
// Results-file records as JSON lines: the reading half, strict (a record
// that breaks a rule of docs/results-format.md names what), and the
// writing half in results_json_write.cpp.
#include "data/results_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <unordered_set>
#include <vector>
#include <nlohmann/json.hpp>

#include "data/input_error.h"
#include "data/json_cursor.h"
#include "data/throttle_json.h"

namespace gfxstat::data {

namespace {

[[noreturn]] void bad(const std::string& what) { throw RecordError(what); }

// The member names of one JSON object. A name given twice is refused: JSON
// parsers disagree on which one wins, so a record read one way by gfxstat
// and another way by a script would say two things.
class MemberNames {
public:
    explicit MemberNames(const char* where) : where_(where) {}
    void add(const std::string& name) {
        if (many_.empty()) {
            for (const std::string& n : few_)
                if (n == name) twice(name);
            few_.push_back(name);
            if (few_.size() == 16) many_.insert(few_.begin(), few_.end());  // tags can be many
        } else if (!many_.insert(name).second) {
            twice(name);
        }
    }

private:
    [[noreturn]] void twice(const std::string& name) const {
        bad("member " + quote_token(name) + " appears twice in " + where_ + " (which one counts is not defined)");
    }
    const char* where_;
    std::vector<std::string> few_;
    std::unordered_set<std::string> many_;
};

NumberToken json_number(JsonCursor& c, const std::string& where) {
    const std::string_view text = c.number_token();
    // Fast path: [-]digits[.digits], at most 18 digits (JSON forbids the
    // other shapes ministat accepts, like ".5" or "+1").
    const char* p = text.data();
    const char* end = p + text.size();
    NumberToken t;
    t.negative = *p == '-';
    p += t.negative;
    int digits = 0, fraction = 0;
    while (p < end && *p >= '0' && *p <= '9') t.significand = t.significand * 10 + (*p++ - '0'), ++digits;
    if (p < end && *p == '.') {
        ++p;
        while (p < end && *p >= '0' && *p <= '9')
            t.significand = t.significand * 10 + (*p++ - '0'), ++digits, ++fraction;
    }
    if (p == end && digits <= 18) {
        t.status = TokenStatus::decimal;
        t.exponent = -fraction;
        return t;
    }
    t = parse_number_token(text);
    if (t.status != TokenStatus::decimal && t.status != TokenStatus::binary)
        bad(where + " " + std::string(text) + " is " + describe(t.status));
    return t;
}

uint64_t json_count(JsonCursor& c, const std::string& where) {
    if (c.peek() != JsonKind::number) bad(where + " must be a whole number, found " + c.describe_next());
    const std::string_view text = c.number_token();
    uint64_t v = 0;
    auto res = std::from_chars(text.data(), text.data() + text.size(), v);
    if (res.ec != std::errc() || res.ptr != text.data() + text.size() ||
        v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        bad(where + " must be a whole number from 0 to 2^63-1, found " + std::string(text));
    return v;
}

int json_int(JsonCursor& c, const std::string& where) {
    if (c.peek() != JsonKind::number) bad(where + " must be an integer, found " + c.describe_next());
    const std::string_view text = c.number_token();
    int v = 0;
    auto res = std::from_chars(text.data(), text.data() + text.size(), v);
    if (res.ec != std::errc() || res.ptr != text.data() + text.size())
        bad(where + " must be an integer, found " + std::string(text));
    return v;
}

std::string json_string(JsonCursor& c, const std::string& where) {
    if (c.peek() != JsonKind::string) bad(where + " must be a string, found " + c.describe_next());
    return c.string_value();
}

// Finds the top-level "type" member wherever it is in the object.
std::string record_type(std::string_view line) {
    JsonCursor c(line);
    c.begin_object();
    std::string key, type;
    bool found = false;
    while (c.next_key(key)) {
        if (key == "type" && !found) {
            type = json_string(c, "\"type\"");
            found = true;
        } else {
            c.skip_value();
        }
    }
    c.expect_end();
    if (!found) bad("a record needs a \"type\" member (\"run\", \"metric\", \"environment\", \"design\" or \"image_check\")");
    return type;
}

MetricInfo parse_metric(JsonCursor& c, MemberNames& names) {
    MetricInfo m;
    std::string key;
    bool named = false;
    while (c.next_key(key)) {
        names.add(key);
        if (key == "type") {
            c.skip_value();
        } else if (key == "name") {
            m.name = json_string(c, "a metric's \"name\"");
            named = true;
        } else if (key == "unit") {
            m.unit = json_string(c, "a metric's \"unit\"");
        } else if (key == "direction") {
            const std::string d = json_string(c, "a metric's \"direction\"");
            auto dir = parse_direction(d);
            if (!dir) bad("a metric's \"direction\" is \"lower\", \"higher\" or \"unknown\", not \"" + d + "\"");
            m.direction = *dir;
        } else if (key == "exact") {
            if (c.peek() != JsonKind::boolean)
                bad(std::string("a metric's \"exact\" must be true or false, found ") + c.describe_next());
            m.exact = c.boolean_value();
        } else if (key == "primary") {
            if (c.peek() != JsonKind::boolean)
                bad(std::string("a metric's \"primary\" must be true or false, found ") + c.describe_next());
            m.primary = c.boolean_value();
        } else if (key == "per") {
            // Any non-empty word: a kind a newer gfxstat adds ("iteration")
            // is still within-run data, never taken for independent runs.
            m.per = json_string(c, "a metric's \"per\"");
            if (m.per.empty() || m.per == "run")
                bad("a metric's \"per\" names what one value is within a run (\"frame\"); leave it out "
                    "when every value is a sample, found \"" + m.per + "\"");
        } else {
            m.unknown.emplace_back(key, std::string(c.skip_value()));
        }
    }
    if (!named || m.name.empty()) bad("a metric record needs a non-empty \"name\"");
    return m;
}

std::vector<std::string> json_string_array(JsonCursor& c, const std::string& where) {
    if (c.peek() != JsonKind::array) bad(where + " must be an array of strings, found " + c.describe_next());
    c.begin_array();
    std::vector<std::string> out;
    while (c.next_item()) out.push_back(json_string(c, where + "[" + std::to_string(out.size()) + "]"));
    return out;
}

std::map<std::string, std::string> json_string_map(JsonCursor& c, const std::string& where) {
    if (c.peek() != JsonKind::object) bad(where + " must be an object of strings, found " + c.describe_next());
    c.begin_object();
    std::map<std::string, std::string> out;
    std::string key;
    MemberNames keys("an object");
    while (c.next_key(key)) {
        keys.add(key);
        out[key] = json_string(c, where + ".\"" + key + "\"");
    }
    return out;
}

WorkloadRecord parse_workload(JsonCursor& c) {
    if (c.peek() != JsonKind::object)
        bad("an environment's \"workload\" must be an object like {\"argv\":[\"sleep\",\"1\"]}, found " +
            std::string(c.describe_next()));
    c.begin_object();
    WorkloadRecord w;
    std::string key;
    bool has_argv = false;
    MemberNames names("\"workload\"");
    while (c.next_key(key)) {
        names.add(key);
        if (key == "argv") {
            w.argv = json_string_array(c, "\"workload\".\"argv\"");
            has_argv = true;
        } else if (key == "builtin") {
            w.builtin = json_string(c, "\"workload\".\"builtin\"");
        } else if (key == "options") {
            w.options = json_string_map(c, "\"workload\".\"options\"");
        } else if (key == "parser") {
            w.parser = json_string(c, "\"workload\".\"parser\"");
        } else if (key == "parser_options") {
            w.parser_options = json_string_map(c, "\"workload\".\"parser_options\"");
        } else if (key == "metrics") {
            w.metrics = json_string_array(c, "\"workload\".\"metrics\"");
        } else if (key == "env") {
            w.env = json_string_map(c, "\"workload\".\"env\"");
        } else {
            w.unknown.emplace_back(key, std::string(c.skip_value()));
        }
    }
    // One or the other: a record that says both (or neither) is not a
    // workload anyone could run again.
    if (has_argv == !w.builtin.empty())
        bad("an environment's \"workload\" needs either \"argv\" (a command) or \"builtin\" (a built-in workload)");
    if (has_argv && w.argv.empty()) bad("\"workload\".\"argv\" must hold the command, not be empty");
    return w;
}

Environment parse_environment(JsonCursor& c, MemberNames& names) {
    Environment env;
    std::string key;
    while (c.next_key(key)) {
        names.add(key);
        if (key == "type") {
            c.skip_value();
        } else if (key == "id") {
            env.id = json_string(c, "an environment's \"id\"");
        } else if (key == "tags") {
            if (c.peek() != JsonKind::object) bad("\"tags\" must be an object of strings");
            c.begin_object();
            std::string tag;
            MemberNames tag_names("\"tags\"");
            while (c.next_key(tag)) {
                tag_names.add(tag);
                env.tags[tag] = json_string(c, "tag \"" + tag + "\"");
            }
        } else if (key == "workload") {
            env.workload = parse_workload(c);
        } else {
            env.fields[key] = json_string(c, "environment field \"" + key + "\"");
        }
    }
    if (env.id.empty()) bad("an environment record needs a non-empty \"id\"");
    return env;
}

void parse_exit(JsonCursor& c, RunRecord& r) {
    if (c.peek() != JsonKind::object) bad("\"exit\" must be an object like {\"class\":\"ok\"}");
    c.begin_object();
    std::string key;
    bool has_class = false;
    MemberNames names("\"exit\"");
    while (c.next_key(key)) {
        names.add(key);
        if (key == "class") {
            const std::string s = json_string(c, "\"exit\".\"class\"");
            auto cls = parse_exit_class(s);
            if (!cls) bad("\"exit\".\"class\" is ok, fail, skip, timeout, crash or invalid, not \"" + s + "\"");
            r.exit_class = *cls;
            has_class = true;
        } else if (key == "code") {
            r.exit_code = json_int(c, "\"exit\".\"code\"");
        } else if (key == "signal") {
            r.signal = json_int(c, "\"exit\".\"signal\"");
        } else if (key == "reason") {
            r.exit_reason = json_string(c, "\"exit\".\"reason\"");
        } else {
            c.skip_value();  // documented: unknown members of "exit" are ignored
        }
    }
    if (!has_class) bad("\"exit\" needs a \"class\"");
}

void parse_metrics(JsonCursor& c, RunRecord& r) {
    if (c.peek() != JsonKind::object) bad("\"metrics\" must be an object of name: number or [numbers]");
    c.begin_object();
    std::string name;
    while (c.next_key(name)) {
        MetricValues m;
        m.name = name;
        const std::string where = "metric \"" + name + "\"";
        const JsonKind k = c.peek();
        if (k == JsonKind::number) {
            m.values.push_back(json_number(c, where));
        } else if (k == JsonKind::array) {
            m.array = true;
            c.begin_array();
            // Reserve what the array can hold (commas before the first ']'),
            // so a million values are not copied through growing buffers.
            const std::string_view rest = c.rest();
            const std::string_view body = rest.substr(0, rest.find(']'));
            m.values.reserve(static_cast<size_t>(std::count(body.begin(), body.end(), ',')) + 1);
            while (c.next_item()) {
                if (c.peek() != JsonKind::number)
                    bad(where + " holds " + c.describe_next() + "; only numbers are allowed");
                m.values.push_back(json_number(c, where));
            }
        } else {
            bad(where + " must be a number or an array of numbers, found " + c.describe_next());
        }
        r.metrics.push_back(std::move(m));
    }
}

RunRecord parse_run(JsonCursor& c, MemberNames& names) {
    RunRecord r;
    std::string key;
    bool has_variant = false, has_run = false, has_exit = false, has_metrics = false;
    while (c.next_key(key)) {
        names.add(key);
        if (key == "type") {
            c.skip_value();
        } else if (key == "variant") {
            r.variant = json_string(c, "\"variant\"");
            has_variant = true;
        } else if (key == "run") {
            r.run = json_count(c, "\"run\"");
            has_run = true;
        } else if (key == "boot") {
            r.boot = json_string(c, "\"boot\"");
        } else if (key == "start") {
            r.start = json_string(c, "\"start\"");
        } else if (key == "duration_s") {
            if (c.peek() != JsonKind::number) bad("\"duration_s\" must be a number of seconds");
            const std::string_view t = c.number_token();
            double d = std::strtod(std::string(t).c_str(), nullptr);
            if (!(d >= 0) || d > std::numeric_limits<double>::max())
                bad("\"duration_s\" must be a finite number of seconds >= 0");
            r.duration_s = d;
        } else if (key == "exit") {
            parse_exit(c, r);
            has_exit = true;
        } else if (key == "warmup") {
            if (c.peek() != JsonKind::boolean) bad("\"warmup\" must be true or false");
            r.warmup = c.boolean_value();
        } else if (key == "environment") {
            r.environment = json_string(c, "\"environment\"");
        } else if (key == "metrics") {
            parse_metrics(c, r);
            has_metrics = true;
        } else if (key == "origin") {
            r.origin = json_string(c, "\"origin\"");
        } else if (key == "source") {
            r.source = json_string(c, "\"source\"");
        } else if (key == "log") {
            r.log = json_string(c, "\"log\"");
        } else if (key == "campaign_step") {
            r.campaign_step = json_count(c, "\"campaign_step\"");
        } else if (key == "design") {
            r.design = json_string(c, "\"design\"");
            if (r.design.empty()) bad("a run's \"design\" must name a design record, not be empty");
        } else if (key == "block") {
            r.block = json_count(c, "\"block\"");
        } else if (key == "position") {
            r.position = json_count(c, "\"position\"");
        } else if (key == "throttle") {
            r.throttle = parse_throttle(c);
        } else {
            r.unknown.emplace_back(key, std::string(c.skip_value()));
        }
    }
    if (!has_variant) bad("a run needs a \"variant\"");
    if (!has_run) bad("a run needs a \"run\" index");
    if (!has_exit) bad("a run needs an \"exit\" object");
    if (!has_metrics) bad("a run needs a \"metrics\" object (empty for a run that measured nothing)");
    return r;
}

}  // namespace

ResultsHeader parse_header_line(std::string_view line) {
    JsonCursor c(line);
    if (c.peek() != JsonKind::object) bad("expected the header object {\"format\":\"gfxstat-results\",...}");
    c.begin_object();
    ResultsHeader h;
    std::string key, format;
    bool has_version = false;
    MemberNames names("the header");
    while (c.next_key(key)) {
        names.add(key);
        if (key == "format") {
            format = json_string(c, "\"format\"");
        } else if (key == "version") {
            h.version = json_int(c, "\"version\"");
            has_version = true;
        } else if (key == "id") {
            h.id = json_string(c, "\"id\"");
        } else if (key == "created") {
            h.created = json_string(c, "\"created\"");
        } else if (key == "generator") {
            h.generator = json_string(c, "\"generator\"");
        } else if (key == "merged_from") {
            if (c.peek() != JsonKind::array) bad("\"merged_from\" must be an array");
            c.begin_array();
            while (c.next_item()) {
                if (c.peek() != JsonKind::object) bad("\"merged_from\" holds objects");
                c.begin_object();
                ResultsHeader::Source s;
                std::string k;
                MemberNames source_names("an entry of \"merged_from\"");
                while (c.next_key(k)) {
                    source_names.add(k);
                    if (k == "id") s.id = json_string(c, "\"merged_from\".\"id\"");
                    else if (k == "path") s.path = json_string(c, "\"merged_from\".\"path\"");
                    else if (k == "created") s.created = json_string(c, "\"merged_from\".\"created\"");
                    else c.skip_value();
                }
                h.merged_from.push_back(std::move(s));
            }
        } else {
            h.unknown.emplace_back(key, std::string(c.skip_value()));
        }
    }
    c.expect_end();
    if (format != kResultsFormatName) bad("not a gfxstat results file: the header's \"format\" is not \"gfxstat-results\"");
    if (!has_version) bad("the header has no \"version\"");
    if (h.version > kResultsFormatVersion)
        bad("written in results format version " + std::to_string(h.version) +
            " by a newer gfxstat; this one reads version " + std::to_string(kResultsFormatVersion));
    if (h.version < 1) bad("the header's \"version\" must be 1 or more");
    if (h.id.empty()) bad("the header has no \"id\"");
    return h;
}

double json_double(JsonCursor& c, const std::string& where) {
    if (c.peek() != JsonKind::number) bad(where + " must be a number, found " + c.describe_next());
    const std::string_view t = c.number_token();
    double v = 0;
    auto res = std::from_chars(t.data(), t.data() + t.size(), v);
    if (res.ec != std::errc() || res.ptr != t.data() + t.size() || !std::isfinite(v))
        bad(where + " must be a finite number, found " + std::string(t));
    return v;
}

DesignRecord parse_design(JsonCursor& c, MemberNames& names) {
    DesignRecord d;
    std::string key;
    bool has_variants = false;
    while (c.next_key(key)) {
        names.add(key);
        if (key == "type") {
            c.skip_value();
        } else if (key == "id") {
            d.id = json_string(c, "a design's \"id\"");
        } else if (key == "kind") {
            d.kind = json_string(c, "a design's \"kind\"");
        } else if (key == "variants") {
            d.variants = json_string_array(c, "a design's \"variants\"");
            has_variants = true;
        } else if (key == "order") {
            d.order = json_string(c, "a design's \"order\"");
        } else if (key == "seed") {
            d.seed = json_count(c, "a design's \"seed\"");
        } else if (key == "stopping") {
            d.stopping = json_string(c, "a design's \"stopping\"");
        } else if (key == "method") {
            d.method = json_string(c, "a design's \"method\"");
        } else if (key == "metric") {
            d.metric = json_string(c, "a design's \"metric\"");
        } else if (key == "confidence") {
            d.confidence = json_double(c, "a design's \"confidence\"");
            // Above 0.5, as compare's --confidence: equivalence is tested at 1 - 2 alpha.
            if (!(d.confidence > 0.5 && d.confidence < 1))
                bad("a design's \"confidence\" must lie between 0.5 and 1 (0.95), exclusive");
        } else if (key == "threshold") {
            d.threshold = json_double(c, "a design's \"threshold\"");
            if (!(d.threshold >= 0)) bad("a design's \"threshold\" must be 0 or more");
        } else if (key == "max_runs") {
            d.max_runs = json_count(c, "a design's \"max_runs\"");
        } else if (key == "runs") {
            d.runs = json_count(c, "a design's \"runs\"");
        } else if (key == "looks") {
            if (c.peek() != JsonKind::array) bad("a design's \"looks\" must be an array of block counts");
            c.begin_array();
            while (c.next_item()) {
                d.looks.push_back(json_count(c, "a design's \"looks\""));
                if (d.looks.back() < 2 || (d.looks.size() > 1 && d.looks.back() <= d.looks[d.looks.size() - 2]))
                    bad("a design's \"looks\" must increase from 2 blocks or more");
            }
        } else if (key == "boundary") {
            if (c.peek() != JsonKind::array) bad("a design's \"boundary\" must be an array of numbers");
            c.begin_array();
            while (c.next_item()) d.boundary.push_back(json_double(c, "a design's \"boundary\""));
        } else {
            d.unknown.emplace_back(key, std::string(c.skip_value()));
        }
    }
    if (d.id.empty()) bad("a design record needs a non-empty \"id\"");
    if (!d.boundary.empty() && d.boundary.size() != d.looks.size())
        bad("a design's \"boundary\" needs one bound per look");
    if (!has_variants || d.variants.size() < 2) bad("a design record needs \"variants\", two or more labels");
    for (size_t i = 0; i < d.variants.size(); ++i) {
        if (d.variants[i].empty()) bad("a design's \"variants\" may not hold an empty label");
        for (size_t j = 0; j < i; ++j)
            if (d.variants[j] == d.variants[i])
                bad("a design's \"variants\" names \"" + d.variants[i] + "\" twice");
    }
    return d;
}

namespace {

void parse_check_exit(JsonCursor& c, ImageCheck& check) {
    // The same object as a run's; a checking run has no signal of its own
    // to keep apart (a crash is its class).
    RunRecord r;
    parse_exit(c, r);
    check.exit_class = r.exit_class;
    check.exit_code = r.exit_code;
    check.exit_reason = std::string(r.exit_reason);
}

// "0", "17": a frame number as the replayer counts; no sign, no leading
// zero ("01" and "1" would be two names for one frame).
uint64_t frame_number(const std::string& key) {
    uint64_t v = 0;
    const auto res = std::from_chars(key.data(), key.data() + key.size(), v);
    if (key.empty() || res.ec != std::errc() || res.ptr != key.data() + key.size() ||
        (key.size() > 1 && key[0] == '0') || v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        bad("an image check's \"images\" are keyed by frame numbers (decimal integers like \"1\"), not " +
            quote_token(key));
    return v;
}

void parse_frames(JsonCursor& c, ImageCheck& check) {
    if (c.peek() != JsonKind::object)
        bad("an image check's \"images\" must be an object of frame number: checksum, found " +
            std::string(c.describe_next()));
    c.begin_object();
    std::string key;
    while (c.next_key(key)) {
        const uint64_t frame = frame_number(key);
        std::string sum = json_string(c, "frame " + key + "'s checksum");
        bool hex = sum.size() == 32 || sum.size() == 64;
        for (char& ch : sum) {
            if (ch >= 'A' && ch <= 'F') ch = static_cast<char>(ch - 'A' + 'a');
            hex &= (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
        }
        if (!hex)
            bad("frame " + key + "'s checksum must be 32 (md5) or 64 (sha256) hex digits, found " +
                quote_token(sum));
        if (!check.frames.emplace(frame, std::move(sum)).second)
            bad("frame " + std::to_string(frame) + " appears twice in an image check's \"images\"");
    }
}

ImageCheck parse_image_check(JsonCursor& c, MemberNames& names) {
    ImageCheck k;
    std::string key;
    bool has_variant = false, has_check = false, has_exit = false, has_frames = false;
    while (c.next_key(key)) {
        names.add(key);
        if (key == "type") {
            c.skip_value();
        } else if (key == "variant") {
            k.variant = json_string(c, "an image check's \"variant\"");
            has_variant = true;
        } else if (key == "check") {
            k.check = json_count(c, "an image check's \"check\"");
            has_check = true;
        } else if (key == "boot") {
            k.boot = json_string(c, "an image check's \"boot\"");
        } else if (key == "start") {
            k.start = json_string(c, "an image check's \"start\"");
        } else if (key == "duration_s") {
            const double d = json_double(c, "an image check's \"duration_s\"");
            if (!(d >= 0)) bad("an image check's \"duration_s\" must be a number of seconds >= 0");
            k.duration_s = d;
        } else if (key == "exit") {
            parse_check_exit(c, k);
            has_exit = true;
        } else if (key == "environment") {
            k.environment = json_string(c, "an image check's \"environment\"");
        } else if (key == "tool") {
            k.tool = json_string(c, "an image check's \"tool\"");
        } else if (key == "method") {
            k.method = json_string(c, "an image check's \"method\"");
        } else if (key == "images") {
            parse_frames(c, k);
            has_frames = true;
        } else if (key == "kept") {
            k.kept = json_string(c, "an image check's \"kept\"");
            if (k.kept.empty()) bad("an image check's \"kept\" must name a directory, not be empty");
        } else if (key == "origin") {
            k.origin = json_string(c, "an image check's \"origin\"");
        } else if (key == "design") {
            k.design = json_string(c, "an image check's \"design\"");
            if (k.design.empty()) bad("an image check's \"design\" must name a design record, not be empty");
        } else if (key == "block") {
            k.block = json_count(c, "an image check's \"block\"");
        } else {
            k.unknown.emplace_back(key, std::string(c.skip_value()));
        }
    }
    if (!has_variant) bad("an image check needs a \"variant\"");
    if (!has_check) bad("an image check needs a \"check\" index");
    if (!has_exit) bad("an image check needs an \"exit\" object");
    if (k.tool.empty()) bad("an image check needs a non-empty \"tool\" (the replayer: \"glretrace\")");
    if (k.method.empty()) bad("an image check needs a non-empty \"method\" (\"md5\" or \"sha256-file\")");
    if (!has_frames) bad("an image check needs a \"images\" object (empty for a check that did not end ok)");
    if (const size_t digits = checksum_hex_digits(k.method))
        for (const auto& [frame, sum] : k.frames)
            if (sum.size() != digits)
                bad("frame " + std::to_string(frame) + "'s checksum has " + std::to_string(sum.size()) +
                    " hex digits; method \"" + k.method + "\" gives " + std::to_string(digits));
    return k;
}

}  // namespace

ResultsRecord parse_record_line(std::string_view line) {
    // gfxstat writes "type" first; then one pass reads the record. Records
    // written by others may put it anywhere, which costs a second pass.
    JsonCursor c(line);
    c.begin_object();
    std::string key, type;
    MemberNames names("one record");
    if (c.next_key(key) && key == "type") {
        names.add(key);
        type = json_string(c, "\"type\"");
    } else {
        type = record_type(line);
        c = JsonCursor(line);
        c.begin_object();
    }
    ResultsRecord rec;
    if (type == "run") rec = parse_run(c, names);
    else if (type == "metric") rec = parse_metric(c, names);
    else if (type == "environment") rec = parse_environment(c, names);
    else if (type == "design") rec = parse_design(c, names);
    else if (type == "image_check") rec = parse_image_check(c, names);
    else {
        // A newer gfxstat's record: the line is well-formed JSON (checked
        // by reading it whole), its content is not ours to judge.
        if (type.empty()) bad("a record's \"type\" must not be empty");
        while (c.next_key(key)) {
            names.add(key);
            c.skip_value();
        }
        c.expect_end();
        return UnknownRecord{type};
    }
    c.expect_end();
    return rec;
}

bool looks_like_results(std::string_view start) {
    // Column files cannot start with '{' (it is not a number), so whatever
    // does is read as a results file, and gets a results-file error if it
    // is not one.
    size_t i = 0;
    while (i < start.size() && (start[i] == ' ' || start[i] == '\t' || start[i] == '\r' ||
                                start[i] == '\n'))
        ++i;
    return i < start.size() && start[i] == '{';
}

}  // namespace gfxstat::data
