// SPDX-License-Identifier: MIT
// The page of `gfxstat report` (html_report.h): plain HTML and CSS, written
// as well-formed XML.
#include "report/html_report.h"

#include <cstdint>

#include "report/png_image.h"
#include "text/xml_escape.h"

namespace gfxstat::report {

namespace {

// Light and dark, from one set of variables. The verdict colours are
// Okabe-Ito's (colour-blind safe), as the charts' are (plot/palette.h), and
// a verdict is always written in words beside its colour. Every class is
// prefixed "gs-": the charts' own rules live under .gfxstat-chart.
constexpr const char* kCss = R"css(
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1a1a1a; --muted: #5a5a5a; --rule: #d0d0d0;
  --panel: #f5f5f5; --link: #0060a0; --regression: #b34700; --improvement: #00785a; --nochange: #0060a0;
  --inconclusive: #8a6100; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181c; --fg: #e6e6e6; --muted: #a8a8a8; --rule: #3a3d44; --panel: #1f2228; --link: #7cc4f0;
    --regression: #f08a4b; --improvement: #3fd0a6; --nochange: #7cc4f0; --inconclusive: #f0c542; }
}
html { background: var(--bg); color: var(--fg); }
body { font: 15px/1.45 "DejaVu Sans", "Noto Sans", Arial, sans-serif; margin: 0 auto; max-width: 1200px;
  padding: 0 1.2em 2em; }
h1 { font-size: 1.5em; margin: 0.8em 0 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid var(--rule); padding-bottom: 0.2em; margin-top: 1.6em; }
a { color: var(--link); }
p, li { max-width: 60em; }
.gs-sub { color: var(--muted); margin: 0.1em 0; }
.gs-toc { columns: 2 16em; padding-left: 1.2em; }
.gs-figures { display: flex; flex-wrap: wrap; gap: 1em; }
.gs-figures figure { margin: 0; flex: 1 1 480px; max-width: 760px; background: var(--panel);
  border: 1px solid var(--rule); border-radius: 6px; padding: 0.5em; }
.gs-figures svg { width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 0.9em; margin-top: 0.3em; }
pre { font: 13px/1.35 "DejaVu Sans Mono", "Noto Sans Mono", monospace; background: var(--panel);
  border: 1px solid var(--rule); border-radius: 6px; padding: 0.6em 0.8em; overflow-x: auto; }
details summary { cursor: pointer; color: var(--muted); margin: 0.6em 0 0.2em; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid var(--rule); padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: var(--panel); }
td.gs-regression { color: var(--regression); font-weight: bold; }
td.gs-improvement { color: var(--improvement); font-weight: bold; }
td.gs-no-change { color: var(--nochange); }
td.gs-inconclusive, td.gs-changed { color: var(--inconclusive); }
footer { color: var(--muted); font-size: 0.85em; margin-top: 2em; border-top: 1px solid var(--rule);
  padding-top: 0.5em; }
)css";

// Only for a page with pictures (image checks' frames), so that other
// pages stay as they were.
constexpr const char* kPictureCss = R"css(
h3 { font-size: 1.05em; margin: 1.2em 0 0.3em; }
.gs-frame { margin: 0.8em 0; }
.gs-pictures { display: flex; flex-wrap: wrap; gap: 0.6em; }
.gs-pictures figure { margin: 0; background: var(--panel); border: 1px solid var(--rule); border-radius: 6px;
  padding: 0.4em; }
.gs-pictures img { display: block; max-width: 100%; height: auto; image-rendering: pixelated; }
.gs-note { color: var(--muted); font-size: 0.9em; }
)css";

void add_picture_group(std::string& out, const HtmlPictureGroup& g) {
    if (!g.heading.empty()) out += "<h3>" + text::xml_text(g.heading) + "</h3>\n";
    for (const auto& p : g.paragraphs) out += "<p>" + text::xml_text(p) + "</p>\n";
    for (const auto& row : g.rows) {
        out += "<div class=\"gs-frame\">\n";
        if (!row.caption.empty()) out += "<p>" + text::xml_text(row.caption) + "</p>\n";
        out += "<div class=\"gs-pictures\">\n";
        for (const auto& pic : row.pictures) {
            const std::string alt = text::xml_text(pic.caption);
            out += "<figure><img src=\"data:image/png;base64," + base64(pic.png) + "\" width=\"" +
                   std::to_string(pic.width) + "\" height=\"" + std::to_string(pic.height) + "\" alt=\"" + alt +
                   "\"/>";
            if (!alt.empty()) out += "<figcaption>" + alt + "</figcaption>";
            out += "</figure>\n";
        }
        out += "</div>\n</div>\n";
    }
    for (const auto& n : g.notes) out += "<p class=\"gs-note\">" + text::xml_text(n) + "</p>\n";
}

