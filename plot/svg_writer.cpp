// SPDX-License-Identifier: MIT
#include "plot/svg_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <type_traits>

#include "text/text_escape.h"
#include "text/xml_escape.h"

namespace gfxstat::plot {

std::string xml_text(std::string_view raw, size_t max_bytes) {
    // Clipped as terminal text (never inside a UTF-8 sequence), then XML by
    // report's one escaper, which the HTML page and JUnit files share.
    std::string safe = text::escape_text(raw);
    if (max_bytes) safe = text::clip_text(safe, max_bytes);
    return text::xml_escape(safe);
}

std::string svg_number(double v) {
    if (!std::isfinite(v)) throw std::logic_error("plot: a non-finite coordinate reached the SVG writer");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    return s;
}

namespace {

std::string attr(const char* name, double v) { return std::string(" ") + name + "=\"" + svg_number(v) + "\""; }

std::string class_attr(const std::string& cls) { return cls.empty() ? "" : " class=\"" + xml_text(cls) + "\""; }

// A mark's element, with its tooltip as a <title> child when it has one.
void close_mark(std::string& out, const char* element, const std::string& tip) {
    if (tip.empty()) {
        out += "/>\n";
        return;
    }
    out += "><title>" + xml_text(tip, 300) + "</title></" + element + ">\n";
}

void subpath(std::string& d, const std::vector<std::pair<double, double>>& pts, bool closed) {
    for (size_t i = 0; i < pts.size(); ++i) {
        if (!d.empty()) d += ' ';
        d += (i == 0 ? "M" : "L") + svg_number(pts[i].first) + ',' + svg_number(pts[i].second);
    }
    if (closed && !pts.empty()) d += " Z";
}

void write_mark(std::string& out, const Mark& mark) {
    std::visit(
        [&out](const auto& m) {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, Circle>) {
                out += "<circle" + attr("cx", m.cx) + attr("cy", m.cy) + attr("r", m.r) + class_attr(m.cls);
                close_mark(out, "circle", m.tip);
            } else if constexpr (std::is_same_v<T, Line>) {
                out += "<line" + attr("x1", m.x1) + attr("y1", m.y1) + attr("x2", m.x2) + attr("y2", m.y2) +
                       class_attr(m.cls);
                close_mark(out, "line", m.tip);
            } else if constexpr (std::is_same_v<T, Rect>) {
                out += "<rect" + attr("x", m.x) + attr("y", m.y) + attr("width", std::max(0.0, m.w)) +
                       attr("height", std::max(0.0, m.h)) + class_attr(m.cls);
                close_mark(out, "rect", m.tip);
            } else if constexpr (std::is_same_v<T, Path>) {
                std::string d;
                subpath(d, m.points, m.closed);
                for (const auto& piece : m.more) subpath(d, piece, false);
                if (d.empty()) return;
                out += "<path d=\"" + d + "\"" + class_attr(m.cls);
                close_mark(out, "path", m.tip);
            } else if constexpr (std::is_same_v<T, Text>) {
                out += "<text" + attr("x", m.x) + attr("y", m.y);
                if (m.anchor == Anchor::middle) out += " text-anchor=\"middle\"";
                if (m.anchor == Anchor::end) out += " text-anchor=\"end\"";
                if (m.rotate != 0)
                    out += " transform=\"rotate(" + svg_number(m.rotate) + ' ' + svg_number(m.x) + ' ' +
                           svg_number(m.y) + ")\"";
                out += class_attr(m.cls) + ">" + xml_text(m.text, m.max_bytes) + "</text>\n";
            }
        },
        mark);
}

}  // namespace

std::string write_svg(const Scene& scene, std::string_view css) {
    std::string out;
    out.reserve(4096);
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"gfxstat-chart\"" + attr("width", scene.width) +
           attr("height", scene.height) + " viewBox=\"0 0 " + svg_number(scene.width) + ' ' +
           svg_number(scene.height) + "\" role=\"img\">\n";
    out += "<title>" + xml_text(scene.title, 300) + "</title>\n";
    if (!scene.description.empty()) out += "<desc>" + xml_text(scene.description, 2000) + "</desc>\n";
    // The CSS is ours (plot/palette.cpp), never data; it holds no "]]>".
    out += "<style><![CDATA[\n";
    out += css;
    out += "]]></style>\n";
    for (const auto& g : scene.groups) {
        if (g.marks.empty()) continue;
        out += "<g" + class_attr(g.cls) + ">\n";
        if (!g.tip.empty()) out += "<title>" + xml_text(g.tip, 300) + "</title>\n";
        for (const auto& m : g.marks) write_mark(out, m);
        out += "</g>\n";
    }
    out += "</svg>\n";
    return out;
}

}  // namespace gfxstat::plot
