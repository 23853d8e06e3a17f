// SPDX-License-Identifier: MIT
// An optional value kept on the heap: a member that most records lack
// costs one pointer (8 bytes) instead of the whole value inline, as a
// std::optional would keep it (a run's ThrottleRecord: 168 bytes that a
// million imported runs would carry empty); OutOfLineVector, below, does
// the same for a list. The interface is the
// optional's, where records use it (has_value, *, ->, value_or, reset,
// emplace, assignment from a value, an optional or nullopt); copies copy
// the value.
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace gfxstat::data {

template <class T>
class OutOfLine {
public:
    OutOfLine() noexcept = default;
    OutOfLine(std::nullopt_t) noexcept {}
    OutOfLine(const T& v) : p_(std::make_unique<T>(v)) {}
    OutOfLine(T&& v) : p_(std::make_unique<T>(std::move(v))) {}
    OutOfLine(const std::optional<T>& o) : p_(o ? std::make_unique<T>(*o) : nullptr) {}
    OutOfLine(std::optional<T>&& o) : p_(o ? std::make_unique<T>(std::move(*o)) : nullptr) {}
    OutOfLine(const OutOfLine& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
    OutOfLine(OutOfLine&&) noexcept = default;
    OutOfLine& operator=(const OutOfLine& o) {
        if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
        return *this;
    }
    OutOfLine& operator=(OutOfLine&&) noexcept = default;
    OutOfLine& operator=(std::nullopt_t) noexcept {
        p_.reset();
        return *this;
    }
    OutOfLine& operator=(const T& v) { return *this = OutOfLine(v); }
    OutOfLine& operator=(T&& v) { return *this = OutOfLine(std::move(v)); }
    OutOfLine& operator=(const std::optional<T>& o) { return *this = OutOfLine(o); }
    OutOfLine& operator=(std::optional<T>&& o) { return *this = OutOfLine(std::move(o)); }

    bool has_value() const noexcept { return p_ != nullptr; }
    explicit operator bool() const noexcept { return p_ != nullptr; }
    T& operator*() noexcept { return *p_; }
    const T& operator*() const noexcept { return *p_; }
    T* operator->() noexcept { return p_.get(); }
    const T* operator->() const noexcept { return p_.get(); }
    T& value() {
        if (!p_) throw std::bad_optional_access();
        return *p_;
    }
    const T& value() const {
        if (!p_) throw std::bad_optional_access();
        return *p_;
    }
    template <class U>
    T value_or(U&& fallback) const {
        return p_ ? *p_ : static_cast<T>(std::forward<U>(fallback));
    }
    void reset() noexcept { p_.reset(); }
    template <class... Args>
    T& emplace(Args&&... args) {
        p_ = std::make_unique<T>(std::forward<Args>(args)...);
        return *p_;
    }
    // The value as a std::optional, for code that keeps or returns one.
    std::optional<T> to_optional() const { return p_ ? std::optional<T>(*p_) : std::nullopt; }

    friend bool operator==(const OutOfLine& a, const OutOfLine& b) {
        return a.p_ == b.p_ || (a.p_ && b.p_ && *a.p_ == *b.p_);
    }
    friend bool operator==(const OutOfLine& a, std::nullopt_t) noexcept { return !a.p_; }

private:
    std::unique_ptr<T> p_;
};

// A list that most records leave empty (a run's members a newer gfxstat
// wrote): one pointer, null when empty, instead of a std::vector's 24
// bytes. It reads as a `const std::vector<T>&`; it grows by push_back and
// emplace_back and is assigned whole.
template <class T>
class OutOfLineVector {
public:
    OutOfLineVector() noexcept = default;
    OutOfLineVector(std::vector<T> v) { *this = std::move(v); }
    OutOfLineVector(std::initializer_list<T> list) : OutOfLineVector(std::vector<T>(list)) {}
    OutOfLineVector& operator=(std::vector<T> v) {
        items_ = v.empty() ? OutOfLine<std::vector<T>>() : OutOfLine<std::vector<T>>(std::move(v));
        return *this;
    }
    OutOfLineVector& operator=(std::initializer_list<T> list) { return *this = std::vector<T>(list); }

    const std::vector<T>& items() const noexcept { return items_ ? *items_ : empty_items(); }
    operator const std::vector<T>&() const noexcept { return items(); }
    bool empty() const noexcept { return items().empty(); }
    size_t size() const noexcept { return items().size(); }
    typename std::vector<T>::const_iterator begin() const noexcept { return items().begin(); }
    typename std::vector<T>::const_iterator end() const noexcept { return items().end(); }
    const T& operator[](size_t i) const noexcept { return items()[i]; }
    void push_back(T v) { grown().push_back(std::move(v)); }
    template <class... Args>
    T& emplace_back(Args&&... args) {
        return grown().emplace_back(std::forward<Args>(args)...);
    }
    void clear() noexcept { items_.reset(); }

    friend bool operator==(const OutOfLineVector& a, const OutOfLineVector& b) { return a.items() == b.items(); }
    friend bool operator==(const OutOfLineVector& a, const std::vector<T>& b) { return a.items() == b; }

private:
    static const std::vector<T>& empty_items() noexcept {
        static const std::vector<T> none;
        return none;
    }
    std::vector<T>& grown() { return items_ ? *items_ : items_.emplace(); }
    OutOfLine<std::vector<T>> items_;
};

}  // namespace gfxstat::data
