// SPDX-License-Identifier: MIT
// `glmark2`: the output of glmark2, glmark2-es2 and their other flavours
// (glmark2-drm, -wayland, ...), which share one printer (glmark2's
// src/main.cpp, src/canvas-generic.cpp, src/main-loop.cpp; fixtures from
// 2023.01 in tests/fixtures/mesa/).
//
// The banner (every line may carry the "Info: " prefix of --debug):
//   "    glmark2 VERSION"                       -> environment glmark2_version
//   "    GL_VENDOR:      TEXT"                  -> gl_vendor
//   "    GL_RENDERER:    TEXT"                  -> gl_renderer
//   "    GL_VERSION:     TEXT"                  -> gl_version
//   "    Surface Config: TEXT"                  -> glmark2_surface_config
//   "    Surface Size:   WxH windowed|fullscreen" -> glmark2_surface_size
// A scene line: "[SCENE] OPTIONS:" then what --results asked for:
//   " FPS: %u FrameTime: %.3f ms"              (fps, the default)
//   " FrameTime: %.3f ms"                      (cpu without fps)
//   " (User: %.3f ms, System: %.3f ms) CpuBusy: %d%"   (cpu)
//   " ShaderCompTime: %.3f ms"                 (shader)
//   or " Unsupported" (the scene is left out of the run: no metric), or
//   " Set up failed" (an error: the run did not measure what it was asked
//   to), or " Validation: Success|Failure|Unknown" (--validate: nothing is
//   measured), or " done".
// OPTIONS is "key=value:key=value:..." (only the options set on the command
// line, all of them with --show-all-options), or "<default>:". Values
// cannot hold ':' (glmark2 splits its -b argument there) but can hold
// anything else: spaces, ',', ';', '='.
// The end: "glmark2 Score: %u" (the mean of the scenes' integer FPS).
//
// Metric names. A scene's metrics are named KEY.fps, KEY.frame_time, ...
// where KEY is the scene and its options, mapped one to one onto the
// characters metric names allow:
//   [build] <default>:                           -> build
//   [build] use-vbo=false:                       -> build.use-vbo_false
//   [shading] duration=0.5:shading=phong:        -> shading.duration_0.5.shading_phong
//   [effect2d] kernel=0,1,0;1,-4,1;0,1,0;:       -> effect2d.kernel_0_2C1_2C0_3B1_2C-4_2C1_3B0_2C1_2C0_3B
// that is: the scene, then per option '.', the key, '_', the value. In the
// scene and the values, letters, digits and '-' stay, '.' stays before a
// digit (a decimal point), '_' becomes "__" and any other byte '_' and two
// upper-case hex digits. Keys must be a letter followed by letters, digits
// and '-' (all of glmark2's are). Decoding is then unambiguous: the scene
// ends at its first '.', a key at its '_', and a value at a '.' followed
// by a letter (the next key, or the metric's suffix, which has no '.'), so
// two different scene lines never share a metric name.
//
// A saved file may hold several runs, one banner each; each banner begins
// a section (`import --from glmark2`). In one run's output a second banner
// or a second score is an error: it is two runs.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "formats/format_list.h"
#include "formats/parser_support.h"
#include "formats/sections.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

constexpr std::string_view kSceneFormat = "[scene] option=value:...: FPS: N FrameTime: X ms";
constexpr std::string_view kScoreFormat = "glmark2 Score: N";

// --debug prefixes glmark2's own lines with "Info: " (and prints "Debug: "
// lines, which no rule below matches).
std::string_view strip_info(std::string_view t) {
    if (t.starts_with("Info: ")) t.remove_prefix(6);
    return trim(t);
}

bool keeps(char c) { return is_alpha(c) || is_digit(c) || c == '-'; }

void escape_byte(std::string& out, unsigned char c) {
    static const char kHex[] = "0123456789ABCDEF";
    if (c == '_') {
        out += "__";
        return;
    }
    out += '_';
    out += kHex[c >> 4];
    out += kHex[c & 15];
}

