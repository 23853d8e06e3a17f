// SPDX-License-Identifier: MIT
#include "formats/import_json.h"

#include <charconv>
#include <nlohmann/json.hpp>

#include "data/input_error.h"

namespace gfxstat::formats {

// The number tokens and input errors these helpers make.
using namespace gfxstat::data;

using nlohmann::json;

const char* json_kind(const json& v) {
    switch (v.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return "a boolean";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: return "a number";
        case json::value_t::string: return "a string";
        case json::value_t::array: return "an array";
        case json::value_t::object: return "an object";
        default: return "a value";
    }
}

void json_expected(const std::string& path, const std::string& where, const std::string& what,
                   const json& found) {
    throw input_error(path, 0, where + ": expected " + what + ", found " + json_kind(found));
}

const json& json_top_array(const std::string& path, const json& doc, const std::string& tool,
                           const std::string& key, const std::string& hint) {
    if (!doc.is_object()) json_expected(path, "top level", "an object (" + tool + ")", doc);
    const auto found = doc.find(key);
    if (found == doc.end()) throw input_error(path, 0, key + ": missing (" + hint + ")");
    if (!found->is_array()) json_expected(path, key, "an array", *found);
    return *found;
}

std::string json_number_text(const std::string& path, const std::string& where, const json& v) {
    char buf[64];
    std::to_chars_result r{};
    if (v.is_number_unsigned()) r = std::to_chars(buf, buf + sizeof buf, v.get<uint64_t>());
    else if (v.is_number_integer()) r = std::to_chars(buf, buf + sizeof buf, v.get<int64_t>());
    else if (v.is_number_float()) r = std::to_chars(buf, buf + sizeof buf, v.get<double>());
    else json_expected(path, where, "a number", v);
    return std::string(buf, r.ptr);
}

data::NumberToken json_number(const std::string& path, const std::string& where, const json& v) {
    const NumberToken t = parse_number_token(json_number_text(path, where, v));
    // parse_json_file refuses numbers beyond the double range and those
    // that underflow to 0 already; kept as a guard.
    if (t.status != TokenStatus::decimal && t.status != TokenStatus::binary)
        throw input_error(path, 0, where + ": " + describe(t.status));
    return t;
}

}  // namespace gfxstat::formats
