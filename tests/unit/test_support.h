// SPDX-License-Identifier: MIT
// Shared helpers for unit tests: reference data and samples built through
// the same decimal path the command line uses.
#pragma once

#include <charconv>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/number_token.h"
#include "data/sample.h"

namespace gfxstat::test {

inline std::string source_path(const std::string& rel) {
    return std::string(GFXSTAT_SOURCE_DIR) + "/" + rel;
}

// tests/data/reference_cases.json: values computed by R 4.2.2 and scipy.
inline const nlohmann::json& reference_cases() {
    static const nlohmann::json j = [] {
        std::ifstream in(source_path("tests/data/reference_cases.json"));
        return nlohmann::json::parse(in);
    }();
    return j;
}

// The shortest decimal that reads back as v: the text R wrote.
inline std::string shortest(double v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

inline data::Sample sample_from_tokens(const std::vector<std::string>& tokens) {
    data::SampleBuilder b;
    for (const auto& t : tokens) b.add(data::parse_number_token(t));
    return std::move(b).finish("test");
}

inline data::Sample sample_from_doubles(const std::vector<double>& values) {
    std::vector<std::string> tokens;
    for (double v : values) tokens.push_back(shortest(v));
    return sample_from_tokens(tokens);
}

inline std::vector<double> doubles(const nlohmann::json& array) {
    return array.get<std::vector<double>>();
}

// Log relative error, as NIST defines it: digits of agreement.
inline double lre(double x, double certified) {
    if (x == certified) return 17;
    if (certified == 0) return -std::log10(std::abs(x));
    return -std::log10(std::abs(x - certified) / std::abs(certified));
}

}  // namespace gfxstat::test