std::string escape_scene(std::string_view s) {
    std::string out;
    for (const char c : s)
        if (keeps(c))
            out += c;
        else
            escape_byte(out, static_cast<unsigned char>(c));
    return out;
}

void escape_value(std::string& out, std::string_view v) {
    for (size_t i = 0; i < v.size(); ++i) {
        const char c = v[i];
        if (keeps(c) || (c == '.' && i + 1 < v.size() && is_digit(v[i + 1])))
            out += c;
        else
            escape_byte(out, static_cast<unsigned char>(c));
    }
}

bool valid_key(std::string_view k) {
    if (k.empty() || !is_alpha(k[0])) return false;
    for (const char c : k)
        if (!keeps(c)) return false;
    return true;
}

// The metric stem of "[scene] options", or "" when the options are not
// "key=value:..." (or "<default>"). `options` is without its final ':'.
std::string scene_key(std::string_view scene, std::string_view options) {
    std::string key = escape_scene(scene);
    if (options == "<default>") return key;
    if (options.empty()) return "";
    size_t pos = 0;
    while (pos <= options.size()) {
        size_t colon = options.find(':', pos);
        if (colon == std::string_view::npos) colon = options.size();
        const std::string_view item = options.substr(pos, colon - pos);
        const size_t eq = item.find('=');
        if (eq == std::string_view::npos || !valid_key(item.substr(0, eq))) return "";
        key += '.';
        key += item.substr(0, eq);
        key += '_';
        escape_value(key, item.substr(eq + 1));
        pos = colon + 1;
    }
    return key;
}

struct State {
    Collector c;
    std::map<std::string, std::string> env;
    bool banner = false, score = false, validation = false, measured = false;
};

enum class SceneEnd { measured, unsupported, failed, validation, done, bad };

// The results part of a scene line, after "OPTIONS:", for metric stem
// `key`. The numbers are collected first and added only once the whole
// line fits: a line that is an error leaves no half of itself behind.
SceneEnd scene_results(Cursor& cur, const std::string& key, State& st) {
    const size_t start = cur.pos();
    if (cur.lit(" Unsupported") && cur.end()) return SceneEnd::unsupported;
    cur.seek(start);
    if (cur.lit(" Set up failed") && cur.end()) return SceneEnd::failed;
    cur.seek(start);
    if (cur.lit(" done") && cur.end()) return SceneEnd::done;
    cur.seek(start);
    if (cur.lit(" Validation: ")) {
        std::string_view w;
        return cur.word(w) && cur.end() ? SceneEnd::validation : SceneEnd::bad;
    }
    struct Value {
        const char* suffix;
        const char* unit;
        Direction dir;
        bool primary;
        NumberToken v;
    };
    std::vector<Value> got;
    NumberToken a, b, c;
    // glmark2 prints FrameTime as 1000.0 / FPS: a scene that drew less
    // than half a frame a second has FPS 0 and "FrameTime: inf ms". Its FPS
    // is a measurement and is kept; an infinite frame time is no number a
    // results file can hold, so that scene has no frame_time in this run.
    bool infinite = false;
    const auto frame_time = [&](bool after_zero_fps) {
        if (cur.number(b)) return true;
        infinite = after_zero_fps && cur.lit("inf");
        return infinite;
    };
    if (cur.lit(" FPS: ")) {
        if (!(cur.number(a) && cur.lit(" FrameTime: ") && frame_time(data::decimal_significand(a) == 0) && cur.lit(" ms")))
            return SceneEnd::bad;
        got.push_back({"fps", "fps", kHigher, kSecondary, a});
        if (!infinite) got.push_back({"frame_time", "ms", kLower, kPrimary, b});
    } else if (cur.lit(" FrameTime: ")) {
        if (!(frame_time(true) && cur.lit(" ms"))) return SceneEnd::bad;
        if (!infinite) got.push_back({"frame_time", "ms", kLower, kPrimary, b});
    }
    if (cur.lit(" (User: ")) {
        if (!(cur.number(a) && cur.lit(" ms, System: ") && cur.number(b) && cur.lit(" ms) CpuBusy: ") &&
              cur.number(c) && cur.lit('%')))
            return SceneEnd::bad;
        got.push_back({"user_time", "ms", kLower, kSecondary, a});
        got.push_back({"system_time", "ms", kLower, kSecondary, b});
        got.push_back({"cpu_busy", "%", kUnknown, kSecondary, c});
    }
    if (cur.lit(" ShaderCompTime: ")) {
        if (!(cur.number(a) && cur.lit(" ms"))) return SceneEnd::bad;
        got.push_back({"shader_compile_time", "ms", kLower, kSecondary, a});
    }
    if ((got.empty() && !infinite) || !cur.end()) return SceneEnd::bad;
    for (const Value& v : got) st.c.add(key + "." + v.suffix, v.unit, v.dir, v.primary, v.v);
    return SceneEnd::measured;
}

