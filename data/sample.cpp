// SPDX-License-Identifier: MIT
#include "data/sample.h"

#include <algorithm>

namespace gfxstat::data {

namespace {
constexpr uint64_t kPow10[] = {1ull,
                               10ull,
                               100ull,
                               1000ull,
                               10000ull,
                               100000ull,
                               1000000ull,
                               10000000ull,
                               100000000ull,
                               1000000000ull,
                               10000000000ull,
                               100000000000ull,
                               1000000000000ull,
                               10000000000000ull,
                               100000000000000ull,
                               1000000000000000ull,
                               10000000000000000ull,
                               100000000000000000ull,
                               1000000000000000000ull};
constexpr int kMaxPow = 18;

// |m| * 10^k as int64, or false when it does not fit.
bool scale_fits(uint64_t mag, int k) {
    if (k > kMaxPow) return mag == 0;
    unsigned __int128 v = static_cast<unsigned __int128>(mag) * kPow10[k];
    return v <= static_cast<unsigned __int128>(INT64_MAX);
}
}  // namespace

size_t Sample::size() const {
    return std::visit([](const auto& v) { return v.size(); }, values);
}

analysis::ScaledValues Sample::view() const {
    analysis::ScaledValues v;
    v.exponent = exponent;
    std::visit([&](const auto& vec) {
        v.values = std::span<const typename std::decay_t<decltype(vec)>::value_type>(vec);
    }, values);
    return v;
}

analysis::MutableScaledValues Sample::mutable_view() {
    analysis::MutableScaledValues v;
    v.exponent = exponent;
    std::visit([&](auto& vec) {
        v.values = std::span<typename std::decay_t<decltype(vec)>::value_type>(vec);
    }, values);
    return v;
}

template <class T>
void SampleBuilder::push(Chunks<T>& chunks, T v) {
    const size_t at = n_ % kChunk;
    if (n_ == 0) {
        chunks.emplace_back(new T[kFirstChunk]);
        first_cap_ = kFirstChunk;
    } else if (at == 0) {
        chunks.emplace_back(new T[kChunk]);
    } else if (at == first_cap_) {
        grow_first(chunks);
    }
    chunks.back()[at] = v;
    ++n_;
}

// Doubling: each value is copied a constant number of times on average.
template <class T>
void SampleBuilder::grow_first(Chunks<T>& chunks) {
    const size_t cap = std::min(first_cap_ * 2, kChunk);
    std::unique_ptr<T[]> bigger(new T[cap]);
    std::copy(chunks[0].get(), chunks[0].get() + n_, bigger.get());
    chunks[0] = std::move(bigger);
    first_cap_ = cap;
}

void SampleBuilder::add(const NumberToken& t) {
    if (t.status == TokenStatus::binary) {
        ++binary_tokens_;
        add_double(t.value);
        return;
    }
    const int64_t m = t.negative ? -static_cast<int64_t>(t.significand)
                                 : static_cast<int64_t>(t.significand);
    if (mode_ == Mode::binary) {
        add_double(analysis::decimal_to_double(m, t.exponent));
        return;
    }
    add_integer(m, t.exponent);
}

void SampleBuilder::add_integer(int64_t m, int e) {
    const uint64_t mag = m < 0 ? 0 - static_cast<uint64_t>(m) : static_cast<uint64_t>(m);
    if (mag != 0) {
        if (exponent_ == INT_MAX) exponent_ = e;
        if (e < exponent_ && !rescale(e)) {
            to_double();
            add_double(analysis::decimal_to_double(m, e));
            return;
        }
        if (e > exponent_) {
            // Bring this value down to the shared exponent.
            const int k = e - exponent_;
            if (!scale_fits(mag, k)) {
                to_double();
                add_double(analysis::decimal_to_double(m, e));
                return;
            }
            m *= static_cast<int64_t>(kPow10[k]);
        }
    }
    const uint64_t scaled_mag = m < 0 ? 0 - static_cast<uint64_t>(m) : static_cast<uint64_t>(m);
    max_abs_ = std::max(max_abs_, scaled_mag);
    if (mode_ == Mode::int32 && scaled_mag > static_cast<uint64_t>(INT32_MAX)) to_int64();
    if (mode_ == Mode::int32)
        push(c32_, static_cast<int32_t>(m));
    else
        push(c64_, m);
}

bool SampleBuilder::rescale(int new_exponent) {
    const int k = exponent_ - new_exponent;
    if (!scale_fits(max_abs_, k)) return false;
    const uint64_t f = k > kMaxPow ? 1 : kPow10[k];  // k > 18 only when all zero
    if (mode_ == Mode::int32 && max_abs_ * f > static_cast<uint64_t>(INT32_MAX)) to_int64();
    const size_t full = n_ / kChunk, rest = n_ % kChunk;
    auto scale_all = [&](auto& chunks) {
        for (size_t c = 0; c < chunks.size(); ++c) {
            const size_t len = (c < full) ? kChunk : rest;
            for (size_t i = 0; i < len; ++i) {
                using T = std::remove_reference_t<decltype(chunks[c][i])>;
                chunks[c][i] = static_cast<T>(chunks[c][i] * static_cast<int64_t>(f));
            }
        }
    };
    if (mode_ == Mode::int32)
        scale_all(c32_);
    else
        scale_all(c64_);
    max_abs_ *= f;
    exponent_ = new_exponent;
    return true;
}

void SampleBuilder::to_int64() {
    const size_t full = n_ / kChunk, rest = n_ % kChunk;
    for (size_t c = 0; c < c32_.size(); ++c) {
        const size_t len = (c < full) ? kChunk : rest;
        std::unique_ptr<int64_t[]> chunk(new int64_t[chunk_capacity(c)]);
        for (size_t i = 0; i < len; ++i) chunk[i] = c32_[c][i];
        c32_[c].reset();
        c64_.push_back(std::move(chunk));
    }
    c32_.clear();
    mode_ = Mode::int64;
}

void SampleBuilder::to_double() {
    if (mode_ == Mode::int32) to_int64();
    const size_t full = n_ / kChunk, rest = n_ % kChunk;
    const int e = exponent_ == INT_MAX ? 0 : exponent_;
    for (size_t c = 0; c < c64_.size(); ++c) {
        const size_t len = (c < full) ? kChunk : rest;
        std::unique_ptr<double[]> chunk(new double[chunk_capacity(c)]);
        for (size_t i = 0; i < len; ++i) chunk[i] = analysis::decimal_to_double(c64_[c][i], e);
        c64_[c].reset();
        cd_.push_back(std::move(chunk));
    }
    c64_.clear();
    mode_ = Mode::binary;
}

void SampleBuilder::add_double(double v) {
    if (mode_ != Mode::binary) to_double();
    push(cd_, v);
}

Sample SampleBuilder::finish(std::string name) && {
    Sample s;
    s.name = std::move(name);
    s.binary_tokens = binary_tokens_;
    s.exponent = (mode_ == Mode::binary || exponent_ == INT_MAX) ? 0 : exponent_;
    auto gather = [&](auto& chunks, auto& out) {
        out.resize(n_);
        size_t at = 0;
        for (auto& chunk : chunks) {
            const size_t len = std::min(kChunk, n_ - at);
            std::copy(chunk.get(), chunk.get() + len, out.begin() + static_cast<ptrdiff_t>(at));
            at += len;
            chunk.reset();  // free as we go: peak stays one array plus one chunk
        }
        chunks.clear();
    };
    switch (mode_) {
        case Mode::int32: gather(c32_, s.values.emplace<std::vector<int32_t>>()); break;
        case Mode::int64: gather(c64_, s.values.emplace<std::vector<int64_t>>()); break;
        case Mode::binary: gather(cd_, s.values.emplace<std::vector<double>>()); break;
    }
    n_ = 0;
    first_cap_ = 0;
    return s;
}

void erase_values(Sample& sample, const std::vector<size_t>& indices) {
    std::visit(
        [&](auto& v) {
            size_t out = 0, next = 0;
            for (size_t i = 0; i < v.size(); ++i) {
                if (next < indices.size() && indices[next] == i) {
                    ++next;
                    continue;
                }
                v[out++] = v[i];
            }
            v.resize(out);
        },
        sample.values);
}

}  // namespace gfxstat::data
