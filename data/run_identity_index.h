// SPDX-License-Identifier: MIT
// The run identities of a results file, (origin, variant, run index), each
// mapped to its place in the file (the how-many-th run it is), so that a
// run recorded twice is found as it is read.
//
// Runs of a variant are almost always numbered 0, 1, 2, ... in file order:
// those are kept as a plain array (8 bytes a run) instead of a hash node
// each (~40 bytes); any other index (a gap, runs out of order, a merged
// file's second origin) goes into a hash map beside it. A million runs
// then cost 8 MB here, not 40.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gfxstat::data {

class RunIdentityIndex {
public:
    // The place of run `run` of (origin, variant), if it was added.
    std::optional<size_t> find(const std::string& origin, const std::string& variant, uint64_t run) const;
    // Adds it at `place`; false (and nothing added) when it is there already.
    bool add(const std::string& origin, const std::string& variant, uint64_t run, size_t place);

private:
    struct Runs {
        std::vector<size_t> dense;  // place of run i, for i < dense.size()
        std::unordered_map<uint64_t, size_t> sparse;  // the other indices
        std::optional<size_t> find(uint64_t run) const;
    };
    // origin + '\n' + variant -> its runs
    std::unordered_map<std::string, Runs> by_key_;
};

}  // namespace gfxstat::data
