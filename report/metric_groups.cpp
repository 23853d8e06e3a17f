// SPDX-License-Identifier: MIT
#include "report/metric_groups.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace gfxstat::cli {

namespace {

std::vector<std::string> split_dots(const std::string& s) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == '.') {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return parts;
}

std::string join_dots(const std::vector<std::string>& parts) {
    std::string s;
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? "." : "") + parts[i];
    return s;
}

// The labels less the parts that stand at the same place in every one of
// them, when that leaves each label something and keeps them apart.
void drop_common_parts(MetricGroup& g) {
    if (g.labels.size() < 2) return;
    std::vector<std::vector<std::string>> parts;
    size_t shortest = static_cast<size_t>(-1);
    for (const std::string& l : g.labels) {
        parts.push_back(split_dots(l));
        shortest = std::min(shortest, parts.back().size());
    }
    std::vector<bool> common(shortest, false);
    bool any = false;
    for (size_t j = 0; j < shortest; ++j) {
        common[j] = std::all_of(parts.begin(), parts.end(), [&](const auto& p) { return p[j] == parts[0][j]; });
        any |= common[j];
    }
    if (!any) return;
    std::vector<std::string> labels;
    std::set<std::string> seen;
    for (const auto& p : parts) {
        std::vector<std::string> kept;
        for (size_t j = 0; j < p.size(); ++j)
            if (j >= shortest || !common[j]) kept.push_back(p[j]);
        if (kept.empty() || join_dots(kept).empty()) return;
        labels.push_back(join_dots(kept));
        if (!seen.insert(labels.back()).second) return;
    }
    std::vector<std::string> shared;
    for (size_t j = 0; j < shortest; ++j)
        if (common[j]) shared.push_back(parts[0][j]);
    g.common = join_dots(shared);
    g.labels = std::move(labels);
}

}  // namespace

std::vector<MetricGroup> metric_groups(const std::vector<GroupedMetric>& metrics) {
    // (ending, unit, direction) -> members; metrics without an ending are
    // keyed apart from every other.
    using Key = std::tuple<std::string, std::string, std::string>;
    std::map<Key, std::vector<size_t>> by_key;
    std::vector<Key> keys(metrics.size());
    std::vector<bool> has_ending(metrics.size(), false);
    for (size_t i = 0; i < metrics.size(); ++i) {
        const std::string& n = metrics[i].name;
        const size_t dot = n.rfind('.');
        if (dot == std::string::npos || dot == 0 || dot + 1 == n.size()) continue;
        has_ending[i] = true;
        keys[i] = Key{n.substr(dot + 1), metrics[i].unit, metrics[i].direction};
        by_key[keys[i]].push_back(i);
    }
    std::vector<MetricGroup> groups;
    std::map<Key, size_t> made;
    size_t others = static_cast<size_t>(-1);
    for (size_t i = 0; i < metrics.size(); ++i) {
        if (has_ending[i] && by_key[keys[i]].size() >= 2) {
            auto [it, fresh] = made.try_emplace(keys[i], groups.size());
            if (fresh) {
                MetricGroup g;
                g.title = std::get<0>(keys[i]);
                groups.push_back(std::move(g));
            }
            MetricGroup& g = groups[it->second];
            g.members.push_back(i);
            g.labels.push_back(metrics[i].name.substr(0, metrics[i].name.size() - g.title.size() - 1));
            continue;
        }
        if (others == static_cast<size_t>(-1)) {
            others = groups.size();
            groups.emplace_back();
        }
        groups[others].members.push_back(i);
        groups[others].labels.push_back(metrics[i].name);
    }
    for (MetricGroup& g : groups)
        if (!g.title.empty()) {
            // Labels that two metrics share after the ending is cut (names
            // that differ only past a dot of their own) keep whole names.
            std::set<std::string> seen(g.labels.begin(), g.labels.end());
            if (seen.size() != g.labels.size() ||
                std::any_of(g.labels.begin(), g.labels.end(), [](const std::string& l) { return l.empty(); })) {
                for (size_t j = 0; j < g.members.size(); ++j) g.labels[j] = metrics[g.members[j]].name;
                continue;
            }
            drop_common_parts(g);
        }
    return groups;
}

}  // namespace gfxstat::cli
