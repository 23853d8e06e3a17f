// SPDX-License-Identifier: MIT
// Names cut to a column, kept apart. Metric names of one benchmark share
// long prefixes (glmark2's "shading.duration_1.shading_phong.fps" and
// "....frame_time"), so names cut to the same width often come out alike;
// rows that read alike cannot be told apart, and a report whose rows
// cannot be told apart says nothing. A NameCutter remembers what it has
// cut: a name cut like a different earlier one gets a number after the
// mark ("shading.dura~2"), the same name always the same cut, and the
// legend lists each cut with the whole name for the report to print.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace gfxstat::text {

class NameCutter {
public:
    // How a name too long for its columns is cut: its start kept and "~"
    // last (text tables, whose legend gives the whole name), or its start
    // and its end kept with "~" between (labels without a legend, where
    // the end is what tells a benchmark's metrics apart).
    enum class Keep { start, both_ends };

    explicit NameCutter(Keep keep = Keep::start) : keep_(keep) {}

    // `name` (text as printed: escaped already) in at most `columns`
    // display columns (at least 1), unique among the names this cutter
    // has returned: uncut when it fits, else cut and marked "~", with a
    // number after the mark when another name was cut alike.
    std::string cut(const std::string& name, size_t columns);

    // (as cut, whole) for each name that was cut, in the order first cut.
    const std::vector<std::pair<std::string, std::string>>& legend() const { return legend_; }

    // Cuts looked up so far to see whether they were taken: what a test of
    // shape counts (a cut costs a bounded number of look-ups on average,
    // however many names were cut alike before it).
    size_t lookups() const { return lookups_; }

private:
    bool taken(const std::string& shown);
    std::string clip(const std::string& name, size_t columns, const std::string& tag) const;
    bool tags_follow_plain_cut(size_t columns, size_t below) const;

    Keep keep_;
    std::vector<std::pair<std::string, std::string>> legend_;
    // Hashed, so that a report of 20,000 names is not quadratic: the
    // legend's entry of each whole name, every name returned (cut or not),
    // and per plain cut (and width) the first number not known taken.
    std::unordered_map<std::string, size_t> cut_of_;
    std::unordered_set<std::string> shown_;
    std::unordered_map<std::string, size_t> next_tag_;
    size_t lookups_ = 0;
};

}  // namespace gfxstat::text
