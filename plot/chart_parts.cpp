// SPDX-License-Identifier: MIT
#include "plot/chart_parts.h"

#include <algorithm>
#include <cmath>

#include "plot/palette.h"
#include "plot/svg_writer.h"

namespace gfxstat::plot::detail {

Page page_of(const ChartOptions& o) {
    return {std::clamp(static_cast<double>(o.width), 320.0, 8000.0),
            std::clamp(static_cast<double>(o.height), 200.0, 8000.0)};
}

Scene start_scene(const Page& p, const std::string& title) {
    Scene s;
    s.width = p.width;
    s.height = p.height;
    s.title = title;
    auto& g = s.group();
    g.add(Rect{0, 0, p.width, p.height, "bg", {}});
    g.add(Text{12, 20, title, "title", Anchor::start, 0, 120});
    return s;
}

void draw_legend(Scene& s, const std::vector<LegendEntry>& entries, double x, double y, double right) {
    size_t shown = 0;
    for (const auto& e : entries) {
        // About 6.5 px per character at 12 px; labels are clipped to 24 bytes.
        double w = 20 + 6.5 * std::min<size_t>(e.label.size(), 24) + 14;
        if (x + w > right && shown > 0) break;
        auto& g = s.group(e.cls);
        g.add(Rect{x, y - 9, 10, 10, "swatch", {}});
        g.add(Text{x + 14, y, e.label, "legend", Anchor::start, 0, 24});
        x += w;
        ++shown;
    }
    if (shown < entries.size())
        s.group().add(Text{x, y, "+" + std::to_string(entries.size() - shown) + " more", "note", Anchor::start, 0, 0});
}

std::vector<std::string> wrap_caption(const std::vector<std::string>& parts, double width) {
    // About 6.2 px a character at 11 px.
    size_t limit = static_cast<size_t>(std::max(30.0, (width - 24) / 6.2));
    std::vector<std::string> lines;
    for (const auto& part : parts) {
        std::string line;
        size_t at = 0;
        while (at < part.size()) {
            size_t end = part.find(' ', at);
            if (end == std::string::npos) end = part.size();
            std::string word = part.substr(at, end - at);
            at = end + 1;
            if (!line.empty() && line.size() + 1 + word.size() > limit) lines.push_back(line), line.clear();
            line += (line.empty() ? "" : " ") + word;
        }
        if (!line.empty()) lines.push_back(line);
    }
    if (lines.size() > 4) {
        lines.resize(4);
        lines.back() += " ~";
    }
    return lines;
}

void draw_caption(Scene& s, const std::vector<std::string>& lines) {
    auto& g = s.group();
    double y = s.height - 8;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        if (it->empty()) continue;
        g.add(Text{12, y, *it, "caption", Anchor::start, 0, static_cast<size_t>(s.width / 6)});
        y -= 14;
    }
}

std::string skipped_note(size_t skipped) {
    if (skipped == 0) return {};
    return std::to_string(skipped) + (skipped == 1 ? " value" : " values") +
           " not drawn (not finite, or beyond 1e300 in magnitude)";
}

std::string short_boot(const std::string& boot) { return boot.size() > 8 ? boot.substr(0, 8) : boot; }

std::string finish(const Scene& s) { return write_svg(s, chart_css()); }

std::string run_class(bool warmup, bool invalid, bool dropped) {
    if (invalid) return "run invalid";
    if (warmup) return "run warmup";
    if (dropped) return "run dropped";
    return "run";
}

Path invalid_cross(double x, double y, double r) {
    Path p;
    double d = r + 1.5;
    p.points = {{x - d, y - d}, {x + d, y + d}};
    p.more = {{{x - d, y + d}, {x + d, y - d}}};
    p.cls = "invalid-mark";
    return p;
}

std::string value_text(double recorded, const ValueAxis& a) { return text::scaled_value(recorded, a.unit, 4); }

}  // namespace gfxstat::plot::detail
