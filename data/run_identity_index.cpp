// SPDX-License-Identifier: MIT
#include "data/run_identity_index.h"

namespace gfxstat::data {

namespace {
std::string key(const std::string& origin, const std::string& variant) { return origin + '\n' + variant; }
}  // namespace

std::optional<size_t> RunIdentityIndex::Runs::find(uint64_t run) const {
    if (run < dense.size()) return dense[run];
    const auto it = sparse.find(run);
    if (it == sparse.end()) return std::nullopt;
    return it->second;
}

std::optional<size_t> RunIdentityIndex::find(const std::string& origin, const std::string& variant,
                                             uint64_t run) const {
    const auto it = by_key_.find(key(origin, variant));
    if (it == by_key_.end()) return std::nullopt;
    return it->second.find(run);
}

bool RunIdentityIndex::add(const std::string& origin, const std::string& variant, uint64_t run, size_t place) {
    Runs& runs = by_key_[key(origin, variant)];
    if (runs.find(run)) return false;
    // Every index below dense.size() is present, so the array only grows
    // by the next index; a sparse entry that the array reaches moves in,
    // keeping "i < dense.size()" the one test of presence there.
    if (run != runs.dense.size()) {
        runs.sparse.emplace(run, place);
        return true;
    }
    runs.dense.push_back(place);
    for (auto it = runs.sparse.find(runs.dense.size()); it != runs.sparse.end();
         it = runs.sparse.find(runs.dense.size())) {
        runs.dense.push_back(it->second);
        runs.sparse.erase(it);
    }
    return true;
}

}  // namespace gfxstat::data
