// SPDX-License-Identifier: MIT
// Scene (plot/scene.h) to SVG text: one self-contained document, its CSS
// inline, no scripts, no external references. The one place where text
// from data is escaped for a picture and where numbers become text.
#pragma once

#include <string>
#include <string_view>

#include "plot/scene.h"

namespace gfxstat::plot {

// `raw` safe inside an XML text node or a double-quoted attribute: first
// as one line of terminal text (text::escape_text: control characters,
// invalid UTF-8 and invisible format characters made visible as \xNN or
// \uNNNN), clipped to `max_bytes` when not 0, then XML by
// text::xml_escape (text/xml_escape.h: & < > " ' as entities; U+FFFE
// and U+FFFF, valid UTF-8 but not XML characters, as "\ufffe", "\uffff").
std::string xml_text(std::string_view raw, size_t max_bytes = 0);

// A coordinate: at most two decimals, trailing zeros dropped, never "-0".
// A NaN or infinite coordinate is a bug in a chart, not data (the charts
// skip such values before placing them): std::logic_error.
std::string svg_number(double v);

// The document: <svg> with width, height and viewBox from the scene,
// <title>, <desc>, <style> holding `css`, then the groups in order.
std::string write_svg(const Scene& scene, std::string_view css);

}  // namespace gfxstat::plot
