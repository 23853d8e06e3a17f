// SPDX-License-Identifier: MIT
#include "text/nearest_word.h"

#include <algorithm>
#include <cctype>

namespace gfxstat::text {

size_t edit_distance(std::string_view a, std::string_view b) {
    // Three rows of the dynamic programme: the transposition looks two
    // rows back.
    std::vector<size_t> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                row[j] = std::min(row[j], before[j - 2] + 1);
        }
        std::swap(before, prev);
        std::swap(prev, row);
    }
    return prev[b.size()];
}

namespace {

std::string_view without_dashes(std::string_view s) {
    while (!s.empty() && s.front() == '-') s.remove_prefix(1);
    return s;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// How far a word of `length` characters may be from a known one and still
// be taken for it mistyped: a third of it, at least 1, at most 3 (git's
// floor for commands is about the same).
size_t allowed_distance(size_t length) { return std::clamp<size_t>(length / 3, 1, 3); }

}  // namespace

std::vector<std::string> nearest_words(std::string_view typed, const std::vector<std::string>& known) {
    const bool option = !typed.empty() && typed.front() == '-';
    const std::string core = lower(without_dashes(typed));
    if (core.empty()) return {};
    std::vector<std::string> prefixed;
    std::vector<std::pair<size_t, std::string>> near;
    for (const std::string& word : known) {
        if ((!word.empty() && word.front() == '-') != option) continue;
        const std::string k = lower(without_dashes(word));
        if (k.empty() || word == typed) continue;  // a known word is no mistake
        if (core.size() >= 3 && k.compare(0, core.size(), core) == 0) prefixed.push_back(word);
        const size_t d = edit_distance(core, k);
        if (d <= allowed_distance(core.size())) near.emplace_back(d, word);
    }
    std::vector<std::string> out;
    if (!prefixed.empty()) {
        out = std::move(prefixed);
    } else if (!near.empty()) {
        std::stable_sort(near.begin(), near.end(),
                         [](const auto& x, const auto& y) { return x.first < y.first; });
        for (const auto& [d, word] : near)
            if (d == near.front().first) out.push_back(word);
    }
    // The same word twice (an option listed under two of its names).
    std::vector<std::string> unique;
    for (auto& w : out)
        if (std::find(unique.begin(), unique.end(), w) == unique.end()) unique.push_back(std::move(w));
    if (unique.size() > 3) unique.resize(3);
    return unique;
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known) {
    const std::vector<std::string> words = nearest_words(typed, known);
    if (words.empty()) return "";
    std::string s = "; did you mean ";
    for (size_t i = 0; i < words.size(); ++i) {
        if (i) s += i + 1 == words.size() ? " or " : ", ";
        s += words[i];
    }
    return s + "?";
}

}  // namespace gfxstat::text
