// SPDX-License-Identifier: MIT
// Numbers as report text, one place for each way a report writes them, so
// that the same number reads the same in every output. Each function is
// printf's (or to_chars') text to the byte: a report's output is compared
// byte for byte (tests/golden/), so a new way of writing a number is a new
// function here, not a change to one in use.
#pragma once

#include <string>

namespace gfxstat::text {

// "%.*g": `digits` significant digits ("0.0123", "1.5e+06", "nan", "inf").
std::string number_g(double v, int digits);

// "%+.*g": the same with its sign always ("+3.2", "-0.5").
std::string signed_number_g(double v, int digits);

// The shortest text that reads back as the same double (std::to_chars):
// for machine-read outputs (OpenMetrics, JSON-like values).
std::string shortest_number(double v);

// "%g%%" of a fraction: 0.95 -> "95%" (a confidence level).
std::string percent_g(double fraction);

// "%+.*g%%" of a fraction: 0.032 -> "+3.2%" (3 digits); no special case
// for what is not finite ("+inf%", "nan%").
std::string signed_percent(double fraction, int digits = 3);

// signed_percent with 3 digits, where what is not finite reads as words:
// "n/a" for NaN (no estimate), "+inf"/"-inf" for an infinite change.
std::string signed_percent_or_words(double fraction);

// Four significant digits without an exponent between 0.001 and 1e6
// ("0.1235", "12.35", "123456"), "%.4g" outside, "n/a" where not finite:
// a value in a history line, where an exponent would hide the trend.
std::string readable_number(double v);

}  // namespace gfxstat::text
