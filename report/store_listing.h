// SPDX-License-Identifier: MIT
// gfxstat store ls and check, as text: what a results store holds (builds,
// machines, metrics, variants with their counts of runs and samples) and
// what its check found. Names come from data: escaped, and clipped to the
// width with "..." rather than wrapped, so that each stays one row.
#pragma once

#include <string>

#include "data/store.h"

namespace gfxstat::report {

std::string store_listing_text(const std::string& store, const data::StoreListing& listing, size_t width);
std::string store_check_text(const std::string& store, const data::StoreCheck& check);

}  // namespace gfxstat::report