// "GL_RENDERER:    TEXT" and the other banner fields.
bool banner_field(std::string_view t, State& st) {
    static const std::pair<std::string_view, const char*> kFields[] = {
        {"GL_VENDOR:", "gl_vendor"},
        {"GL_RENDERER:", "gl_renderer"},
        {"GL_VERSION:", "gl_version"},
        {"Surface Config:", "glmark2_surface_config"},
        {"Surface Size:", "glmark2_surface_size"},
    };
    for (const auto& [label, field] : kFields) {
        if (!t.starts_with(label)) continue;
        const std::string_view value = trim(t.substr(label.size()));
        if (!value.empty()) st.env[field] = std::string(value);
        return true;
    }
    return false;
}

// "glmark2 2023.01", not "glmark2 Score: N".
bool version_line(std::string_view t, std::string_view& version) {
    if (!t.starts_with("glmark2 ") || t.starts_with("glmark2 Score")) return false;
    version = trim(t.substr(8));
    return !version.empty() && version.find(' ') == std::string_view::npos;
}

// Where the options of a scene line begin, or 0 when `t` is no scene line.
size_t scene_line_start(std::string_view t) {
    if (!t.starts_with('[')) return 0;
    size_t i = 1;
    while (i < t.size() && ((t[i] >= 'a' && t[i] <= 'z') || is_digit(t[i]) || t[i] == '-')) ++i;
    if (i == 1 || t.substr(i, 2) != "] ") return 0;
    const size_t opts = i + 2;
    const std::string_view rest = t.substr(opts);
    if (rest.starts_with("<default>:")) return opts;
    size_t k = 0;
    while (k < rest.size() && keeps(rest[k])) ++k;
    if (k > 0 && is_alpha(rest[0]) && k < rest.size() && rest[k] == '=') return opts;
    // Options of another shape before a result: a scene line that does
    // not fit, not chatter.
    for (const std::string_view r : {": FPS: ", ": FrameTime: ", ": ShaderCompTime: "})
        if (rest.find(r) != std::string_view::npos) return opts;
    return 0;
}

