// SPDX-License-Identifier: MIT
// `vkmark`: the output of vkmark, from its sources (src/main_loop.cpp,
// src/log.cpp; tests/fixtures/frames/README.md). Each scene prints its
// name and options, then its average frame rate:
//
//   [vertex] device-local=true: FPS: 3160 FrameTime: 0.316 ms
//   [cube] <default>:
//    FPS: 2921 FrameTime: 0.342 ms
//   ...
//                                      vkmark Score: 2716
//
// The FPS part is a continuation of the scene's line; versions that end
// the scene line first put it on the next line, so both are read. A scene
// that throws prints " Failed with exception: ..." instead, one that cannot
// be set up " Setup failed" (glued to the next scene's line): the run fails
// with that reason, since a scene that was not measured is not dropped
// silently. vkmark prints averages, not frame times, so its metrics are
// plain per-run values:
//
//   <scene>[.<options>]   frames/s  higher  one per scene line; the name is
//                                           the scene and its options with
//                                           ':' as '.' and other bytes
//                                           outside metric names as '_'
//                                           ("vertex.device-local_true");
//                                           "<default>" adds nothing
//   score                 ""        higher  primary: vkmark's mean of the
//                                           scenes' FPS
//
// FrameTime is 1000 / FPS rounded to three places: not kept. A scene that
// drew less than half a frame a second prints "FPS: 0 FrameTime: inf ms"
// (1000.0 / 0 through %.3f): its FPS 0 is a measurement and is kept.
//
// With --debug, vkmark starts each of its own lines with "Info: " (and
// prints "Debug: " lines); the FPS continuation goes on without it.
#include "formats/format_list.h"
#include "formats/frame_time_metrics.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

// "[vertex] device-local=true:" -> "vertex.device-local_true"; "" when the
// line is not a scene line.
std::string scene_metric(std::string_view head) {
    if (!head.starts_with('[')) return "";
    const size_t close = head.find(']');
    if (close == std::string_view::npos || close == 1) return "";
    std::string name = metric_name_part(head.substr(1, close - 1));
    std::string_view opts = trim(head.substr(close + 1));
    if (!opts.empty() && opts.back() == ':') opts.remove_suffix(1);
    opts = trim(opts);
    if (!opts.empty() && opts != "<default>") {
        std::string o;
        for (char c : opts) o += c == ':' ? '.' : (c == '=' ? '_' : c);
        name += "." + metric_name_part(o);
    }
    return name;
}

// " FPS: 3160 FrameTime: 0.316 ms" at `c`: the FPS token.
bool fps_part(Cursor& c, NumberToken& fps) {
    const size_t start = c.pos();
    c.blanks();
    NumberToken ft;
    const auto frame_time = [&] {
        if (c.number(ft)) return true;
        // 1000.0 / 0: only after an FPS of 0.
        return data::decimal_significand(fps) == 0 && c.lit("inf");
    };
    if (c.lit("FPS:") && (c.blanks(), c.number(fps)) && c.blanks1() && c.lit("FrameTime:") &&
        (c.blanks(), frame_time()) && c.blanks1() && c.lit("ms") && c.end())
        return true;
    c.seek(start);
    return false;
}

ParseResult parse_vkmark(const RunOutput& o) {
    Collector col;
    LineReader lines(o.out);
    std::string_view line;
    std::string pending;        // a scene whose FPS is still to come
    size_t pending_line = 0;
    bool score = false;
    while (lines.next(line)) {
        std::string_view t = trim(line);
        if (t.starts_with("Info: ")) t = trim(t.substr(6));  // --debug
        const std::string where = "line " + std::to_string(lines.number()) + ": ";
        if (!pending.empty()) {
            Cursor c(line);
            NumberToken fps;
            if (fps_part(c, fps)) {
                col.add(pending, "frames/s", kHigher, kSecondary, fps);
                pending.clear();
                continue;
            }
            if (t.starts_with("Setup failed"))
                return failure(where + "scene " + data::quote_token(pending) + " failed: vkmark could not set it up");
            if (t.starts_with("Failed with exception:"))
                return failure(where + "scene " + data::quote_token(pending) + " failed: " + data::quote_token(trim(t.substr(22))));
            return failure(line_error(lines.number(), " FPS: N FrameTime: T ms (scene " + data::quote_token(pending) + ", line " +
                                                          std::to_string(pending_line) + ")",
                                      c));
        }
        if (t.starts_with("vkmark Score:")) {
            Cursor c(t);
            c.lit("vkmark Score:");
            c.blanks();
            NumberToken s;
            if (!c.number(s) || !c.end()) return failure(line_error(lines.number(), "vkmark Score: N", c));
            col.add("score", "", kHigher, kPrimary, s);
            score = true;
            continue;
        }
        if (!t.starts_with('[')) continue;  // banners, device information
        // "[scene] options:" then, on this line or the next, the FPS.
        // A scene vkmark could not set up prints " Setup failed" without
        // ending the line, so the next scene's line is glued to it:
        // "[a] x=y: Setup failed[b] <default>: FPS: ...". Its FPS is the
        // next scene's, never this one's: the run fails, as with an
        // exception.
        const size_t colon_setup = t.find(": Setup failed");
        if (colon_setup != std::string_view::npos) {
            const std::string name = scene_metric(t.substr(0, colon_setup + 1));
            if (!name.empty())
                return failure(where + "scene " + data::quote_token(name) + " failed: vkmark could not set it up");
        }
        const size_t colon_fps = t.find(": FPS:");
        const size_t colon_fail = t.find(": Failed with exception:");
        const std::string_view head = colon_fps != std::string_view::npos    ? t.substr(0, colon_fps + 1)
                                      : colon_fail != std::string_view::npos ? t.substr(0, colon_fail + 1)
                                                                             : t;
        const std::string name = scene_metric(head);
        if (name.empty() || head.back() != ':') {
            Cursor c(t);
            return failure(line_error(lines.number(), "[scene] options: FPS: N FrameTime: T ms", c));
        }
        if (colon_fail != std::string_view::npos && colon_fps == std::string_view::npos)
            return failure(where + "scene " + data::quote_token(name) + " failed: " + data::quote_token(trim(t.substr(colon_fail + 24))));
        if (colon_fps == std::string_view::npos) {
            pending = name;
            pending_line = lines.number();
            continue;
        }
        Cursor c(t);
        c.seek(colon_fps + 1);
        NumberToken fps;
        if (!fps_part(c, fps)) return failure(line_error(lines.number(), "[scene] options: FPS: N FrameTime: T ms", c));
        col.add(name, "frames/s", kHigher, kSecondary, fps);
    }
    if (!pending.empty())
        return failure("line " + std::to_string(pending_line) + ": scene " + data::quote_token(pending) + " has no FPS line after it");
    if (!score && col.empty()) return nothing_found(o, "'[scene] options: FPS: N FrameTime: T ms'");
    return success(col);
}

std::unique_ptr<OutputParser> make_vkmark(const ParserOptions& o) {
    return parser_without_options(o, "vkmark", {info("score", "", kHigher, kPrimary)}, parse_vkmark);
}

}  // namespace

const Format& vkmark_format() {
    static const Format f{"vkmark", "vkmark output: each scene's FPS and the vkmark Score", make_vkmark};
    return f;
}

}  // namespace gfxstat::formats
