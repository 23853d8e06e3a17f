// SPDX-License-Identifier: MIT
// The document is built through nlohmann's SAX interface rather than by
// json::parse, because only the SAX events show what json::parse loses: a
// number's text as written (number_float's second argument) and every
// member name as it arrives, before a second one with the same name
// overwrites the first.
#include "formats/json_document.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

#include "data/input_error.h"
#include "data/number_token.h"

namespace gfxstat::formats {

namespace {

using nlohmann::json;
using data::input_error;
using data::quote_token;

// An input iterator over the text that records how far nlohmann's lexer
// has read: its SAX events carry no position, and the line of a refused
// value is found from where the lexer stood when it reported the value.
class TrackingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackingIterator(const char* at, const char** furthest) : at_(at), furthest_(furthest) {}
    reference operator*() const { return *at_; }
    TrackingIterator& operator++() {
        ++at_;
        if (at_ > *furthest_) *furthest_ = at_;
        return *this;
    }
    TrackingIterator operator++(int) {
        TrackingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackingIterator& other) const { return at_ == other.at_; }
    bool operator!=(const TrackingIterator& other) const { return at_ != other.at_; }

private:
    const char* at_;
    const char** furthest_;
};

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
    // nlohmann quotes the token it stopped at whole ("last read: '...'"): a
    // 4 MiB string would make a 4 MiB message. A message is one readable
    // line, so the quote is cut, at a UTF-8 character boundary.
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

// nlohmann's out_of_range error for a number beyond the double range.
constexpr int kNumberOverflow = 406;

// A SAX handler that builds the document as json::parse would, and throws
// InputError where json::parse would have resolved something silently.
class DocumentBuilder {
public:
    DocumentBuilder(const std::string& path, std::string_view text, const char* const* furthest)
        : path_(path), text_(text), furthest_(furthest) {}

    json take() { return std::move(root_); }

    bool null() { return put(nullptr); }
    bool boolean(bool v) { return put(v); }
    bool number_integer(json::number_integer_t v) { return put(v); }
    bool number_unsigned(json::number_unsigned_t v) { return put(v); }
    bool number_float(json::number_float_t v, const std::string& token) {
        // The lexer has turned the token into a double with strtod, which
        // gives 0 for 1e-400 as it does for 0.0; the token tells them apart
        // with the rule every reader of numbers in gfxstat applies.
        const data::NumberToken t = data::parse_number_token(token);
        if (t.status == data::TokenStatus::underflow) refuse_number(token, t.status);
        return put(v);
    }
    bool string(json::string_t& v) { return put(std::move(v)); }
    bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }  // not in JSON text

    bool start_object(size_t) { return open(json::object()); }
    bool key(json::string_t& name) {
        Frame& f = frames_.back();
        if (f.container->contains(name)) {
            // The lexer has just read the name's closing quote.
            throw input_error(path_, line_at(consumed() - 1),
                              where(true) + ": member " + quote_token(name) +
                                  " appears twice (which one counts is not defined)");
        }
        f.key = std::move(name);
        return true;
    }
    bool end_object() { return close(); }
    bool start_array(size_t) { return open(json::array()); }
    bool end_array() { return close(); }

    bool parse_error(size_t byte, const std::string& last_token, const json::exception& e) {
        if (e.id == kNumberOverflow) refuse_number(last_token, data::TokenStatus::out_of_range);
        // `byte` counts from 1 and is the byte that could not be read; one
        // past the text at end of input, where the last line is the one to
        // name rather than the empty one after its newline.
        size_t end = std::min(byte > 0 ? byte - 1 : 0, text_.size());
        if (end == text_.size() && end > 0 && text_[end - 1] == '\n') --end;
        throw input_error(path_, line_at(end), "invalid JSON: " + json_message(e));
    }

private:
    // An open object or array, and, in an object, the name of the member
    // whose value comes next.
    struct Frame {
        json* container;
        std::string key;
    };

    template <typename Value>
    bool put(Value&& v) {
        slot() = std::forward<Value>(v);
        return true;
    }
    bool open(json&& empty) {
        json& s = slot();
        s = std::move(empty);
        // A container's address is stable while it is open: only its own
        // last member, or a value inside that, changes until it is closed.
        frames_.push_back(Frame{&s, {}});
        return true;
    }
    bool close() {
        frames_.pop_back();
        return true;
    }
    // Where the next value goes.
    json& slot() {
        if (frames_.empty()) return root_;
        Frame& f = frames_.back();
        if (f.container->is_array()) {
            f.container->push_back(nullptr);
            return f.container->back();
        }
        return (*f.container)[f.key];
    }

    // The JSON path of the value being read ("results[0].times[2]"), or,
    // with `of_container`, of the innermost open object or array; "top
    // level" for the document itself, as the importers' messages say.
    std::string where(bool of_container) const {
        std::string out;
        const size_t n = of_container ? frames_.size() - 1 : frames_.size();
        for (size_t i = 0; i < n; ++i) {
            const Frame& f = frames_[i];
            if (f.container->is_array()) {
                // An array holds an open child as its last element already;
                // the value being read is not in it yet.
                const bool child_open = i + 1 < frames_.size();
                out += "[" + std::to_string(f.container->size() - (child_open ? 1 : 0)) + "]";
            } else {
                if (!out.empty()) out += '.';
                out += f.key;
            }
        }
        return out.empty() ? "top level" : out;
    }

    [[noreturn]] void refuse_number(const std::string& token, data::TokenStatus status) const {
        // The lexer has read the number and the byte after it; the token
        // ends at or just before where it stopped.
        const size_t stop = consumed();
        size_t start = stop >= token.size() ? text_.rfind(token, stop - token.size()) : std::string_view::npos;
        if (start == std::string_view::npos) start = stop;
        throw input_error(path_, line_at(start),
                          where(false) + ": " + quote_token(token) + " is " + data::describe(status));
    }

    size_t consumed() const { return static_cast<size_t>(*furthest_ - text_.data()); }
    size_t line_at(size_t offset) const {
        const std::string_view before = text_.substr(0, std::min(offset, text_.size()));
        return 1 + static_cast<size_t>(std::count(before.begin(), before.end(), '\n'));
    }

    const std::string& path_;
    std::string_view text_;
    const char* const* furthest_;
    json root_;
    std::vector<Frame> frames_;
};

}  // namespace

json parse_json_file(const std::string& path, std::string_view text) {
    const char* furthest = text.data();
    DocumentBuilder builder(path, text, &furthest);
    json::sax_parse(TrackingIterator(text.data(), &furthest), TrackingIterator(text.data() + text.size(), &furthest),
                    &builder);
    return builder.take();
}

}  // namespace gfxstat::formats
