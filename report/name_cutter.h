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
#include <utility>
#include <vector>

namespace gfxstat::report {

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

private:
    bool taken(const std::string& shown) const;
    std::string clip(const std::string& name, size_t columns, const std::string& tag) const;

    Keep keep_;
    std::vector<std::pair<std::string, std::string>> legend_;
    std::vector<std::string> whole_;  // names returned uncut
};

}  // namespace gfxstat::report
