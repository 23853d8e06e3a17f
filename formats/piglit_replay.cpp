// SPDX-License-Identifier: MIT
// `piglit-replay`: the output of `piglit replay profile trace FILE`, from
// piglit's framework/replay sources (tests/fixtures/frames/README.md). It
// replays an apitrace trace in a loop with eglretrace --benchmark --pframes
// "opengl:GPU Duration" and prints:
//
//   [profile_trace] Running: eglretrace --headless --benchmark ... FILE
//   [frame_times] 150
//   PIGLIT: {"images": [{"image_desc": "FILE", "frame_times": [22156000, ...]}], "result": "pass"}
//
// frame_times are the GPU durations of the last N frames in ns; they
// become `frame_time` in ms (exactly: the decimal point moves six places)
// and the per-run summaries (formats/frame_time_metrics.h). A result other
// than "pass", or "frame_times": null (the trace could not be replayed),
// fails the run, as do "[frame_times] error" and the "[frame_times] Trace
// PATH couldn't be replayed. ..." line piglit prints before it. One trace per run: a
// second PIGLIT line is an error, not a second set of frames mixed in.
#include <exception>
#include <optional>
#include <stdexcept>

#include "data/json_cursor.h"
#include "formats/format_list.h"
#include "formats/frame_time_metrics.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

struct Profile {
    std::string trace, result;
    bool null_times = false;
    std::vector<NumberToken> ns;
    size_t images = 0;
};

// The PIGLIT: line's JSON. Throws data::JsonSyntaxError for bad JSON and
// std::runtime_error for JSON of another shape.
Profile read_profile(std::string_view json) {
    data::JsonCursor c(json);
    Profile p;
    const auto shape = [](const std::string& what) { throw std::runtime_error(what); };
    if (c.peek() != data::JsonKind::object) shape("expected a JSON object");
    c.begin_object();
    std::string key;
    while (c.next_key(key)) {
        if (key == "result") {
            if (c.peek() != data::JsonKind::string) shape("\"result\" must be a string");
            p.result = c.string_value();
        } else if (key == "images") {
            if (c.peek() != data::JsonKind::array) shape("\"images\" must be an array");
            c.begin_array();
            while (c.next_item()) {
                ++p.images;
                if (c.peek() != data::JsonKind::object) shape("an image must be an object");
                c.begin_object();
                std::string k;
                while (c.next_key(k)) {
                    if (k == "image_desc" && c.peek() == data::JsonKind::string) {
                        p.trace = c.string_value();
                    } else if (k == "frame_times") {
                        if (c.peek() == data::JsonKind::null) {
                            c.null_value();
                            p.null_times = true;
                            continue;
                        }
                        if (c.peek() != data::JsonKind::array) shape("\"frame_times\" must be an array of numbers");
                        c.begin_array();
                        while (c.next_item()) {
                            if (c.peek() != data::JsonKind::number) shape("\"frame_times\" must hold numbers");
                            p.ns.push_back(data::parse_number_token(c.number_token()));
                        }
                    } else {
                        c.skip_value();
                    }
                }
            }
        } else {
            c.skip_value();
        }
    }
    c.expect_end();
    return p;
}

ParseResult parse_piglit_replay(const RunOutput& o) {
    LineReader lines(o.out);
    std::string_view line;
    std::optional<size_t> announced;  // "[frame_times] N"
    size_t announced_line = 0, profile_line = 0;
    Profile p;
    while (lines.next(line)) {
        const std::string_view t = trim(line);
        if (t.starts_with("[frame_times]")) {
            Cursor c(t);
            c.lit("[frame_times]");
            c.blanks();
            std::string_view digits;
            if (c.lit("error")) return failure(at_line(lines.number()) + "piglit could not replay the trace");
            // piglit says so first, before its "[frame_times] error":
            // "[frame_times] Trace PATH couldn't be replayed. See above ...".
            if (c.lit("Trace ") && t.find(" couldn't be replayed") != std::string_view::npos)
                return failure(at_line(lines.number()) + "piglit could not replay the trace (" +
                               data::quote_token(t.substr(14)) + ")");
            if (!c.digits(digits) || !c.end()) return failure(line_error(lines.number(), "[frame_times] N", c));
            announced = static_cast<size_t>(std::stoull(std::string(digits.substr(0, 18))));
            announced_line = lines.number();
        } else if (t.starts_with("PIGLIT:")) {
            if (profile_line)
                return failure(at_line(lines.number()) + "a second PIGLIT: line (the first is on line " +
                               std::to_string(profile_line) + "): profile one trace per run");
            profile_line = lines.number();
            try {
                p = read_profile(t.substr(7));
            } catch (const std::exception& e) {
                return failure(at_line(lines.number()) + "expected 'PIGLIT: {\"images\": [...], \"result\": ...}': " +
                               e.what());
            }
        }
    }
    if (!profile_line) return nothing_found(o, "'PIGLIT: {\"images\": [{\"frame_times\": [...]}]}'");
    const std::string where = at_line(profile_line);
    if (p.result != "pass")
        return failure(where + "piglit reports " + data::quote_token(p.result.empty() ? "no result" : p.result) +
                       (p.trace.empty() ? "" : " for " + data::quote_token(p.trace)));
    if (p.images != 1) return failure(where + std::to_string(p.images) + " images; profile one trace per run");
    if (p.null_times) return failure(where + "no frame times (frame_times is null)");
    if (announced && *announced != p.ns.size())
        return failure(where + std::to_string(p.ns.size()) + " frame times, but line " +
                       std::to_string(announced_line) + " announced " + std::to_string(*announced));
    FrameTimes frames;
    for (const NumberToken& t : p.ns) {
        frames.ms.push_back(scale_token(t, -6));  // ns -> ms
        frames.lines.push_back(profile_line);
    }
    ParseResult r;
    if (!p.trace.empty()) r.environment["piglit_trace"] = p.trace;
    if (const std::string e = add_frame_time_metrics(frames, r.metrics); !e.empty()) return failure(e);
    return r;
}

std::unique_ptr<OutputParser> make_piglit_replay(const ParserOptions& o) {
    return parser_without_options(o, "piglit-replay", frame_time_metric_infos(), parse_piglit_replay);
}

}  // namespace

const Format& piglit_replay_format() {
    static const Format f{"piglit-replay", "piglit replay profile: a trace's GPU frame times, per-run summaries",
                          make_piglit_replay};
    return f;
}

}  // namespace gfxstat::formats
