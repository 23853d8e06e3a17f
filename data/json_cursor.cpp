// SPDX-License-Identifier: MIT
#include "data/json_cursor.h"

#include <nlohmann/json.hpp>

namespace gfxstat::data {

namespace {

constexpr int kMaxDepth = 64;  // records are shallow; this bounds recursion

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

const char* json_kind_name(JsonKind kind) {
    switch (kind) {
        case JsonKind::null: return "null";
        case JsonKind::boolean: return "true or false";
        case JsonKind::number: return "a number";
        case JsonKind::string: return "a string";
        case JsonKind::array: return "an array";
        case JsonKind::object: return "an object";
    }
    return "?";
}

void JsonCursor::fail(const std::string& what) const { throw JsonSyntaxError(pos_, what); }

const char* JsonCursor::describe_next() {
    skip_space();
    if (pos_ >= text_.size()) return "the end of the record";
    switch (text_[pos_]) {
        case '{': return "an object";
        case '[': return "an array";
        case '"': return "a string";
        case 't':
        case 'f': return "true or false";
        case 'n': return "null";
        default: return (text_[pos_] == '-' || is_digit(text_[pos_])) ? "a number" : "a stray byte";
    }
}

JsonKind JsonCursor::peek_slow() {
    skip_space();
    if (pos_ >= text_.size()) fail("expected a value, found the end of the record");
    switch (text_[pos_]) {
        case '{': return JsonKind::object;
        case '[': return JsonKind::array;
        case '"': return JsonKind::string;
        case 't':
        case 'f': return JsonKind::boolean;
        case 'n': return JsonKind::null;
        default:
            if (text_[pos_] == '-' || is_digit(text_[pos_])) return JsonKind::number;
            fail("expected a value, found a stray byte");
    }
}

void JsonCursor::expect(char c, const char* what) {
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] != c)
        fail(std::string("expected ") + what + ", found " + describe_next());
    ++pos_;
}

void JsonCursor::begin_object() {
    expect('{', "an object");
    if (++depth_ > kMaxDepth) fail("nested too deeply");
    first_ = true;
}

bool JsonCursor::next_key(std::string& key) {
    skip_space();
    // A '}' after ',' never gets here: the ',' branch demands a name.
    if (leave_at('}')) return false;
    if (!first_) expect(',', "',' or '}'");
    first_ = false;
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] != '"')
        fail(std::string("expected a member name in quotes, found ") + describe_next());
    key = string_value();
    expect(':', "':'");
    return true;
}

void JsonCursor::begin_array() {
    expect('[', "an array");
    if (++depth_ > kMaxDepth) fail("nested too deeply");
    first_ = true;
}

bool JsonCursor::next_item_slow() {
    // next_item has skipped the white space and handled ']'.
    if (!first_) expect(',', "',' or ']'");
    first_ = false;
    return true;
}

std::string_view JsonCursor::scan_string() {
    const size_t start = pos_;
    ++pos_;  // opening quote
    while (pos_ < text_.size()) {
        const unsigned char c = static_cast<unsigned char>(text_[pos_]);
        if (c == '"') {
            ++pos_;
            return text_.substr(start, pos_ - start);
        }
        if (c == '\\') {
            pos_ += 2;
            continue;
        }
        if (c < 0x20) fail("control character in a string (must be escaped)");
        ++pos_;
    }
    pos_ = text_.size();
    fail("string not closed before the end of the record");
}

std::string JsonCursor::string_value() {
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] != '"')
        fail(std::string("expected a string, found ") + describe_next());
    const size_t start = pos_;
    const std::string_view raw = scan_string();
    bool plain = true;
    for (char c : raw) plain &= (c != '\\' && static_cast<unsigned char>(c) < 0x80);
    if (plain) return std::string(raw.substr(1, raw.size() - 2));
    // Escapes and UTF-8: nlohmann validates and decodes them.
    try {
        return nlohmann::json::parse(raw).get<std::string>();
    } catch (const nlohmann::json::exception&) {
        pos_ = start;
        fail("invalid escape or UTF-8 in a string");
    }
}

std::string_view JsonCursor::number_token() {
    skip_space();
    const size_t start = pos_;
    const auto digits = [&] {
        const size_t from = pos_;
        while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
        return pos_ - from;
    };
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '0') {
        ++pos_;
        if (pos_ < text_.size() && is_digit(text_[pos_])) fail("a number may not start with 0");
    } else if (digits() == 0) {
        pos_ = start;
        fail(std::string("expected a number, found ") + describe_next());
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
        ++pos_;
        if (digits() == 0) fail("expected digits after the decimal point");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
        ++pos_;
        if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
        if (digits() == 0) fail("expected digits in the exponent");
    }
    return text_.substr(start, pos_ - start);
}

bool JsonCursor::boolean_value() {
    skip_space();
    if (text_.substr(pos_, 4) == "true") {
        pos_ += 4;
        return true;
    }
    if (text_.substr(pos_, 5) == "false") {
        pos_ += 5;
        return false;
    }
    fail(std::string("expected true or false, found ") + describe_next());
}

void JsonCursor::null_value() {
    skip_space();
    if (text_.substr(pos_, 4) != "null") fail(std::string("expected null, found ") + describe_next());
    pos_ += 4;
}

std::string_view JsonCursor::skip_value() {
    skip_space();
    const size_t start = pos_;
    switch (peek()) {
        case JsonKind::null: null_value(); break;
        case JsonKind::boolean: boolean_value(); break;
        case JsonKind::number: number_token(); break;
        case JsonKind::string: string_value(); break;
        case JsonKind::array:
            begin_array();
            while (next_item()) skip_value();
            break;
        case JsonKind::object: {
            begin_object();
            std::string key;
            while (next_key(key)) skip_value();
            break;
        }
    }
    return text_.substr(start, pos_ - start);
}

void JsonCursor::expect_end() {
    skip_space();
    if (pos_ != text_.size()) fail(std::string("expected the end of the record, found ") + describe_next());
}

}  // namespace gfxstat::data
