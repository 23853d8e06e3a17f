// SPDX-License-Identifier: MIT
#include "report/name_cutter.h"

#include <algorithm>

#include "report/text_width.h"

namespace gfxstat::report {

bool NameCutter::taken(const std::string& shown) const {
    return std::any_of(legend_.begin(), legend_.end(), [&](const auto& e) { return e.first == shown; }) ||
           std::find(whole_.begin(), whole_.end(), shown) != whole_.end();
}

std::string NameCutter::clip(const std::string& name, size_t columns, const std::string& tag) const {
    if (keep_ == Keep::start || columns < 5) return clip_columns(name, columns) + tag;
    // The start and the end, the end the larger part, the number (if any)
    // after the mark: "shadi~_phong.fps", "shadi~2phong.fps".
    const std::vector<std::string> chars = split_columns(name, 1);
    const size_t head = (columns - 1) * 2 / 5, tail = columns - 1 - head;
    std::string out;
    for (size_t i = 0; i < head; ++i) out += chars[i];
    out += "~" + tag;
    for (size_t i = chars.size() - tail; i < chars.size(); ++i) out += chars[i];
    return out;
}

std::string NameCutter::cut(const std::string& name, size_t columns) {
    if (columns == 0) columns = 1;
    for (const auto& [shown, whole] : legend_)
        if (whole == name) return shown;
    if (display_width(name) <= columns) {
        if (std::find(whole_.begin(), whole_.end(), name) == whole_.end()) whole_.push_back(name);
        return name;
    }
    std::string c = clip(name, columns, "");
    // Told apart by a number after the mark, the cut made shorter to keep
    // the width.
    for (size_t k = 2; taken(c); ++k) {
        const std::string tag = std::to_string(k);
        c = clip(name, columns > tag.size() + 1 ? columns - tag.size() : 1, tag);
    }
    legend_.emplace_back(c, name);
    return c;
}

}  // namespace gfxstat::report
