// SPDX-License-Identifier: MIT
// The median of one run's values of a metric: --target-ci counts runs, not
// the repetitions one run prints (they share the run's conditions).
// A run may print millions of values, so the median is selected over the
// values the run holds (tokens, or packed by `lines`), not over a copy: a
// copy as doubles would cost 8 bytes a value, four times the output for
// one-digit lines ("7\n"), at the moment the run's memory peaks. Instead a
// radix selection over the doubles' ordered bit patterns, 16 bits a pass,
// counts into one fixed table: four passes find the k-th value exactly,
// a fifth the lower middle of an even count.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "analysis/scaled_values.h"
#include "drivers/run_loop.h"

namespace gfxstat::drivers {

namespace {

double token_value(const data::NumberToken& t) {
    if (t.status != data::TokenStatus::decimal) return t.value;
    const double v = analysis::decimal_to_double(static_cast<int64_t>(t.significand), t.exponent);
    return t.negative ? -v : v;
}

// A key that orders as the doubles do (values are finite); -0 and +0 are
// one value, as std::nth_element compares them.
uint64_t ordered_key(double v) {
    if (v == 0) v = 0;  // -0 -> +0
    const auto u = std::bit_cast<uint64_t>(v);
    return (u >> 63) ? ~u : u | (uint64_t{1} << 63);
}

double from_key(uint64_t k) { return std::bit_cast<double>((k >> 63) ? k & ~(uint64_t{1} << 63) : ~k); }

// Calls f(const NumberToken&) for each value of a run's metric.
void each_value(const data::SmallVector<data::NumberToken>& values, auto&& f) {
    for (const auto& t : values) f(t);
}
void each_value(const data::PackedTokens& values, auto&& f) { values.for_each(f); }

// The k-th smallest key (0-based) of the values.
template <class Values>
uint64_t select_key(const Values& values, size_t k) {
    uint64_t prefix = 0;  // the bits fixed so far
    std::vector<size_t> count(size_t{1} << 16);
    for (int shift = 48; shift >= 0; shift -= 16) {
        std::fill(count.begin(), count.end(), size_t{0});
        const int fixed = 48 - shift;  // bits above this pass's digit already chosen
        each_value(values, [&](const data::NumberToken& t) {
            const uint64_t key = ordered_key(token_value(t));
            if (fixed && (key >> (64 - fixed)) != (prefix >> (64 - fixed))) return;
            ++count[(key >> shift) & 0xffff];
        });
        size_t digit = 0;
        while (k >= count[digit]) k -= count[digit++];
        prefix |= static_cast<uint64_t>(digit) << shift;
    }
    return prefix;
}

// Few values (the usual run, one value a metric): a copy is small, and
// selecting in it is cheaper than clearing the radix table four times.
template <class Values>
double median_of_copy(const Values& values, size_t n) {
    std::vector<double> v;
    v.reserve(n);
    each_value(values, [&](const data::NumberToken& t) { v.push_back(token_value(t)); });
    const auto middle = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(v.begin(), middle, v.end());
    if (n % 2) return *middle;
    // The lower middle is the largest of the values before the upper one.
    return (*std::max_element(v.begin(), middle) + *middle) / 2;
}

constexpr size_t kCopyAtMost = 4096;  // 32 KiB of doubles

template <class Values>
double median_of(const Values& values, size_t n) {
    if (n <= kCopyAtMost) return median_of_copy(values, n);
    const uint64_t upper = select_key(values, n / 2);
    if (n % 2) return from_key(upper);
    // The lower middle: the upper one again when enough values equal it,
    // else the largest below it.
    size_t below = 0;
    uint64_t lower = 0;
    each_value(values, [&](const data::NumberToken& t) {
        const uint64_t key = ordered_key(token_value(t));
        if (key < upper) {
            ++below;
            lower = std::max(lower, key);
        }
    });
    if (below < n / 2) lower = upper;
    return (from_key(lower) + from_key(upper)) / 2;
}

}  // namespace

double run_median(const data::MetricValues& m) { return median_of(m.values, m.values.size()); }

double run_median(const data::PackedTokens& values) { return median_of(values, values.size()); }

std::optional<double> run_median(const data::RunRecord& rec, const std::vector<data::PackedTokens>& packed,
                                 size_t i) {
    if (i < packed.size() && !packed[i].empty()) return run_median(packed[i]);
    const data::MetricValues& m = rec.metrics[i];
    if (m.values.empty()) return std::nullopt;
    return run_median(m);
}

}  // namespace gfxstat::drivers
