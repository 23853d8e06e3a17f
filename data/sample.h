// SPDX-License-Identifier: MIT
// One data set as read: exact decimal significands sharing a power of ten
// (int32 when they fit, else int64), or doubles when even that cannot hold
// the input (hexadecimal floats, more than 18 significant digits, exponents
// too far apart). Built chunk by chunk so that reading 10 million values
// never holds two copies of them; the first chunk starts small and grows,
// so that the thousands of one-value samples of a wide table (one per
// metric column) cost bytes each, not a chunk each.
#pragma once

#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "analysis/order_stats.h"
#include "analysis/scaled_values.h"
#include "data/number_token.h"

namespace gfxstat::data {

struct Sample {
    std::string name;
    std::variant<std::vector<int32_t>, std::vector<int64_t>, std::vector<double>> values;
    int exponent = 0;
    // Tokens that could only be held as doubles (hex floats, > 18 digits).
    size_t binary_tokens = 0;

    size_t size() const;
    // True when every value is held as an exact decimal.
    bool exact() const { return !std::holds_alternative<std::vector<double>>(values); }
    analysis::ScaledValues view() const;
    analysis::MutableScaledValues mutable_view();
};

// Removes the values at `indices` (increasing, in range), keeping the order
// of the others.
void erase_values(Sample& sample, const std::vector<size_t>& indices);

class SampleBuilder {
public:
    // Accepts tokens whose status is decimal or binary.
    void add(const NumberToken& token);
    // The same as add() for a decimal token, inlined for the common case: a
    // value with the shared exponent that fits the int32 chunk being filled.
    void add_decimal(bool negative, uint64_t significand, int exponent) {
        const size_t at = n_ % kChunk;
        if (mode_ == Mode::int32 && exponent == exponent_ && at != 0 && at < first_cap_ &&
            significand <= static_cast<uint64_t>(INT32_MAX)) {
            const auto v = static_cast<int32_t>(significand);
            c32_.back()[at] = negative ? -v : v;
            ++n_;
            if (significand > max_abs_) max_abs_ = significand;
            return;
        }
        NumberToken t;
        t.status = TokenStatus::decimal;
        t.negative = negative;
        t.significand = significand;
        t.exponent = exponent;
        add(t);
    }
    size_t size() const { return n_; }
    // Moves the values into one contiguous array, freeing chunks as it goes.
    Sample finish(std::string name) &&;

private:
    static constexpr size_t kChunk = size_t{1} << 16;
    static constexpr size_t kFirstChunk = 16;  // a power of two, so doubling reaches kChunk
    template <class T>
    using Chunks = std::vector<std::unique_ptr<T[]>>;

    void add_integer(int64_t significand, int exponent);
    void add_double(double v);
    bool rescale(int new_exponent);  // false when significands would overflow int64
    void to_int64();
    void to_double();
    template <class T>
    void push(Chunks<T>& chunks, T v);
    template <class T>
    void grow_first(Chunks<T>& chunks);
    size_t chunk_capacity(size_t c) const { return c == 0 ? first_cap_ : kChunk; }

    enum class Mode { int32, int64, binary } mode_ = Mode::int32;
    Chunks<int32_t> c32_;
    Chunks<int64_t> c64_;
    Chunks<double> cd_;
    size_t n_ = 0;
    size_t first_cap_ = 0;    // capacity of chunk 0: kFirstChunk doubling up to kChunk
    int exponent_ = INT_MAX;  // unset until the first non-zero value
    uint64_t max_abs_ = 0;    // largest |significand| stored
    size_t binary_tokens_ = 0;
};

}  // namespace gfxstat::data
