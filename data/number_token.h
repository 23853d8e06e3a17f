// SPDX-License-Identifier: MIT
// Parses one token of a column file into an exact decimal (or, where the
// token cannot be held exactly, the correctly rounded double), accepting
// exactly the tokens that strtod consumes entirely -- minus the ones that are
// not finite numbers, which ministat silently turns into garbage.
#pragma once

#include <cstdint>
#include <string_view>

namespace gfxstat::data {

enum class TokenStatus : uint8_t {
    decimal,      // exact: (negative ? -1 : 1) * significand * 10^exponent
    binary,       // a double only: hexadecimal float, or more than 18 significant digits
    malformed,    // not a number (or trailing garbage)
    not_finite,   // inf, infinity, nan, nan(...)
    out_of_range,  // finite as written, but beyond the double range (1e400)
    underflow      // not zero as written, but closer to 0 than any double (1e-400)
};

// 16 bytes: a run's values are held as tokens until they are on disk
// (docs/run.md, "Memory"), fifty million of them for 100 MB of one-digit
// lines. A token is decimal or binary, never both, so the significand and
// the double share their 8 bytes; `status` says which one holds: read
// `significand` only when it is decimal (decimal_significand() does), and
// `value` only when it is binary.
struct NumberToken {
    union {
        uint64_t significand = 0;  // decimal: at most 18 decimal digits, fits int64
        double value;              // binary only: the correctly rounded double
    };
    int32_t exponent = 0;
    TokenStatus status = TokenStatus::malformed;
    bool negative = false;
};
static_assert(sizeof(NumberToken) == 16, "a token is held per value; keep it small");

// The significand of a decimal token, 0 for any other: whether a parsed
// number is an exact zero ("0 fps", no frame), what the separate field held
// before it shared its bytes with the binary double.
inline uint64_t decimal_significand(const NumberToken& t) {
    return t.status == TokenStatus::decimal ? t.significand : 0;
}

// `text` is one token; leading white space is skipped as strtod does.
NumberToken parse_number_token(std::string_view text);

// Where an exponent starting at s[i] ends: `marker` ('e' or 'p', either
// case), an optional sign, then at least one digit. i when there is none.
size_t exponent_end(std::string_view s, size_t i, char marker);

// A short reason for a rejected token, for error messages.
const char* describe(TokenStatus status);

}  // namespace gfxstat::data
