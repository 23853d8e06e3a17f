// SPDX-License-Identifier: MIT
// The names of small enums as one table each: a {value, name} table drives
// both directions (value to name, name to value), so that a name is spelled
// once and the two can never disagree. Header-only so that data/ and
// drivers/ name their own enums the same way.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace gfxstat::analysis {

template <class E>
struct EnumName {
    E value;
    const char* name;
};

// The name of value in table; fallback when the table lacks it.
template <class E, std::size_t N>
constexpr const char* name_of(const EnumName<E> (&table)[N], E value, const char* fallback) {
    for (const auto& e : table)
        if (e.value == value) return e.name;
    return fallback;
}

// The value named s in table, or nothing when no entry has that name.
template <class E, std::size_t N>
constexpr std::optional<E> parse_name(const EnumName<E> (&table)[N], std::string_view s) {
    for (const auto& e : table)
        if (s == e.name) return e.value;
    return std::nullopt;
}

}  // namespace gfxstat::analysis