// A verdict as a class name: "no change" (or outcome_name's "no_change") ->
// "gs-no-change"; anything else unknown gets none.
std::string verdict_class(std::string v) {
    for (char& ch : v)
        if (ch == '_') ch = ' ';
    for (const char* known : {"regression", "improvement", "no change", "inconclusive", "changed"})
        if (v == known) {
            std::string c = "gs-";
            for (const char ch : v) c += ch == ' ' ? '-' : ch;
            return c;
        }
    return "";
}

// An anchor made of [A-Za-z0-9_-] only, so that it needs no escaping.
std::string safe_id(const std::string& id) {
    std::string out;
    for (const unsigned char c : id)
        out += ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_')
                   ? static_cast<char>(c)
                   : '_';
    return out;
}

// The <svg> element alone: an XML declaration or a doctype before it would
// be text in an HTML page (and an error in XML).
std::string_view svg_element(std::string_view svg) {
    const size_t at = svg.find("<svg");
    return at == std::string_view::npos ? std::string_view() : svg.substr(at);
}

void add_table(std::string& out, const HtmlTable& t) {
    out += "<table>\n";
    if (!t.head.empty()) {
        out += "<thead><tr>";
        for (const auto& h : t.head) out += "<th>" + text::xml_text(h) + "</th>";
        out += "</tr></thead>\n";
    }
    out += "<tbody>\n";
    for (size_t r = 0; r < t.rows.size(); ++r) {
        out += "<tr>";
        const std::string cls = r < t.verdicts.size() ? verdict_class(t.verdicts[r]) : "";
        for (size_t c = 0; c < t.rows[r].size(); ++c) {
            const bool last = c + 1 == t.rows[r].size();
            out += (last && !cls.empty() ? "<td class=\"" + cls + "\">" : std::string("<td>")) +
                   text::xml_text(t.rows[r][c]) + "</td>";
        }
        out += "</tr>\n";
    }
    out += "</tbody></table>\n";
}

}  // namespace

std::string render_html(const HtmlPage& page) {
    std::string out;
    out += "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n";
    out += "<meta charset=\"utf-8\"/>\n";
    // Nothing is fetched and nothing runs, whatever a chart or a label holds.
    out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
           "img-src data:\"/>\n";
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n";
    out += "<meta name=\"color-scheme\" content=\"light dark\"/>\n";
    out += "<meta name=\"generator\" content=\"gfxstat\"/>\n";
    out += "<title>" + text::xml_text(page.title) + "</title>\n";
    bool pictures = false;
    for (const auto& s : page.sections) pictures |= !s.picture_groups.empty();
    out += "<style>" + std::string(kCss) + (pictures ? kPictureCss : "") + "</style>\n</head>\n<body>\n<header>\n";
    out += "<h1>" + text::xml_text(page.title) + "</h1>\n";
    for (const auto& line : page.subtitle) out += "<p class=\"gs-sub\">" + text::xml_text(line) + "</p>\n";
    out += "</header>\n";
    // A table of contents when there is more than a screen of sections.
    size_t anchored = 0;
    for (const auto& s : page.sections) anchored += !s.id.empty();
    if (anchored > 2) {
        out += "<nav><ul class=\"gs-toc\">\n";
        for (const auto& s : page.sections)
            if (!s.id.empty())
                out += "<li><a href=\"#" + safe_id(s.id) + "\">" + text::xml_text(s.title) + "</a></li>\n";
        out += "</ul></nav>\n";
    }
    out += "<main>\n";
    for (const auto& s : page.sections) {
        out += s.id.empty() ? std::string("<section>\n") : "<section id=\"" + safe_id(s.id) + "\">\n";
        out += "<h2>" + text::xml_text(s.title) + "</h2>\n";
        for (const auto& p : s.paragraphs) out += "<p>" + text::xml_text(p) + "</p>\n";
        for (const auto& t : s.tables) add_table(out, t);
        if (!s.figures.empty()) {
            out += "<div class=\"gs-figures\">\n";
            for (const auto& f : s.figures) {
                out += "<figure>\n";
                out += svg_element(f.svg);
                out += "\n";
                if (!f.caption.empty()) out += "<figcaption>" + text::xml_text(f.caption) + "</figcaption>\n";
                out += "</figure>\n";
            }
            out += "</div>\n";
        }
        for (const auto& g : s.picture_groups) add_picture_group(out, g);
        for (const auto& b : s.blocks) {
            out += b.open ? "<details open=\"open\">" : "<details>";
            out += "<summary>" + text::xml_text(b.summary) + "</summary>\n<pre>" + text::xml_escape(b.text) +
                   "</pre></details>\n";
        }
        out += "</section>\n";
    }
    out += "</main>\n";
    if (!page.footer.empty()) out += "<footer>" + text::xml_text(page.footer) + "</footer>\n";
    out += "</body>\n</html>\n";
    return out;
}

}  // namespace gfxstat::report
