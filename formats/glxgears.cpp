// SPDX-License-Identifier: MIT
// `glxgears`: the rate glxgears (mesa-utils; es2gears and the other gears
// demos print the same line) reports every 5 seconds, and the renderer
// that `-info` prints (fixture from mesa-utils 8.5.0 in tests/fixtures/mesa/):
//
//   "%d frames in %3.1f seconds = %6.3f FPS"  [" (%3.1f%% usage)" in old
//       builds with GLX_MESA_swap_frame_usage]  -> fps, one value a line
//   "GL_RENDERER   = TEXT"  -> environment gl_renderer (and GL_VERSION,
//   "GL_VENDOR     = TEXT"     GL_VENDOR; GL_EXTENSIONS is left out)
//
// fps is primary, higher is better; the first interval includes start-up.
// glxgears runs until it is stopped: run it for a fixed time, e.g.
// `sh -c 'timeout 11 glxgears -info; test $? = 124'` (docs/mesa.md).
#include <string>

#include "formats/format_list.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

constexpr std::string_view kGears = "N frames in S seconds = F FPS";

ParseResult parse_glxgears(const RunOutput& o) {
    Collector c;
    std::map<std::string, std::string> env;
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        const std::string_view t = trim(line);
        Cursor cur(t);
        bool field = false;
        for (const auto& [label, key] : {std::pair<std::string_view, const char*>{"GL_RENDERER", "gl_renderer"},
                                         {"GL_VERSION", "gl_version"}, {"GL_VENDOR", "gl_vendor"}}) {
            if (!t.starts_with(label)) continue;
            Cursor f(t.substr(label.size()));
            f.blanks();
            if (!f.lit('=')) break;  // "GL_VERSIONS" or another word: not the field
            const std::string_view value = trim(f.rest());
            if (!value.empty()) env[key] = std::string(value);
            field = true;
            break;
        }
        if (field) continue;
        // A line starting "N frames in " is the rate line and must fit.
        if (!(cur.digits() && cur.lit(" frames in "))) continue;
        NumberToken seconds, fps;
        if (!(cur.number(seconds) && cur.lit(" seconds = ") && (cur.blanks(), cur.number(fps)) && cur.lit(" FPS")))
            return failure(line_error(lines.number(), kGears, cur));
        const size_t after = cur.pos();
        NumberToken usage;
        if (!(cur.lit(" (") && cur.number(usage) && cur.lit("% usage)"))) cur.seek(after);
        if (!cur.end()) return failure(line_error(lines.number(), kGears, cur));
        c.add("fps", "fps", kHigher, kPrimary, fps);
    }
    if (c.empty())
        return nothing_found(o, "'" + std::string(kGears) + "' (glxgears prints it every 5 seconds)");
    ParseResult r = success(c);
    r.environment = std::move(env);
    return r;
}

std::unique_ptr<OutputParser> make_glxgears(const ParserOptions& o) {
    return parser_without_options(o, "glxgears", {info("fps", "fps", kHigher, kPrimary)}, parse_glxgears);
}

}  // namespace

const Format& glxgears_format() {
    static const Format f{"glxgears", "glxgears and the gears demos: N frames in S seconds = F FPS, every 5 s",
                          make_glxgears};
    return f;
}

}  // namespace gfxstat::formats