ParseResult parse_glmark2(const RunOutput& o) {
    State st;
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        const std::string_view t = strip_info(line);
        const size_t n = lines.number();
        const std::string where = "line " + std::to_string(n) + ": ";
        std::string_view version;
        if (version_line(t, version)) {
            if (st.banner)
                return failure(where + "a second glmark2 banner: this output holds more than one glmark2 run "
                                       "(gfxstat import --from glmark2 reads each as a run of its own)");
            st.banner = true;
            st.env["glmark2_version"] = std::string(version);
            continue;
        }
        if (banner_field(t, st)) continue;
        if (t.starts_with("glmark2 Score")) {
            Cursor cur(t);
            NumberToken score;
            if (!(cur.lit("glmark2 Score: ") && cur.number(score) && cur.end()))
                return failure(line_error(n, kScoreFormat, cur));
            if (st.score)
                return failure(where + "a second 'glmark2 Score' line: this output holds more than one glmark2 "
                                       "run (gfxstat import --from glmark2 reads each as a run of its own)");
            st.score = true;
            st.c.add("score", "", kHigher, kPrimary, score);
            continue;
        }
        // "[scene] options: results". A line is taken for a scene line when
        // it starts like one: '[', a lower-case name, "] ", then
        // "<default>:" or a key and '=' ("[gfxrecon] INFO - ..." is not).
        // The options end at the first ": " (values hold no ':').
        const size_t opts_begin = scene_line_start(t);
        if (opts_begin == 0) continue;
        const std::string_view scene = t.substr(1, opts_begin - 3);
        const size_t colon = t.find(": ", opts_begin);
        const size_t end_colon = colon == std::string_view::npos && t.back() == ':' ? t.size() - 1 : colon;
        Cursor cur(t);
        if (end_colon == std::string_view::npos) {
            cur.seek(opts_begin);
            return failure(line_error(n, kSceneFormat, cur));
        }
        const std::string key = scene_key(scene, t.substr(opts_begin, end_colon - opts_begin));
        cur.seek(opts_begin);
        if (key.empty()) return failure(line_error(n, kSceneFormat, cur));
        cur.seek(end_colon + 1);
        switch (scene_results(cur, key, st)) {
            case SceneEnd::measured: st.measured = true; break;
            case SceneEnd::unsupported:  // glmark2 leaves it out of its score too
            case SceneEnd::done: break;
            case SceneEnd::validation: st.validation = true; break;
            case SceneEnd::failed:
                return failure(where + "glmark2 could not set up scene " + data::quote_token(t.substr(0, end_colon)) +
                               " (Set up failed): the run did not measure what it was asked to");
            case SceneEnd::bad: return failure(line_error(n, kSceneFormat, cur));
        }
    }
    if (!st.measured) {
        if (st.validation)
            return failure("glmark2 ran with --validate: it checked the rendering and measured nothing");
        if (st.score)
            return failure("glmark2 printed a score but no scene it measured (every scene Unsupported?)");
        return nothing_found(o, "'" + std::string(kSceneFormat) + "' or '" + std::string(kScoreFormat) + "'");
    }
    ParseResult r = success(st.c);
    r.environment = std::move(st.env);
    return r;
}

// A section per banner: from the "=====" line above "glmark2 VERSION"
// (or that line itself) to the next banner. Text before the first banner
// (a shell prompt, GLX's swap-interval warnings) goes with no run.
std::vector<std::string_view> split_glmark2(std::string_view text) {
    const std::vector<sections::RawLine> raw = sections::raw_lines(text);
    std::vector<size_t> starts;
    for (size_t i = 0; i < raw.size(); ++i) {
        std::string_view version;
        if (!version_line(strip_info(raw[i].text), version)) continue;
        size_t begin = raw[i].begin;
        if (i > 0 && strip_info(raw[i - 1].text).starts_with("====")) begin = raw[i - 1].begin;
        starts.push_back(begin);
    }
    if (starts.empty()) return {text};
    std::vector<std::string_view> out;
    for (size_t k = 0; k < starts.size(); ++k) {
        const size_t end = k + 1 < starts.size() ? starts[k + 1] : text.size();
        out.push_back(text.substr(starts[k], end - starts[k]));
    }
    return out;
}

std::unique_ptr<OutputParser> make_glmark2(const ParserOptions& o) {
    // The scenes' metrics are named by the output; only the score is fixed.
    return parser_without_options(o, "glmark2", {info("score", "", kHigher, kPrimary)}, parse_glmark2);
}

}  // namespace

const Format& glmark2_format() {
    static const Format f{"glmark2",
                          "glmark2 / glmark2-es2: per scene FPS and frame time, the score, the GL renderer",
                          make_glmark2, nullptr, split_glmark2};
    return f;
}

}  // namespace gfxstat::formats
