// SPDX-License-Identifier: MIT
// A strict pull parser for one JSON text (RFC 8259) held in memory, used to
// read results-file records. It exists because general JSON parsers turn
// every number into a double: gfxstat keeps numbers as the exact decimals
// they were written as (the same tokens a column file holds), and reads a
// million-value array at the speed of a column file. Strings containing
// escapes or non-ASCII bytes are decoded and validated by nlohmann_json, so
// Unicode handling is not written here.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gfxstat::data {

// Malformed JSON; `offset` is the byte offset into the text.
class JsonSyntaxError : public std::runtime_error {
public:
    JsonSyntaxError(size_t offset, const std::string& what)
        : std::runtime_error(what), offset(offset) {}
    size_t offset;
};

enum class JsonKind { null, boolean, number, string, array, object };

class JsonCursor {
public:
    explicit JsonCursor(std::string_view text) : text_(text) {}

    // The kind of the next value (after white space). Throws at end of text
    // or on a byte that cannot start a value.
    JsonKind peek() {
        skip_space();
        if (pos_ < text_.size()) {
            switch (text_[pos_]) {
                case '"': return JsonKind::string;
                case '[': return JsonKind::array;
                case '{': return JsonKind::object;
                default: break;
            }
            if (text_[pos_] == '-' || (text_[pos_] >= '0' && text_[pos_] <= '9')) return JsonKind::number;
        }
        return peek_slow();
    }

    // Objects: begin_object(), then next_key() until it returns false.
    void begin_object();
    bool next_key(std::string& key);  // reads the key and the ':'
    // Arrays: begin_array(), then next_item() until it returns false.
    void begin_array();
    bool next_item() {
        skip_space();
        if (leave_at(']')) return false;
        if (pos_ < text_.size() && text_[pos_] == ',' && !first_) {
            ++pos_;
            return true;
        }
        return next_item_slow();
    }

    std::string string_value();
    // The number's text exactly as written (validated against the grammar).
    std::string_view number_token();
    bool boolean_value();
    void null_value();
    // Skips one value of any kind, validating it; returns its text.
    std::string_view skip_value();
    // Only white space may follow.
    void expect_end();

    size_t offset() const { return pos_; }
    // The text not read yet (for size hints).
    std::string_view rest() const { return text_.substr(pos_); }
    const char* describe_next();  // "a string", "end of line", ... for messages

private:
    [[noreturn]] void fail(const std::string& what) const;
    void skip_space() {
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
            ++pos_;
        }
    }
    // At `closer` ('}' or ']'): steps over it and out of the object or
    // array, for next_key and next_item.
    bool leave_at(char closer) {
        if (pos_ >= text_.size() || text_[pos_] != closer) return false;
        ++pos_;
        --depth_;
        first_ = false;
        return true;
    }
    JsonKind peek_slow();
    // The first item, or what is neither ',' nor ']' (an error).
    bool next_item_slow();
    void expect(char c, const char* what);
    std::string_view scan_string();  // raw token including quotes

    std::string_view text_;
    size_t pos_ = 0;
    // For next_key/next_item: true right after '{' or '['.
    bool first_ = false;
    int depth_ = 0;
};

const char* json_kind_name(JsonKind kind);

}  // namespace gfxstat::data
