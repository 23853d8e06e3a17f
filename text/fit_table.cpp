// SPDX-License-Identifier: MIT
#include "text/fit_table.h"

#include <algorithm>

#include "text/text_width.h"

namespace gfxstat::text {

namespace {

bool numeric(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The plain table's lines (trailing spaces removed).
std::vector<std::string> plain(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows,
                               size_t indent, bool numbers = false) {
    std::vector<size_t> w(head.size());
    std::vector<bool> right(head.size(), true);
    if (numbers && !right.empty()) right[0] = false;
    for (size_t i = 0; i < head.size(); ++i) w[i] = display_width(head[i]);
    for (const auto& r : rows)
        for (size_t i = 0; i < r.size() && i < head.size(); ++i) {
            w[i] = std::max(w[i], display_width(r[i]));
            if (!numbers && !numeric(r[i])) right[i] = false;
        }
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string s(indent, ' ');
        for (size_t i = 0; i < head.size(); ++i) {
            const std::string c = i < cells.size() ? cells[i] : std::string();
            s += (i ? "  " : "") + (right[i] ? pad_left(c, w[i]) : pad_right(c, w[i]));
        }
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
    };
    std::vector<std::string> out = {line(head)};
    for (const auto& r : rows) out.push_back(line(r));
    return out;
}

}  // namespace

std::vector<std::string> fit_table(const TextTable& t, size_t width, size_t indent) {
    std::vector<std::string> lines = plain(t.head, t.rows, indent);
    if (widest(lines) <= width) return lines;
    if (t.keyed_from < t.head.size() && t.keys.size() >= t.head.size() - t.keyed_from) {
        std::vector<std::string> head = t.head;
        std::vector<std::string> legend;
        for (size_t i = t.keyed_from; i < head.size(); ++i) {
            const std::string& key = t.keys[i - t.keyed_from];
            for (const std::string& l : wrap_text(key + " " + head[i], width, indent, indent + display_width(key) + 1))
                legend.push_back(l);
            head[i] = key;
        }
        lines = plain(head, t.rows, indent);
        if (widest(lines) <= width) {
            legend.insert(legend.end(), lines.begin(), lines.end());
            return legend;
        }
    }
    // Stacked: the first cell, then "head: value" for the others.
    lines.clear();
    for (const auto& r : t.rows) {
        for (const std::string& l : wrap_text(r.empty() ? "" : r[0], width, indent, indent + 2)) lines.push_back(l);
        for (size_t i = 1; i < t.head.size() && i < r.size(); ++i)
            for (const std::string& l : wrap_text(t.head[i] + ": " + r[i], width, indent + 2, indent + 4))
                lines.push_back(l);
    }
    return lines;
}

std::vector<std::string> fit_columns(const TextTable& t, size_t width, size_t indent) {
    std::vector<std::string> lines = plain(t.head, t.rows, indent, true);
    if (widest(lines) <= width || t.head.size() < 3) return lines;
    // Greedily: as many columns after the key as fit, then the next table.
    lines.clear();
    std::vector<size_t> group;
    const auto table_of = [&](const std::vector<size_t>& cols) {
        std::vector<std::string> head = {t.head[0]};
        std::vector<std::vector<std::string>> rows(t.rows.size());
        for (size_t r = 0; r < t.rows.size(); ++r) rows[r].push_back(t.rows[r].empty() ? "" : t.rows[r][0]);
        for (size_t c : cols) {
            head.push_back(t.head[c]);
            for (size_t r = 0; r < t.rows.size(); ++r) rows[r].push_back(c < t.rows[r].size() ? t.rows[r][c] : "");
        }
        return plain(head, rows, indent, true);
    };
    const auto flush = [&] {
        if (group.empty()) return;
        if (!lines.empty()) lines.emplace_back();
        for (auto& l : table_of(group)) lines.push_back(std::move(l));
        group.clear();
    };
    for (size_t c = 1; c < t.head.size(); ++c) {
        group.push_back(c);
        if (group.size() > 1 && widest(table_of(group)) > width) {
            group.pop_back();
            flush();
            group.push_back(c);
        }
    }
    flush();
    return lines;
}

}  // namespace gfxstat::text
