// SPDX-License-Identifier: MIT
// `apitrace`: what apitrace's retracers (glretrace, eglretrace; and
// `apitrace replay`, which runs them) print on stdout when they replay a
// trace. Formats as apitrace 11 prints them (retrace/retrace_main.cpp,
// lib/trace/trace_profiler.cpp, retrace/glretrace_*.cpp; fixtures in
// tests/fixtures/mesa/):
//
//   "Rendered %u frames in %g secs, average of %g fps"   (C++ ostream's
//       default float format: up to 6 significant digits, maybe an exponent)
//       -> fps (primary), frames, seconds
// With --pgpu, --pcpu (and --ppd, --pmem), the profile, one line per call
// and one per frame:
//   "# call no gpu_start gpu_dura cpu_start cpu_dura vsize_start vsize_dura
//    rss_start rss_dura pixels program name"              (the header)
//   "call NO GPU_START GPU_DURA CPU_START CPU_DURA VSIZE_START VSIZE_DURA
//    RSS_START RSS_DURA PIXELS PROGRAM NAME"               (integers, ns)
//   "frame_end"
//       -> frame_gpu_time (with --pgpu), frame_cpu_time (with --pcpu): per
//          frame, the sum of its calls' durations, in ms, one value per
//          frame (within the run). A column is taken as profiled when any
//          call has a start or a duration there: apitrace writes 0 for
//          what it does not measure. Calls after the last frame_end belong
//          to no frame and are left out. --pcpu leaves out calls shorter
//          than --min-cpu-time (1000 ns by default), their GPU time too.
// With --pframe-times, after each frame:
//   "rendering_finished %lld" (the retracer's clock, ns, after glFinish)
//       -> frame_time: the differences between consecutive ones, in ms
// When the driver has no timer queries, --pgpu stops at once with
//   "error: cannot profile, GL_ARB_timer_query or GL_EXT_timer_query
//    extensions are not supported." (or "GL_QUERY_COUNTER_BITS == 0", or no
//    occlusion queries for --ppd): the run fails with that reason. A call
//   whose GPU duration is longer than the whole replay is an error too: the
//   driver's timer cannot be trusted (llvmpipe, asked from a desktop GL
//   context, answers the first query of each context with its clock).
// Any other line (the traced program's path and EGL chatter that
// eglretrace prints, warnings without -b) is ignored.
//
// A saved file may hold several replays: each ends with its "Rendered"
// line (`import --from apitrace`).
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/format_list.h"
#include "formats/frame_time_metrics.h"
#include "formats/parser_support.h"
#include "formats/sections.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

constexpr std::string_view kRendered = "Rendered N frames in S secs, average of F fps";
constexpr std::string_view kCall =
    "call NO GPU_START GPU_DURA CPU_START CPU_DURA VSIZE_START VSIZE_DURA RSS_START RSS_DURA PIXELS PROGRAM NAME";
constexpr std::string_view kFinished = "rendering_finished NS";

// A signed decimal integer that fits in int64.
bool int64_value(Cursor& cur, int64_t& v) {
    const size_t start = cur.pos();
    const bool negative = cur.lit('-');
    std::string_view d;
    if (!cur.digits(d) || d.size() > 19) {
        cur.seek(start);
        return false;
    }
    unsigned __int128 x = 0;
    for (const char c : d) x = x * 10 + static_cast<unsigned>(c - '0');
    if (x > static_cast<unsigned __int128>(INT64_MAX) + (negative ? 1 : 0)) {
        cur.seek(start);
        return false;
    }
    v = negative ? static_cast<int64_t>(-static_cast<__int128>(x)) : static_cast<int64_t>(x);
    return true;
}

// Nanoseconds as an exact decimal of milliseconds ("1500" -> "0.001500").
NumberToken ns_to_ms(__int128 ns) {
    const bool negative = ns < 0;
    unsigned __int128 a = negative ? static_cast<unsigned __int128>(-ns) : static_cast<unsigned __int128>(ns);
    std::string whole;
    unsigned __int128 w = a / 1000000;
    do {
        whole.insert(whole.begin(), static_cast<char>('0' + static_cast<int>(w % 10)));
        w /= 10;
    } while (w);
    std::string frac(6, '0');
    unsigned __int128 f = a % 1000000;
    for (int i = 5; i >= 0; --i, f /= 10) frac[static_cast<size_t>(i)] = static_cast<char>('0' + static_cast<int>(f % 10));
    return data::parse_number_token((negative ? "-" : "") + whole + "." + frac);
}

