// SPDX-License-Identifier: MIT
// What the parser tests share: fixtures read whole, tokens printed as the
// exact decimals they hold, and a parsed metric found by name.
#pragma once

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/number_token.h"
#include "formats/output_parser.h"

namespace gfxstat::test_support {

// The file `name` under the source tree's `dir` ("tests/fixtures/mesa").
inline std::string read_fixture(const std::string& dir, const std::string& name) {
    const std::string path = std::string(GFXSTAT_SOURCE_DIR) + "/" + dir + "/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("missing fixture " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A token as printed: the exact decimal with its trailing zeros ("2.400").
inline std::string token_text(const data::NumberToken& t) {
    if (t.status == data::TokenStatus::binary) {
        char buf[64];
        auto r = std::to_chars(buf, buf + sizeof buf, t.value);
        return "binary " + std::string(buf, r.ptr);
    }
    if (t.status != data::TokenStatus::decimal) return std::string("rejected: ") + data::describe(t.status);
    std::string d = std::to_string(t.significand);
    std::string s;
    if (t.exponent >= 0) {
        s = d + std::string(static_cast<size_t>(t.exponent), '0');
    } else {
        const size_t frac = static_cast<size_t>(-t.exponent);
        if (d.size() <= frac) d = std::string(frac - d.size() + 1, '0') + d;
        s = d.substr(0, d.size() - frac) + "." + d.substr(d.size() - frac);
    }
    return (t.negative ? "-" : "") + s;
}

inline const formats::ParsedMetric* find_metric(const formats::ParseResult& r, const std::string& name) {
    for (const formats::ParsedMetric& m : r.metrics)
        if (m.name == name) return &m;
    return nullptr;
}

}  // namespace gfxstat::test_support
