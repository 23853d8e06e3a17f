// SPDX-License-Identifier: MIT
#include "data/packed_tokens.h"

#include <algorithm>

namespace gfxstat::data {

bool PackedTokens::fits(const NumberToken& t) {
    return t.status == TokenStatus::decimal && t.significand < (uint64_t{1} << kSignificandBits) &&
           t.exponent >= -kExponentBias && t.exponent < kExponentBias;
}

uint64_t PackedTokens::pack(const NumberToken& t) {
    return (uint64_t{t.negative} << 63) |
           (static_cast<uint64_t>(int64_t{t.exponent} + kExponentBias) << kSignificandBits) | t.significand;
}

void PackedTokens::reserve(size_t n) {
    reserved_ = std::max(reserved_, n);
    if (packed()) packed_.reserve(n);
    else tokens_.reserve(n);
}

void PackedTokens::push_back(const NumberToken& t) {
    if (packed() && fits(t)) {
        packed_.push_back(pack(t));
        return;
    }
    if (packed()) to_tokens();
    tokens_.push_back(t);
}

// Once, at the first value that does not fit: the tokens get the room the
// caller reserved, so that the rest are not copied through growing buffers.
void PackedTokens::to_tokens() {
    tokens_.reserve(std::max(reserved_, packed_.size() + 1));
    for (uint64_t p : packed_) tokens_.push_back(unpack(p));
    std::vector<uint64_t>().swap(packed_);
}

void PackedTokens::release() {
    std::vector<uint64_t>().swap(packed_);
    std::vector<NumberToken>().swap(tokens_);
    reserved_ = 0;
}

}  // namespace gfxstat::data
