// SPDX-License-Identifier: MIT
// `gfxstat report`'s page: one self-contained HTML file made of sections of
// figures (inline SVG from plot/), preformatted text (compare's and show's
// reports) and small tables. No scripts, no network: a Content-Security-
// Policy that forbids both, styles inline, light and dark by
// prefers-color-scheme. The page is also well-formed XML (every element
// closed, only XML's five entities), so that `xmllint --noout` checks it
// whole, the SVG inside included.
//
// What is text and what is markup: every std::string below is plain text
// from data (labels, names, notes), escaped here (text/text_escape.h's
// visible form for control and invisible characters, then XML's entities
// and what XML cannot hold, text/xml_escape.h), except `svg` (markup from
// plot/, inlined as it is) and `preformatted` (a report already escaped for
// a terminal by its renderer, so only xml_escape is applied).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::report {

struct HtmlFigure {
    std::string svg;      // one <svg> document (an XML declaration before it is dropped)
    std::string caption;  // "" none
};

struct HtmlTable {
    std::vector<std::string> head;
    std::vector<std::vector<std::string>> rows;
    // Per row (empty: none): a verdict ("regression", "improvement", "no
    // change", "inconclusive", "changed") colouring the row's last cell.
    std::vector<std::string> verdicts;
};

// A picture embedded in the page as a data URI: PNG bytes (report/png_image.h).
struct HtmlPicture {
    std::string png;
    uint32_t width = 0, height = 0;  // its pixels
    std::string caption;             // under it, and its alt text
};

// Pictures side by side under a line that says what they show.
struct HtmlPictureRow {
    std::string caption;
    std::vector<HtmlPicture> pictures;
};

// A part of a section under its own heading: paragraphs, then rows of
// pictures, then notes (in a quieter colour).
struct HtmlPictureGroup {
    std::string heading;
    std::vector<std::string> paragraphs;
    std::vector<HtmlPictureRow> rows;
    std::vector<std::string> notes;
};

struct HtmlSection {
    std::string id;     // the anchor (made safe here); "" none
    std::string title;
    std::vector<std::string> paragraphs;
    std::vector<HtmlTable> tables;
    std::vector<HtmlFigure> figures;
    std::vector<HtmlPictureGroup> picture_groups;  // after the figures
    // Preformatted blocks, each under a summary line that opens or folds it.
    struct Block {
        std::string summary, text;
        bool open = true;
    };
    std::vector<Block> blocks;
};

struct HtmlPage {
    std::string title;
    std::vector<std::string> subtitle;  // lines under the title
    std::vector<HtmlSection> sections;
    std::string footer;
};

std::string render_html(const HtmlPage& page);

// Text is escaped by text/xml_escape.h: xml_text for text from data,
// xml_escape for preformatted reports already escaped for a terminal.

}  // namespace gfxstat::report
