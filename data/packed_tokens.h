// SPDX-License-Identifier: MIT
// One metric's values in 8 bytes each instead of a 16-byte NumberToken, as
// long as every value is a plain exact decimal: a significand below 2^53
// (15 digits always, 16 mostly) and a power of ten in [-512, 511], which
// covers every exact decimal a double can hold but those of 16 to 18
// digits. This is what `run --parser lines` keeps of a run's values between
// its parser and the results writer: 50 million of them for 100 MB of
// one-digit lines (docs/run.md, "Memory"). The first value that does not
// fit (a hexadecimal float, 17 digits, a value rounded to a double) turns
// the column into tokens, and it goes on as tokens: nothing is rounded.
// A value read back is the token that was added, field for field, so the
// values written and the statistics computed are those of the tokens.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/number_token.h"

namespace gfxstat::data {

class PackedTokens {
public:
    // Room for `n` values; the tokens get room for as many if the column
    // ever turns into them.
    void reserve(size_t n);
    // Accepts tokens whose status is decimal or binary.
    void push_back(const NumberToken& t);
    size_t size() const { return packed() ? packed_.size() : tokens_.size(); }
    bool empty() const { return size() == 0; }
    // Whether the values are still held in 8 bytes each.
    bool packed() const { return tokens_.empty(); }
    NumberToken operator[](size_t i) const { return packed() ? unpack(packed_[i]) : tokens_[i]; }
    // Calls f(const NumberToken&) for each value, in order.
    template <class F>
    void for_each(F&& f) const {
        if (packed()) {
            for (uint64_t p : packed_) f(unpack(p));
        } else {
            for (const NumberToken& t : tokens_) f(t);
        }
    }
    // Frees the values' memory.
    void release();

private:
    // Bit 63 the sign, bits 53 to 62 the exponent plus 512, bits 0 to 52
    // the significand.
    static constexpr int kSignificandBits = 53;
    static constexpr int64_t kExponentBias = 512;
    static bool fits(const NumberToken& t);
    static uint64_t pack(const NumberToken& t);
    static NumberToken unpack(uint64_t p) {
        NumberToken t;
        t.status = TokenStatus::decimal;
        t.negative = (p >> 63) != 0;
        t.significand = p & ((uint64_t{1} << kSignificandBits) - 1);
        t.exponent = static_cast<int32_t>(static_cast<int64_t>((p >> kSignificandBits) & 0x3ff) - kExponentBias);
        return t;
    }
    void to_tokens();

    std::vector<uint64_t> packed_;
    std::vector<NumberToken> tokens_;  // once a value did not fit; then packed_ is empty
    size_t reserved_ = 0;
};

}  // namespace gfxstat::data
