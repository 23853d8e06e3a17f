// SPDX-License-Identifier: MIT
// A chart as marks before it is text: circles, lines, rectangles,
// polylines and texts, each with its CSS class names, in groups that carry
// a class too (a variant's or a boot's colour). The charts (plot/charts.h)
// build a Scene; the SVG writer (plot/svg_writer.h) turns it into text.
// Keeping the two apart lets tests count marks without parsing SVG and
// keeps escaping and number formatting in one place (the writer).
//
// Coordinates are viewBox pixels, y downwards. Text is stored as it came
// from data: the writer escapes it (control characters made visible,
// then XML), so a chart never escapes anything itself.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <deque>
#include <variant>
#include <vector>

namespace gfxstat::plot {

struct Circle {
    double cx = 0, cy = 0, r = 3;
    std::string cls;
    std::string tip;  // a <title> child: what a browser shows on hover ("" none)
};

struct Line {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    std::string cls;
    std::string tip;
};

struct Rect {
    double x = 0, y = 0, w = 0, h = 0;
    std::string cls;
    std::string tip;
};

// A polyline, or a polygon when `closed` (diamonds, crosses, histograms).
struct Path {
    std::vector<std::pair<double, double>> points;
    bool closed = false;
    std::string cls;
    std::string tip;
    // Several pieces in one path ("M..L.. M..L.."): each inner vector is
    // drawn as its own subpath after `points` (crosses, tick marks).
    std::vector<std::vector<std::pair<double, double>>> more;
};

enum class Anchor { start, middle, end };

struct Text {
    double x = 0, y = 0;
    std::string text;          // raw, from data or ours: the writer escapes it
    std::string cls;
    Anchor anchor = Anchor::start;
    double rotate = 0;         // degrees about (x, y); -90 for a y-axis label
    size_t max_bytes = 0;      // clip the escaped text to this many bytes (0: no clip)
};

using Mark = std::variant<Circle, Line, Rect, Path, Text>;

struct Group {
    std::string cls;  // "" for none
    std::vector<Mark> marks;
    // A <title> child of the group: the tooltip of every mark in it that
    // has none of its own ("" none). One tooltip for many marks keeps a
    // chart of many small marks (a column of bins) small.
    std::string tip;

    Group& add(Mark m) {
        marks.push_back(std::move(m));
        return *this;
    }
};

struct Scene {
    double width = 720, height = 360;
    std::string title;        // the document's <title>
    std::string description;  // its <desc> ("" none)
    // A deque: a reference from group() stays valid while more are added.
    std::deque<Group> groups;

    Group& group(std::string cls = {}) {
        groups.push_back(Group{std::move(cls), {}, {}});
        return groups.back();
    }
};

// How many marks of a kind the scene holds (tests, and the charts' own
// checks of their promises).
size_t count_circles(const Scene& s);
// Lines whose class list contains `cls` as a word.
size_t count_lines_with_class(const Scene& s, const std::string& cls);

}  // namespace gfxstat::plot
