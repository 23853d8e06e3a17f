// SPDX-License-Identifier: MIT
#include "findings/git_order.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "data/input_error.h"
#include "drivers/git_revisions.h"
#include "text/plural.h"

namespace gfxstat::findings {

namespace {

bool hex_key(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    });
}

std::string name_list(const std::vector<std::string>& names) {
    std::string s;
    for (size_t i = 0; i < names.size() && i < 5; ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > 5) s += " and " + std::to_string(names.size() - 5) + " more";
    return s;
}

// Every commit of HEAD's history, oldest first.
std::vector<std::string> git_commits(const std::string& dir, const std::string& what) {
    std::string why;
    const auto text = drivers::git_output(dir, {"rev-list", "--topo-order", "--reverse", "HEAD"}, &why);
    if (!text) throw data::InputError(what + ": git rev-list in " + dir + " failed" + (why.empty() ? "" : ": " + why));
    std::vector<std::string> commits;
    size_t at = 0;
    while (at < text->size()) {
        size_t nl = text->find('\n', at);
        if (nl == std::string::npos) nl = text->size();
        if (nl > at) commits.emplace_back(text->substr(at, nl - at));
        at = nl + 1;
    }
    return commits;
}

}  // namespace

GitPlaces place_in_git(const std::string& dir, const std::vector<std::string>& keys, const std::string& what) {
    const std::vector<std::string> commits = git_commits(dir, what);
    GitPlaces g;
    g.position.assign(keys.size(), SIZE_MAX);
    g.commit.assign(keys.size(), "");
    // Keys by length, so that each commit is looked up once per length.
    std::map<size_t, std::unordered_map<std::string, size_t>> by_length;
    std::vector<bool> bad(keys.size(), false);
    for (size_t i = 0; i < keys.size(); ++i) {
        std::string k = keys[i];
        std::transform(k.begin(), k.end(), k.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
        if (!hex_key(k) || k.size() < 4 || k.size() > 64) bad[i] = true;
        else by_length[k.size()].emplace(k, i);
    }
    for (size_t c = 0; c < commits.size(); ++c)
        for (auto& [len, found] : by_length) {
            if (commits[c].size() < len) continue;
            const auto it = found.find(commits[c].substr(0, len));
            if (it == found.end()) continue;
            if (g.position[it->second] != SIZE_MAX) g.ambiguous.push_back(keys[it->second]);
            g.position[it->second] = c;
            g.commit[it->second] = commits[c];
        }
    for (size_t i = 0; i < keys.size(); ++i)
        if (bad[i] || g.position[i] == SIZE_MAX) {
            g.position[i] = SIZE_MAX;
            g.commit[i].clear();
            g.not_found.push_back(keys[i]);
        }
    return g;
}

data::BuildOrder git_build_order(const std::string& dir) {
    return [dir](const std::vector<data::StoredBuild>& builds, std::vector<std::string>& notes) {
        std::vector<std::string> keys;
        for (const data::StoredBuild& b : builds) keys.push_back(b.build);
        const GitPlaces g = place_in_git(dir, keys, "last:N with --order git");
        if (!g.ambiguous.empty())
            throw data::InputError("last:N with --order git: " + name_list(g.ambiguous) + " name" +
                                   (g.ambiguous.size() == 1 ? "s" : "") + " more than one commit in " + dir +
                                   "; give longer commit ids");
        if (!g.not_found.empty())
            notes.push_back("last:N with --order git: " + text::plural(g.not_found.size(), "build") +
                            " not in the history of HEAD in " + dir + " left out: " + name_list(g.not_found));
        std::vector<size_t> order;
        for (size_t i = 0; i < keys.size(); ++i)
            if (g.position[i] != SIZE_MAX) order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return g.position[a] < g.position[b]; });
        std::vector<std::string> out;
        for (size_t i : order) out.push_back(keys[i]);
        return out;
    };
}

}  // namespace gfxstat::findings
