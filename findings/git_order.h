// SPDX-License-Identifier: MIT
// Builds in git's commit order: `history --order git` and a store
// selection's `last:N` under `--order git` (docs/store.md) place build
// keys (commit ids, full or abbreviated) in `git rev-list --topo-order`
// of HEAD, oldest first. One place for both, so that they agree.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "data/store_select.h"

namespace gfxstat::findings {

struct GitPlaces {
    std::vector<size_t> position;        // per key: its commit's place, oldest first; SIZE_MAX when not found
    std::vector<std::string> commit;     // per key: the full commit id ("" when not found)
    std::vector<std::string> not_found;  // keys that are no commit id of HEAD's history
    std::vector<std::string> ambiguous;  // keys that name more than one commit
};

// Runs `git -C DIR rev-list --topo-order --reverse HEAD` (no shell). Throws
// data::InputError when git fails; `what` leads its message ("--order git").
GitPlaces place_in_git(const std::string& dir, const std::vector<std::string>& keys, const std::string& what);

// last:N's build order under `--order git --git DIR`: builds not in HEAD's
// history are left out with a note naming them; keys naming several
// commits are an error (give longer ids).
data::BuildOrder git_build_order(const std::string& dir);

}  // namespace gfxstat::findings
