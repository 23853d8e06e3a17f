// SPDX-License-Identifier: MIT
// A string of a run record that many runs repeat (the variant, the boot,
// the environment id) or that most runs lack (the exit reason, the origin,
// the design): one pointer, 8 bytes instead of std::string's 32, so that a
// million records in memory do not pay for 32-byte strings they share or
// leave empty. Copies share one immutable text (reference counted);
// empty is a null pointer and allocates nothing. It reads as a
// `const std::string&` and a `std::string_view`, compares and
// concatenates like one, so code written for std::string members reads
// it unchanged; it is assigned, never edited in place.
#pragma once

#include <atomic>
#include <compare>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>

namespace gfxstat::data {

class SharedString {
public:
    SharedString() noexcept = default;
    SharedString(const char* s) : SharedString(std::string(s)) {}
    explicit SharedString(std::string_view s) : SharedString(std::string(s)) {}
    explicit SharedString(std::string s) : text_(s.empty() ? nullptr : new Text{{1}, std::move(s)}) {}
    SharedString(const SharedString& o) noexcept : text_(o.text_) {
        if (text_) text_->refs.fetch_add(1, std::memory_order_relaxed);
    }
    SharedString(SharedString&& o) noexcept : text_(std::exchange(o.text_, nullptr)) {}
    ~SharedString() { release(); }

    SharedString& operator=(const SharedString& o) noexcept {
        SharedString copy(o);
        swap(copy);
        return *this;
    }
    SharedString& operator=(SharedString&& o) noexcept {
        SharedString moved(std::move(o));
        swap(moved);
        return *this;
    }
    SharedString& operator=(const char* s) { return *this = SharedString(s); }
    SharedString& operator=(std::string_view s) { return *this = SharedString(s); }
    SharedString& operator=(const std::string& s) { return *this = SharedString(s); }
    SharedString& operator=(std::string&& s) { return *this = SharedString(std::move(s)); }
    SharedString& operator+=(std::string_view s) { return *this = SharedString(str() + std::string(s)); }

    void swap(SharedString& o) noexcept { std::swap(text_, o.text_); }
    void clear() noexcept { SharedString().swap(*this); }
    // Whether both hold the very same text (not only equal ones).
    bool shares_with(const SharedString& o) const noexcept { return text_ == o.text_; }

    const std::string& str() const noexcept { return text_ ? text_->s : empty_string(); }
    std::string_view view() const noexcept { return str(); }
    operator const std::string&() const noexcept { return str(); }
    operator std::string_view() const noexcept { return view(); }

    bool empty() const noexcept { return text_ == nullptr; }
    size_t size() const noexcept { return str().size(); }
    size_t length() const noexcept { return str().size(); }
    const char* c_str() const noexcept { return str().c_str(); }
    const char* data() const noexcept { return str().data(); }
    std::string::const_iterator begin() const noexcept { return str().begin(); }
    std::string::const_iterator end() const noexcept { return str().end(); }
    char operator[](size_t i) const noexcept { return str()[i]; }
    char front() const noexcept { return str().front(); }
    char back() const noexcept { return str().back(); }
    std::string substr(size_t pos, size_t n = std::string::npos) const { return str().substr(pos, n); }
    size_t find(std::string_view s, size_t pos = 0) const noexcept { return view().find(s, pos); }
    size_t find(char c, size_t pos = 0) const noexcept { return view().find(c, pos); }
    size_t rfind(char c, size_t pos = std::string::npos) const noexcept { return view().rfind(c, pos); }
    bool starts_with(std::string_view s) const noexcept { return view().starts_with(s); }
    bool ends_with(std::string_view s) const noexcept { return view().ends_with(s); }
    int compare(std::string_view s) const noexcept { return view().compare(s); }

    friend bool operator==(const SharedString& a, const SharedString& b) noexcept {
        return a.text_ == b.text_ || a.view() == b.view();
    }
    friend bool operator==(const SharedString& a, std::string_view b) noexcept { return a.view() == b; }
    friend bool operator==(const SharedString& a, const char* b) noexcept { return a.view() == b; }
    friend bool operator==(const SharedString& a, const std::string& b) noexcept { return a.view() == b; }
    friend std::strong_ordering operator<=>(const SharedString& a, const SharedString& b) noexcept {
        return a.view().compare(b.view()) <=> 0;
    }
    friend std::strong_ordering operator<=>(const SharedString& a, std::string_view b) noexcept {
        return a.view().compare(b) <=> 0;
    }
    friend std::strong_ordering operator<=>(const SharedString& a, const char* b) noexcept {
        return a.view().compare(b) <=> 0;
    }
    friend std::strong_ordering operator<=>(const SharedString& a, const std::string& b) noexcept {
        return a.view().compare(b) <=> 0;
    }
    friend std::string operator+(const SharedString& a, std::string_view b) { return a.str() + std::string(b); }
    friend std::string operator+(const SharedString& a, const char* b) { return a.str() + b; }
    friend std::string operator+(const SharedString& a, const std::string& b) { return a.str() + b; }
    friend std::string operator+(const SharedString& a, char b) { return a.str() + b; }
    friend std::string operator+(std::string_view a, const SharedString& b) { return std::string(a) + b.str(); }
    friend std::string operator+(const char* a, const SharedString& b) { return a + b.str(); }
    friend std::string operator+(const std::string& a, const SharedString& b) { return a + b.str(); }
    friend std::string operator+(std::string&& a, const SharedString& b) { return std::move(a) + b.str(); }
    friend std::string operator+(char a, const SharedString& b) { return a + b.str(); }
    friend std::string operator+(const SharedString& a, const SharedString& b) { return a.str() + b.str(); }

private:
    struct Text {
        std::atomic<size_t> refs;
        std::string s;
    };
    static const std::string& empty_string() noexcept;
    void release() noexcept {
        if (text_ && text_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete text_;
    }
    Text* text_ = nullptr;
};

std::ostream& operator<<(std::ostream& os, const SharedString& s);

}  // namespace gfxstat::data

template <>
struct std::hash<gfxstat::data::SharedString> {
    size_t operator()(const gfxstat::data::SharedString& s) const noexcept {
        return std::hash<std::string_view>{}(s.view());
    }
};
