// SPDX-License-Identifier: MIT
// An optional number in the number's own 8 bytes: one bit pattern that no
// record holds marks "absent", where std::optional would add a flag and
// pad to 16 bytes. A run record has four such members (duration, campaign
// step, block, position) and a file can hold millions of runs. The
// interface is the optional's where records use it (has_value, *,
// value_or, reset, assignment from a value, an optional or nullopt, and
// conversion back to a std::optional); `*` reads by value.
//
// The absent patterns: for counts, 2^64-1 (the results format holds counts
// from 0 to 2^63-1); for doubles, one quiet NaN with a payload of its own
// (a duration is a finite number of seconds). Storing the pattern itself
// is refused (std::invalid_argument), so absent is never made by accident.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <stdexcept>

namespace gfxstat::data {

template <class T>
struct AbsentBits;
template <>
struct AbsentBits<uint64_t> {
    static constexpr uint64_t bits = ~uint64_t{0};
};
template <>
struct AbsentBits<double> {
    static constexpr uint64_t bits = 0x7ff8'0000'6a62'7321ull;  // a quiet NaN, payload "absent"
};

template <class T>
class PackedOptional {
    static_assert(sizeof(T) == sizeof(uint64_t));
    static constexpr uint64_t kAbsent = AbsentBits<T>::bits;

public:
    constexpr PackedOptional() noexcept = default;
    constexpr PackedOptional(std::nullopt_t) noexcept {}
    PackedOptional(T v) : bits_(std::bit_cast<uint64_t>(v)) {
        if (bits_ == kAbsent) throw std::invalid_argument("PackedOptional: the value that marks absent");
    }
    PackedOptional(const std::optional<T>& o) : PackedOptional() {
        if (o) *this = PackedOptional(*o);
    }
    PackedOptional& operator=(std::nullopt_t) noexcept {
        reset();
        return *this;
    }

    bool has_value() const noexcept { return bits_ != kAbsent; }
    explicit operator bool() const noexcept { return has_value(); }
    T operator*() const noexcept { return std::bit_cast<T>(bits_); }
    T value() const {
        if (!has_value()) throw std::bad_optional_access();
        return **this;
    }
    T value_or(T fallback) const noexcept { return has_value() ? **this : fallback; }
    void reset() noexcept { bits_ = kAbsent; }
    T emplace(T v) {
        *this = PackedOptional(v);
        return v;
    }
    std::optional<T> to_optional() const { return has_value() ? std::optional<T>(**this) : std::nullopt; }
    operator std::optional<T>() const { return to_optional(); }

    friend bool operator==(const PackedOptional& a, const PackedOptional& b) noexcept {
        return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
    }
    friend bool operator==(const PackedOptional& a, std::nullopt_t) noexcept { return !a.has_value(); }

private:
    uint64_t bits_ = kAbsent;
};

}  // namespace gfxstat::data
