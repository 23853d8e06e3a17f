// SPDX-License-Identifier: MIT
// xoshiro256** 1.0 (Blackman & Vigna 2018) and the SplitMix64 mixer that
// seeds it: the generator behind every seeded simulation in gfxstat (the
// bootstrap's resamples, the dip test's null table). Small and header-only
// so that each replicate or resample can own one.
#pragma once

#include <array>
#include <cstdint>

namespace gfxstat::analysis {

// SplitMix64's output function (Steele, Lea & Flood 2014): a bijection
// that turns nearby integers into unrelated-looking ones.
inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// SplitMix64 as a generator: advances `state` and returns the next word.
inline uint64_t splitmix64(uint64_t& state) { return mix64(state += 0x9E3779B97F4A7C15ULL); }

class Xoshiro256ss {
public:
    // The caller seeds all four words (not all zero).
    explicit Xoshiro256ss(const std::array<uint64_t, 4>& state) : s_(state) {}

    uint64_t next() {
        const uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

    // Uniform on [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::array<uint64_t, 4> s_;
};

}  // namespace gfxstat::analysis
