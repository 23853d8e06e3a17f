// SPDX-License-Identifier: MIT
// How the short report gathers metrics into tables, benchstat-style: the
// metrics of one benchmark that end alike and share a unit and direction
// (glmark2's "build.duration_2.fps", "shading.duration_2.fps", ...) form a
// table titled by that ending ("fps"), each row labelled by the rest of its
// name less the parts every row shares ("build", "shading"); the others go
// into one table of whole names.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gfxstat::cli {

struct GroupedMetric {
    std::string name;
    std::string unit;       // as recorded: "ms", "fps", ""
    std::string direction;  // "higher", "lower", "" (unknown)
};

struct MetricGroup {
    // The ending the rows share ("fps"); "" for the table of whole names.
    std::string title;
    // The name parts every row of a titled group shares and its labels
    // leave out, joined by '.' ("duration_0.3"); "" when none.
    std::string common;
    std::vector<size_t> members;     // indices into the metrics given, in their order
    std::vector<std::string> labels;  // one per member
};

// The tables, in the order their first metrics come. A titled group has
// 2 or more members; labels within a group are distinct and never empty.
std::vector<MetricGroup> metric_groups(const std::vector<GroupedMetric>& metrics);

}  // namespace gfxstat::cli
