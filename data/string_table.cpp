// SPDX-License-Identifier: MIT
#include "data/string_table.h"

namespace gfxstat::data {

void StringTable::share(SharedString& s) {
    if (s.empty()) return;  // nothing to share: empty holds no text
    if (const auto it = seen_.find(s); it != seen_.end()) {
        if (!it->shares_with(s)) s = *it;
        return;
    }
    if (seen_.size() >= kMaxDistinct) seen_.clear();
    seen_.insert(s);
}

}  // namespace gfxstat::data
