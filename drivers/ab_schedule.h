// SPDX-License-Identifier: MIT
// The order in which `gfxstat ab` runs its variants: blocks, each holding
// every variant once. Randomised within each block by default, so that
// whatever changes with the position in a block (the first run after a
// switch pays for cold caches, a shader cache, a clock ramp) falls on each
// variant alike and averages out instead of favouring one; alternate
// (ABAB...) and abba (AB BA AB ...) for those who want a fixed pattern.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gfxstat::drivers {

enum class AbOrder { random, alternate, abba };

const char* ab_order_name(AbOrder o);  // "random", "alternate", "abba"
std::optional<AbOrder> parse_ab_order(std::string_view s);

// The variants (indices 0..variants-1) in the order block `block` runs
// them. Random blocks depend only on (seed, block): a resumed or replayed
// experiment gets the same orders. variants >= 1.
std::vector<size_t> block_order(AbOrder order, size_t variants, uint64_t block, uint64_t seed);

}  // namespace gfxstat::drivers
