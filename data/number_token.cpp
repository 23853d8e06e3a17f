// SPDX-License-Identifier: MIT
#include "data/number_token.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "analysis/scaled_values.h"

namespace gfxstat::data {

namespace {

bool is_space(char c) {  // isspace() in the C locale, as strtod uses
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view s, std::string_view word) {
    if (s.size() != word.size()) return false;
    for (size_t i = 0; i < s.size(); ++i)
        if (lower(s[i]) != word[i]) return false;
    return true;
}

// The mantissa of a hex float (what follows "0x", before any 'p') has a
// digit other than 0.
bool has_nonzero_hex_digit(std::string_view s) {
    for (char c : s) {
        if (c == 'p' || c == 'P') break;
        if (is_hex(c) && c != '0') return true;
    }
    return false;
}

// strtod also accepts "inf", "infinity", "nan" and "nan(chars)".
bool is_non_finite_word(std::string_view s) {
    if (iequals(s, "inf") || iequals(s, "infinity") || iequals(s, "nan")) return true;
    if (s.size() >= 5 && iequals(s.substr(0, 4), "nan(") && s.back() == ')') {
        for (char c : s.substr(4, s.size() - 5))
            if (!(is_digit(c) || (lower(c) >= 'a' && lower(c) <= 'z') || c == '_')) return false;
        return true;
    }
    return false;
}

NumberToken parse_hex(std::string_view s, bool negative) {
    // s is what follows "0x": hex digits, optional point, optional p-exponent.
    NumberToken t;
    size_t i = 0, mantissa_digits = 0;
    while (i < s.size() && is_hex(s[i])) ++i, ++mantissa_digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && is_hex(s[i])) ++i, ++mantissa_digits;
    }
    if (mantissa_digits == 0) return t;  // "0x" alone: strtod stops after "0"
    i = exponent_end(s, i, 'p');
    if (i != s.size()) return t;
    double v = 0;
    auto res = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::hex);
    if (res.ec == std::errc::result_out_of_range) {
        // Overflow or underflow: strtod (C locale) tells them apart, giving
        // HUGE_VAL for the one and 0 or a subnormal for the other.
        const std::string copy = "0x" + std::string(s);
        v = std::strtod(copy.c_str(), nullptr);
        if (std::isinf(v)) {
            t.status = TokenStatus::out_of_range;
            return t;
        }
    } else if (res.ec != std::errc() || res.ptr != s.data() + s.size()) {
        return t;
    }
    if (v == 0 && has_nonzero_hex_digit(s)) {  // a value that would silently become 0
        t.status = TokenStatus::underflow;
        return t;
    }
    t.status = TokenStatus::binary;
    t.negative = negative;
    t.value = negative ? -v : v;
    return t;
}

}  // namespace

size_t exponent_end(std::string_view s, size_t i, char marker) {
    if (i >= s.size() || lower(s[i]) != marker) return i;
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j >= s.size() || !is_digit(s[j])) return i;
    while (j < s.size() && is_digit(s[j])) ++j;
    return j;
}

NumberToken parse_number_token(std::string_view text) {
    NumberToken t;
    size_t i = 0;
    while (i < text.size() && is_space(text[i])) ++i;
    std::string_view s = text.substr(i);
    i = 0;
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    if (i + 1 < s.size() && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
        return parse_hex(s.substr(i + 2), negative);
    if (i < s.size() && !is_digit(s[i]) && s[i] != '.') {
        if (is_non_finite_word(s.substr(i))) t.status = TokenStatus::not_finite;
        return t;
    }

    // Decimal: digits [ '.' digits ] [ e [sign] digits ]
    uint64_t sig = 0;
    int sig_digits = 0;      // significant digits kept in `sig`
    int64_t exp_adjust = 0;  // power of ten carried by dropped/fraction digits
    bool any_digit = false, dropped_nonzero = false;
    auto take = [&](char c, bool fraction) {
        any_digit = true;
        if (sig_digits == 0 && c == '0') {  // leading zero
            if (fraction) --exp_adjust;
            return;
        }
        if (sig_digits < 18) {
            sig = sig * 10 + static_cast<uint64_t>(c - '0');
            ++sig_digits;
            if (fraction) --exp_adjust;
        } else {
            if (c != '0') dropped_nonzero = true;
            if (!fraction) ++exp_adjust;
        }
    };
    while (i < s.size() && is_digit(s[i])) take(s[i++], false);
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && is_digit(s[i])) take(s[i++], true);
    }
    if (!any_digit) return t;
    int64_t exp10 = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        bool eneg = false;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) eneg = s[j++] == '-';
        if (j < s.size() && is_digit(s[j])) {
            while (j < s.size() && is_digit(s[j])) {
                if (exp10 < 100000000) exp10 = exp10 * 10 + (s[j] - '0');
                ++j;
            }
            if (eneg) exp10 = -exp10;
            i = j;
        }
    }
    if (i != s.size()) return t;  // trailing characters: strtod would stop early

    const int64_t exponent = exp10 + exp_adjust;
    t.negative = negative;
    if (sig == 0) {  // zero, whatever the exponent
        t.status = TokenStatus::decimal;  // significand 0; `negative` keeps "-0"
        return t;
    }
    // Magnitude is in [10^(digits-1+exponent), 10^(digits+exponent)).
    if (sig_digits - 1 + exponent > 308) {
        t.status = TokenStatus::out_of_range;
        return t;
    }
    if (dropped_nonzero || exponent < -400) {
        // Not exact as a 19-digit decimal: keep the correctly rounded double.
        double v = 0;
        const size_t start = (s[0] == '+' || s[0] == '-') ? 1 : 0;
        std::string clean(s.substr(start, i - start));
        auto res = std::from_chars(clean.data(), clean.data() + clean.size(), v);
        if (res.ec == std::errc::result_out_of_range) {
            // Overflow, or a subnormal or zero result: strtod (C locale)
            // gives the value itself.
            v = std::strtod(clean.c_str(), nullptr);
            if (std::isinf(v)) {
                t.status = TokenStatus::out_of_range;
                return t;
            }
        }
        if (v == 0) {
            // Not zero as written (sig != 0), but it would be stored as 0: a
            // sample of such values has no spread, and the statistics would lie.
            t.status = TokenStatus::underflow;
            return t;
        }
        t.status = TokenStatus::binary;
        t.value = negative ? -v : v;
        return t;
    }
    t.significand = sig;
    t.exponent = static_cast<int32_t>(exponent);
    t.status = TokenStatus::decimal;
    if (sig_digits + exponent <= -322) {  // below 10^-322, near the smallest subnormal: check
        const int64_t m = static_cast<int64_t>(sig);
        if (analysis::decimal_to_double(m, t.exponent) == 0) t.status = TokenStatus::underflow;
    }
    if (sig_digits + exponent >= 309) {  // within a factor 10 of DBL_MAX: check
        const int64_t m = negative ? -static_cast<int64_t>(sig) : static_cast<int64_t>(sig);
        if (!std::isfinite(analysis::decimal_to_double(m, t.exponent)))
            t.status = TokenStatus::out_of_range;
    }
    return t;
}

const char* describe(TokenStatus status) {
    switch (status) {
        case TokenStatus::decimal:
        case TokenStatus::binary: return "a number";
        case TokenStatus::malformed: return "not a number";
        case TokenStatus::not_finite: return "not a finite number";
        case TokenStatus::out_of_range: return "beyond the range of a double";
        case TokenStatus::underflow: return "too close to 0 for a double (it would be stored as 0)";
    }
    return "?";
}

}  // namespace gfxstat::data
