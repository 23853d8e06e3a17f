// SPDX-License-Identifier: MIT
#include "data/volatile_facts.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

namespace gfxstat::data {

namespace {

// The part of a GPU field after its device prefix ("gpu", "gpu1", ...):
// "act_freq_mhz" for "gpu1_act_freq_mhz"; "" when `field` has none.
std::string_view gpu_member(std::string_view field) {
    if (!field.starts_with("gpu")) return {};
    size_t i = 3;
    while (i < field.size() && std::isdigit(static_cast<unsigned char>(field[i]))) ++i;
    if (i >= field.size() || field[i] != '_') return {};
    return field.substr(i + 1);
}

}  // namespace

bool is_volatile_field(std::string_view field) {
    if (field == "load_average") return true;
    if (field.starts_with("temp_") && field.size() > 5) return true;
    const std::string_view m = gpu_member(field);
    return m == "cur_freq_mhz" || m == "act_freq_mhz" || m == "sclk_mhz" || m == "throttle";
}

std::optional<double> volatile_reading(std::string_view field, std::string_view value) {
    if (!is_volatile_field(field)) return std::nullopt;
    if (gpu_member(field) == "throttle") {
        if (value.empty()) return std::nullopt;
        return value == "none" ? 0.0 : 1.0;
    }
    // load_average holds three figures: strtod stops after the first.
    const std::string text(value);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !std::isfinite(v)) return std::nullopt;
    return v;
}

}  // namespace gfxstat::data
