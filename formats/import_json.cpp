// SPDX-License-Identifier: MIT
#include "formats/import_json.h"

#include <algorithm>
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

namespace {

// nlohmann's message without its "[json.exception...] parse error at line
// L, column C: " prefix: the line is given the way every importer gives it.
std::string json_message(const json::exception& e) {
    std::string_view m = e.what();
    const size_t tag = m.find("] ");
    if (tag != std::string_view::npos) m.remove_prefix(tag + 2);
    if (m.starts_with("parse error")) {
        const size_t colon = m.find(": ");
        if (colon != std::string_view::npos) m.remove_prefix(colon + 2);
    }
    // nlohmann quotes the token it stopped at whole ("last read: '...'",
    // "number overflow parsing '...'"): a 4 MiB number would make a 4 MiB
    // message. A message is one readable line, so the quote is cut, at a
    // UTF-8 character boundary.
    constexpr size_t kMax = 200;
    std::string out(m);
    if (out.size() > kMax) {
        out.resize(kMax);
        while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
        if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
        out += "...";
    }
    return out;
}

}  // namespace

json parse_json_file(const std::string& path, std::string_view text) {
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // e.byte counts from 1 and is the byte that could not be read; one
        // past the text at end of input, where the last line is the one to
        // name rather than the empty one after its newline.
        size_t end = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
        if (end == text.size() && end > 0 && text[end - 1] == '\n') --end;
        const std::string_view before(text.data(), end);
        const size_t line = 1 + static_cast<size_t>(std::count(before.begin(), before.end(), '\n'));
        throw input_error(path, line, "invalid JSON: " + json_message(e));
    } catch (const json::exception& e) {
        // A number beyond the double range ("number overflow parsing '1e400'",
        // which names the token); nlohmann gives no position for it.
        throw input_error(path, 0, "invalid JSON: " + json_message(e));
    }
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
    // nlohmann refuses non-finite numbers already; kept as a guard.
    if (t.status != TokenStatus::decimal && t.status != TokenStatus::binary)
        throw input_error(path, 0, where + ": " + describe(t.status));
    return t;
}

}  // namespace gfxstat::formats
