// SPDX-License-Identifier: MIT
// A vector that holds its first element inline: most runs measure one
// metric with one value, and a heap vector for each (24 bytes inline, a
// 32-byte block on the heap, a pointer chase to read it) is most of what
// such a run costs. One element lives in the object; two or more move into
// a std::vector, and a std::vector given to it is taken over as it is
// (a parser's ten million values are not copied). Elements are
// contiguous either way: begin() and end() are pointers.
//
// The interface is std::vector's where run records use it: size, empty,
// [], at, front, back, begin, end, data, push_back, emplace_back, reserve,
// clear, insert, erase, comparison, assignment from a std::vector or a brace list.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace gfxstat::data {

template <class T>
class SmallVector {
public:
    using value_type = T;
    using size_type = size_t;
    using iterator = T*;
    using const_iterator = const T*;
    using reference = T&;
    using const_reference = const T&;

    SmallVector() noexcept {}
    SmallVector(std::vector<T>&& v) { take(std::move(v)); }
    SmallVector(const std::vector<T>& v) { take(std::vector<T>(v)); }
    SmallVector(std::initializer_list<T> list) { take(std::vector<T>(list)); }
    SmallVector(const SmallVector& o) {
        if (o.state_ == kOne) emplace_one(o.one_);
        else if (o.state_ == kMany) take(std::vector<T>(o.many_));
    }
    SmallVector(SmallVector&& o) noexcept { steal(std::move(o)); }
    ~SmallVector() { destroy(); }

    SmallVector& operator=(const SmallVector& o) {
        if (this != &o) *this = SmallVector(o);
        return *this;
    }
    SmallVector& operator=(SmallVector&& o) noexcept {
        if (this != &o) {
            destroy();
            steal(std::move(o));
        }
        return *this;
    }
    SmallVector& operator=(std::vector<T>&& v) {
        destroy();
        take(std::move(v));
        return *this;
    }
    SmallVector& operator=(const std::vector<T>& v) { return *this = std::vector<T>(v); }
    SmallVector& operator=(std::initializer_list<T> list) { return *this = std::vector<T>(list); }

    size_t size() const noexcept { return state_ == kMany ? many_.size() : state_; }
    bool empty() const noexcept { return size() == 0; }
    T* data() noexcept { return state_ == kMany ? many_.data() : &one_; }
    const T* data() const noexcept { return state_ == kMany ? many_.data() : &one_; }
    T* begin() noexcept { return data(); }
    T* end() noexcept { return data() + size(); }
    const T* begin() const noexcept { return data(); }
    const T* end() const noexcept { return data() + size(); }
    T& operator[](size_t i) noexcept { return data()[i]; }
    const T& operator[](size_t i) const noexcept { return data()[i]; }
    T& at(size_t i) {
        if (i >= size()) throw std::out_of_range("SmallVector::at");
        return data()[i];
    }
    const T& at(size_t i) const {
        if (i >= size()) throw std::out_of_range("SmallVector::at");
        return data()[i];
    }
    T& front() noexcept { return *data(); }
    const T& front() const noexcept { return *data(); }
    T& back() noexcept { return data()[size() - 1]; }
    const T& back() const noexcept { return data()[size() - 1]; }
    operator std::span<const T>() const noexcept { return {data(), size()}; }
    std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

    // Two or more elements expected: the vector, with room for them.
    void reserve(size_t n) {
        if (n > 1) many().reserve(n);
    }
    template <class... Args>
    T& emplace_back(Args&&... args) {
        if (state_ == kEmpty) return emplace_one(std::forward<Args>(args)...);
        if (state_ == kMany) return many_.emplace_back(std::forward<Args>(args)...);
        T v(std::forward<Args>(args)...);  // before the inline one moves: args may refer to it
        return many().emplace_back(std::move(v));
    }
    void push_back(const T& v) { emplace_back(v); }
    void push_back(T&& v) { emplace_back(std::move(v)); }
    // Unlike std::vector's, frees the heap block: a reader that has taken
    // a run's values gives their memory back.
    void clear() noexcept {
        destroy();
        state_ = kEmpty;
    }
    template <class It>
    T* insert(const T* pos, It first, It last) {
        const size_t at = static_cast<size_t>(pos - data());
        if (first == last) return data() + at;
        if (state_ == kEmpty && std::next(first) == last) return &emplace_one(*first);
        std::vector<T>& v = many();
        v.insert(v.begin() + static_cast<std::ptrdiff_t>(at), first, last);
        return data() + at;
    }
    T* erase(const T* pos) { return erase(pos, pos + 1); }
    T* erase(const T* first, const T* last) {
        const size_t at = static_cast<size_t>(first - data());
        if (state_ == kMany) many_.erase(many_.begin() + at, many_.begin() + (last - data()));
        else if (first != last) clear();
        return data() + at;
    }

    friend bool operator==(const SmallVector& a, const SmallVector& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    friend bool operator==(const SmallVector& a, const std::vector<T>& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    static constexpr uint8_t kEmpty = 0, kOne = 1, kMany = 2;

    template <class... Args>
    T& emplace_one(Args&&... args) {
        T* p = std::construct_at(&one_, std::forward<Args>(args)...);
        state_ = kOne;
        return *p;
    }
    // The elements in a std::vector (moved there from inline).
    std::vector<T>& many() {
        if (state_ != kMany) {
            std::vector<T> v;
            v.reserve(2);
            if (state_ == kOne) v.push_back(std::move(one_));
            destroy();
            std::construct_at(&many_, std::move(v));
            state_ = kMany;
        }
        return many_;
    }
    // Takes `v` over: inline when it holds one element or none.
    void take(std::vector<T>&& v) {
        if (v.size() > 1) {
            std::construct_at(&many_, std::move(v));
            state_ = kMany;
        } else if (v.size() == 1) {
            emplace_one(std::move(v.front()));
        } else {
            state_ = kEmpty;
        }
    }
    void steal(SmallVector&& o) noexcept {
        if (o.state_ == kOne) emplace_one(std::move(o.one_));
        else if (o.state_ == kMany) {
            std::construct_at(&many_, std::move(o.many_));
            state_ = kMany;
        } else {
            state_ = kEmpty;
        }
        o.clear();
    }
    void destroy() noexcept {
        if (state_ == kOne) std::destroy_at(&one_);
        else if (state_ == kMany) std::destroy_at(&many_);
        state_ = kEmpty;
    }

    union {
        T one_;
        std::vector<T> many_;
    };
    uint8_t state_ = kEmpty;
};

// std::erase_if's, found by argument-dependent lookup (`erase_if(v, pred)`).
template <class T, class Pred>
size_t erase_if(SmallVector<T>& v, Pred pred) {
    T* kept = std::remove_if(v.begin(), v.end(), pred);
    const size_t gone = static_cast<size_t>(v.end() - kept);
    v.erase(kept, v.end());
    return gone;
}

}  // namespace gfxstat::data
