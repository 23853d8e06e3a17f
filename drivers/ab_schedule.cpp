// SPDX-License-Identifier: MIT
#include "drivers/ab_schedule.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "analysis/enum_names.h"

namespace gfxstat::drivers {

namespace {

// SplitMix64: a well-mixed 64-bit stream from (seed, block), enough for
// shuffling a handful of variants without a shared generator's state.
uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Uniform in [0, n) without modulo bias (Lemire's rejection).
uint64_t below(uint64_t& state, uint64_t n) {
    const uint64_t limit = -n % n;  // 2^64 mod n
    while (true) {
        const uint64_t r = splitmix(state);
        const unsigned __int128 m = static_cast<unsigned __int128>(r) * n;
        if (static_cast<uint64_t>(m) >= limit) return static_cast<uint64_t>(m >> 64);
    }
}

}  // namespace

namespace {

constexpr analysis::EnumName<AbOrder> kAbOrderNames[] = {
    {AbOrder::random, "random"}, {AbOrder::alternate, "alternate"}, {AbOrder::abba, "abba"}};

}  // namespace

const char* ab_order_name(AbOrder o) { return analysis::name_of(kAbOrderNames, o, "random"); }

std::optional<AbOrder> parse_ab_order(std::string_view s) { return analysis::parse_name(kAbOrderNames, s); }

std::vector<size_t> block_order(AbOrder order, size_t variants, uint64_t block, uint64_t seed) {
    std::vector<size_t> v(variants);
    std::iota(v.begin(), v.end(), size_t{0});
    switch (order) {
        case AbOrder::alternate: break;
        case AbOrder::abba:
            if (block % 2 == 1) std::reverse(v.begin(), v.end());
            break;
        case AbOrder::random: {
            uint64_t state = seed;
            splitmix(state);
            state ^= block * 0xD1B54A32D192ED03ULL;
            for (size_t i = variants; i > 1; --i) std::swap(v[i - 1], v[below(state, i)]);
            break;
        }
    }
    return v;
}

}  // namespace gfxstat::drivers
