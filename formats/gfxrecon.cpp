// SPDX-License-Identifier: MIT
// `gfxrecon`: what gfxrecon-replay (GFXReconstruct) prints on stdout at the
// end of a replay (framework/graphics/fps_info.cpp; fixtures from 0.9.18,
// Debian 12's, in tests/fixtures/mesa/):
//
//   "Load time:  %f seconds" [" (frame %u)"]  (a trimmed capture's state
//                                             load)       -> load_time
//   "Total time: %f seconds"                              -> total_time
//   "Replay FPS: %f fps, %f seconds, %u frame[s], framerange A-B"
//       (0.9.18 without --measurement-frame-range)        -> fps, seconds, frames
//   "Measurement range FPS: %f fps, %f seconds, %u frame[s], 1 loop,
//    framerange [A-B)"  (0.9.18 with --measurement-frame-range)
//   "Measured FPS: ..." (the same, in later versions)     -> fps, seconds, frames
// fps is primary. Any other line ("[gfxrecon] INFO - ...", the later
// versions' "=== Start timer ===" banners) is ignored; without an FPS line
// the error quotes the replayer's first FATAL or ERROR message.
//
// Later versions also write the measured range, with per-frame durations,
// to a JSON measurement file (--measurement-file); 0.9.18 has no such
// option and writes none, so there is nothing of it to read here yet.
//
// A saved file may hold several replays: each ends with its FPS line
// (`import --from gfxrecon`).
#include <string>
#include <vector>

#include "formats/format_list.h"
#include "formats/parser_support.h"
#include "formats/sections.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

constexpr std::string_view kReplay = "Replay FPS: F fps, S seconds, N frames, framerange A-B";
constexpr std::string_view kMeasured = "Measured FPS: F fps, S seconds, N frames, 1 loop, framerange [A-B)";
constexpr std::string_view kTime = "Total time: S seconds";

bool fps_line(std::string_view t) {
    return t.starts_with("Replay FPS:") || t.starts_with("Measurement range FPS:") ||
           t.starts_with("Measured FPS:");
}

// "F fps, S seconds, N frame[s], "
bool fps_fields(Cursor& cur, NumberToken& fps, NumberToken& secs, NumberToken& frames) {
    std::string_view digits;
    if (!(cur.number(fps) && cur.lit(" fps, ") && cur.number(secs) && cur.lit(" seconds, ") && cur.digits(digits) &&
          cur.lit(" frame")))
        return false;
    cur.lit('s');
    frames = data::parse_number_token(digits);
    return usable(frames) && cur.lit(", ");
}

// The first "[gfxrecon] FATAL - ..." or "... ERROR - ..." of stdout, then
// of stderr, or the "Replay has encountered a fatal error" line.
std::string replayer_error(const RunOutput& o) {
    for (const std::string_view text : {o.out, o.err}) {
        LineReader lines(text);
        std::string_view line;
        while (lines.next(line)) {
            const std::string_view t = trim(line);
            if (t.starts_with("[gfxrecon] FATAL") || t.starts_with("[gfxrecon] ERROR") ||
                t.starts_with("Replay has encountered a fatal error"))
                return std::string(t);
        }
    }
    return "";
}

ParseResult parse_gfxrecon(const RunOutput& o) {
    Collector c;
    bool fps_seen = false;
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        const std::string_view t = trim(line);
        const size_t n = lines.number();
        Cursor cur(t);
        NumberToken v;
        if (t.starts_with("Total time:") || t.starts_with("Load time:")) {
            const bool total = t.starts_with("Total");
            cur.seek(total ? 11 : 10);  // "Total time:", "Load time:"
            cur.blanks();
            if (!(cur.number(v) && cur.lit(" seconds"))) return failure(line_error(n, kTime, cur));
            if (!total && cur.lit(" (frame ") && !(cur.digits() && cur.lit(')')))
                return failure(line_error(n, "Load time:  S seconds (frame N)", cur));
            if (!cur.end()) return failure(line_error(n, kTime, cur));
            c.add(total ? "total_time" : "load_time", "s", kLower, kSecondary, v);
            continue;
        }
        if (!fps_line(t)) continue;
        const bool replay = t.starts_with("Replay FPS:");
        const std::string_view format = replay ? kReplay : kMeasured;
        NumberToken fps, secs, frames;
        cur.seek(t.find(':') + 1);
        if (!(cur.lit(' ') && fps_fields(cur, fps, secs, frames)))
            return failure(line_error(n, format, cur));
        bool range = false;
        if (replay)
            range = cur.lit("framerange ") && cur.digits() && cur.lit('-') && cur.digits();
        else
            range = cur.lit("1 loop, framerange [") && cur.digits() && cur.lit('-') && cur.digits() && cur.lit(')');
        if (!(range && cur.end())) return failure(line_error(n, format, cur));
        if (fps_seen)
            return failure("line " + std::to_string(n) +
                           ": a second FPS line: this output holds more than one replay (gfxstat import --from "
                           "gfxrecon reads each as a run of its own)");
        fps_seen = true;
        c.add("fps", "fps", kHigher, kPrimary, fps);
        c.add("seconds", "s", kLower, kSecondary, secs);
        c.add("frames", "", kUnknown, kSecondary, frames);
    }
    if (!fps_seen) {
        const std::string why = replayer_error(o);
        if (!why.empty())
            return failure("no 'Replay FPS' line in the output; gfxrecon-replay said " + quote_message(why));
        return nothing_found(o, "'" + std::string(kReplay) + "'");
    }
    return success(c);
}

std::vector<std::string_view> split_gfxrecon(std::string_view text) {
    return sections::split_after(
        text, [](std::string_view l) { return fps_line(trim(l)); },
        [](std::string_view l) {
            const std::string_view t = trim(l);
            return t.starts_with("Total time:") || t.starts_with("Load time:");
        });
}

std::unique_ptr<OutputParser> make_gfxrecon(const ParserOptions& o) {
    return parser_without_options(o, "gfxrecon",
                                  {info("fps", "fps", kHigher, kPrimary), info("seconds", "s", kLower, kSecondary),
                                   info("frames", "", kUnknown, kSecondary),
                                   info("total_time", "s", kLower, kSecondary),
                                   info("load_time", "s", kLower, kSecondary)},
                                  parse_gfxrecon, replayer_error);
}

}  // namespace

const Format& gfxrecon_format() {
    static const Format f{"gfxrecon", "gfxrecon-replay (GFXReconstruct): replay FPS, seconds and frames",
                          make_gfxrecon, nullptr, split_gfxrecon};
    return f;
}

}  // namespace gfxstat::formats
