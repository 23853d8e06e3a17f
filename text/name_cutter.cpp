// SPDX-License-Identifier: MIT
#include "text/name_cutter.h"

#include "text/text_width.h"

namespace gfxstat::text {

bool NameCutter::taken(const std::string& shown) {
    ++lookups_;
    return shown_.count(shown) != 0;
}

// Whether the cuts numbered below `below` (1: the plain cut) are the same
// for every name whose plain cut at `columns` is the same: then what one
// such name found taken is taken for all of them, and the next name cut
// alike starts at `below` instead of trying every number again (20,000
// variants cut to "mesa-main-0~" went through 2, 3, ... each). Cuts that
// keep the start keep a prefix of the plain cut's prefix; cuts that keep
// both ends keep parts of its two ends while at least 5 columns are left
// for them, and fall back to the start alone below that.
bool NameCutter::tags_follow_plain_cut(size_t columns, size_t below) const {
    if (keep_ == Keep::start || columns < 5 || below <= 2) return true;
    const size_t widest_tag = std::to_string(below - 1).size();
    return columns > widest_tag + 1 && columns - widest_tag >= 5;
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
    if (const auto known = cut_of_.find(name); known != cut_of_.end()) return legend_[known->second].first;
    if (display_width(name) <= columns) {
        shown_.insert(name);
        return name;
    }
    const std::string plain = clip(name, columns, "");
    // Told apart by a number after the mark, the cut made shorter to keep
    // the width; the numbers that names cut alike before took are skipped.
    const auto numbered = [&](size_t k) {
        if (k == 1) return plain;
        const std::string tag = std::to_string(k);
        return clip(name, columns > tag.size() + 1 ? columns - tag.size() : 1, tag);
    };
    const std::string alike = std::to_string(columns) + " " + plain;
    size_t k = 1;
    if (const auto next = next_tag_.find(alike); next != next_tag_.end() && tags_follow_plain_cut(columns, next->second))
        k = next->second;
    std::string c = numbered(k);
    while (taken(c)) c = numbered(++k);
    next_tag_[alike] = k + 1;
    cut_of_.emplace(name, legend_.size());
    shown_.insert(c);
    legend_.emplace_back(c, name);
    return c;
}

}  // namespace gfxstat::text
