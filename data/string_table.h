// SPDX-License-Identifier: MIT
// The distinct strings of a results file's runs (variants, boots,
// environment ids, metric names, ...), so that each text is kept once
// however the runs interleave: an `ab` file alternates its variants run
// by run, and sharing with the previous run only kept one copy per run.
//
// Bounded: a file whose runs each carry a string of their own (an exit
// reason with a time in it) would otherwise grow the table by a node a
// run. When it holds kMaxDistinct strings it starts again empty, so that
// it never costs more than about 2.5 MB, each run stays O(1), and a text
// repeated across runs is again kept once after the restart (one more
// copy of it per kMaxDistinct distinct strings, not per run).
#pragma once

#include <cstddef>
#include <unordered_set>

#include "data/shared_string.h"

namespace gfxstat::data {

class StringTable {
public:
    static constexpr size_t kMaxDistinct = size_t{1} << 16;

    // Makes `s` the table's copy of its text, adding the text when new.
    void share(SharedString& s);
    size_t size() const noexcept { return seen_.size(); }

private:
    std::unordered_set<SharedString> seen_;
};

}  // namespace gfxstat::data