struct Frame {
    __int128 gpu = 0, cpu = 0;
};

struct Worst {  // the call with the longest GPU duration
    int64_t ns = -1;
    size_t line = 0;
    std::string call;
};

bool starts_like_profile(std::string_view t) {
    return t.starts_with("call ") || t == "frame_end" || t.starts_with("rendering_finished ");
}

// "error: cannot profile, WHY" in words (the retracer exits 255 after it).
std::string cannot_profile(std::string_view t) {
    std::string_view why = trim(t.substr(21));
    if (why.starts_with(',')) why = trim(why.substr(1));
    return "the driver cannot be profiled: " + quote_message(why) +
           " (apitrace's --pgpu needs GPU timer queries, --ppd occlusion queries; --pcpu and --pframe-times "
           "need neither)";
}

std::string apitrace_failure(const RunOutput& o) {
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line))
        if (trim(line).starts_with("error: cannot profile")) return cannot_profile(trim(line));
    return "";
}

ParseResult parse_apitrace(const RunOutput& o) {
    Collector c;
    bool rendered = false, gpu_on = false, cpu_on = false;
    Frame frame;
    std::vector<Frame> frames;
    std::vector<NumberToken> frame_times;
    std::optional<int64_t> last_finished;
    std::string seconds_text;
    Worst worst;
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        const std::string_view t = trim(line);
        const size_t n = lines.number();
        const std::string where = "line " + std::to_string(n) + ": ";
        Cursor cur(t);
        if (t.starts_with("error: cannot profile")) return failure(where + cannot_profile(t));
        if (t.starts_with("Rendered ")) {
            NumberToken secs, fps;
            std::string_view frames_digits;
            size_t secs_begin = 0;
            if (!(cur.lit("Rendered ") && cur.digits(frames_digits) && cur.lit(" frames in ") &&
                  ((secs_begin = cur.pos()), cur.number(secs)) && cur.lit(" secs, average of ") &&
                  cur.number(fps) && cur.lit(" fps") && cur.end()))
                return failure(line_error(n, kRendered, cur));
            const NumberToken frames_token = data::parse_number_token(frames_digits);
            if (!usable(frames_token)) return failure(line_error(n, kRendered, cur));
            if (rendered)
                return failure(where + "a second 'Rendered' line: this output holds more than one replay "
                                       "(gfxstat import --from apitrace reads each as a run of its own)");
            rendered = true;
            seconds_text = std::string(t.substr(secs_begin, t.find(' ', secs_begin) - secs_begin));
            c.add("frames", "", kUnknown, kSecondary, frames_token);
            c.add("seconds", "s", kLower, kSecondary, secs);
            // No frame, no rate: a trace that never swaps gives "0 fps".
            if (data::decimal_significand(frames_token) != 0) c.add("fps", "fps", kHigher, kPrimary, fps);
            continue;
        }
        if (t == "frame_end") {
            frames.push_back(frame);
            frame = Frame();
            continue;
        }
        if (t.starts_with("rendering_finished")) {
            int64_t ns = 0;
            if (!(cur.lit("rendering_finished ") && int64_value(cur, ns) && cur.end()))
                return failure(line_error(n, kFinished, cur));
            if (last_finished) {
                if (ns < *last_finished)
                    return failure(where + "the retracer's clock went backwards (" + std::to_string(ns) +
                                   " ns after " + std::to_string(*last_finished) + " ns)");
                frame_times.push_back(ns_to_ms(static_cast<__int128>(ns) - *last_finished));
            }
            last_finished = ns;
            continue;
        }
        if (!t.starts_with("call ")) continue;
        int64_t v[11];
        bool ok = cur.lit("call ");
        for (int k = 0; ok && k < 11; ++k) ok = (k == 0 || cur.blanks1()) && int64_value(cur, v[k]);
        // The call's name: any text (d3dretrace's "IDirect3DDevice9::Present").
        ok = ok && cur.blanks1() && !cur.at_end();
        if (!ok) return failure(line_error(n, kCall, cur));
        const std::string_view name = cur.rest();
        // v: no, gpu_start, gpu_dura, cpu_start, cpu_dura, vsize..., pixels, program
        if (v[2] < 0 || v[4] < 0)
            return failure(where + "call " + std::to_string(v[0]) + " has a negative duration");
        gpu_on = gpu_on || v[1] != 0 || v[2] != 0;
        cpu_on = cpu_on || v[3] != 0 || v[4] != 0;
        frame.gpu += v[2];
        frame.cpu += v[4];
        // The name is the trace's text: quoted, so that an error naming the
        // call stays one short line whatever bytes the name holds.
        if (v[2] > worst.ns) worst = {v[2], n, std::to_string(v[0]) + " (" + data::quote_token(name) + ")"};
    }
    if (!rendered) {
        if (!frames.empty() || frame_times.size())
            return failure("a profile without its 'Rendered N frames in S secs' line: the replay did not finish");
        return nothing_found(o, "'" + std::string(kRendered) + "'");
    }
    if (gpu_on) {
        // No call can take longer on the GPU than the whole replay took (a
        // second of slack for the rounding of "S secs").
        const double secs = std::strtod(seconds_text.c_str(), nullptr);
        if (worst.ns >= 0 && static_cast<double>(worst.ns) > (secs + 1.0) * 1e9)
            return failure("line " + std::to_string(worst.line) + ": call " + worst.call + ", the longest, took " +
                           std::to_string(worst.ns) + " ns on the GPU, longer than the whole replay (" +
                           seconds_text + " s): the driver's GPU timer cannot be trusted");
    }
    ParseResult r = success(c);
    // Per-frame values are within-run data (docs/frame-times.md): each run
    // gets them as frames plus the per-run summaries that compare compares.
    const auto per_frame = [&](const char* name, auto part) {
        std::vector<NumberToken> ms;
        ms.reserve(frames.size());
        for (const Frame& f : frames) ms.push_back(ns_to_ms(part(f)));
        return add_frame_duration_metrics(name, ms, r.metrics);
    };
    std::string why;
    if (gpu_on) why = per_frame("frame_gpu_time", [](const Frame& f) { return f.gpu; });
    if (why.empty() && cpu_on) why = per_frame("frame_cpu_time", [](const Frame& f) { return f.cpu; });
    if (why.empty() && !frame_times.empty()) {
        FrameTimes ft;
        ft.ms = std::move(frame_times);
        const size_t first = r.metrics.size();
        why = add_frame_time_metrics(ft, r.metrics);
        // The "Rendered" line's fps stays the run's headline, as in Mesa's
        // trace CI; the frame-time summaries detail it.
        // Its frame count is the Rendered line's (one more than the frame
        // times between frames): kept once, from there.
        for (size_t i = first; i < r.metrics.size(); ++i) r.metrics[i].primary = kSecondary;
        std::erase_if(r.metrics, [&](const ParsedMetric& m) { return m.name == "frames" && m.unit == "frames"; });
    }
    if (!why.empty()) return failure(why);
    return r;
}

std::vector<std::string_view> split_apitrace(std::string_view text) {
    return sections::split_after(
        text, [](std::string_view l) { return trim(l).starts_with("Rendered "); },
        [](std::string_view l) {
            const std::string_view t = trim(l);
            return starts_like_profile(t) || t.starts_with("error: cannot profile");
        });
}

// The per-frame metrics and their summaries are declared when a run first
// gives them (with --pgpu, --pcpu, --pframe-times): a plain -b replay's
// file does not list fifteen metrics it never has.
std::vector<MetricInfo> apitrace_metrics() {
    return {info("fps", "fps", kHigher, kPrimary), info("frames", "", kUnknown, kSecondary),
            info("seconds", "s", kLower, kSecondary)};
}

std::unique_ptr<OutputParser> make_apitrace(const ParserOptions& o) {
    return parser_without_options(o, "apitrace", apitrace_metrics(), parse_apitrace, apitrace_failure);
}

}  // namespace

const Format& apitrace_format() {
    static const Format f{"apitrace",
                          "glretrace / eglretrace: replay FPS; per-frame GPU and CPU time with --pgpu / --pcpu",
                          make_apitrace, nullptr, split_apitrace};
    return f;
}

}  // namespace gfxstat::formats
