// SPDX-License-Identifier: MIT
#include "analysis/drift.h"

#include <algorithm>
#include <array>
#include <bit>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/order_stats.h"

namespace gfxstat::analysis {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void require_finite(std::span<const double> values, const char* function) {
    for (double v : values)
        if (!std::isfinite(v))
            throw std::invalid_argument(std::string(function) + ": non-finite value");
}

void require_confidence(double confidence, const char* function) {
    if (!(confidence > 0 && confidence < 1))
        throw std::invalid_argument(std::string(function) + ": confidence must be in (0, 1)");
}

bool all_equal(std::span<const double> values) {
    return std::adjacent_find(values.begin(), values.end(), std::not_equal_to<>()) ==
           values.end();
}

// Two-sided p of a Student t statistic; an infinite t gives 0.
double t_two_sided(long double t, double df) {
    if (std::isinf(t)) return 0;
    const boost::math::students_t dist(df);
    const double upper =
        boost::math::cdf(boost::math::complement(dist, static_cast<double>(std::fabs(t))));
    return std::min(1.0, 2 * upper);
}

double normal_two_sided(long double z) {
    if (std::isinf(z)) return 0;
    const boost::math::normal n01;
    const double upper =
        boost::math::cdf(boost::math::complement(n01, static_cast<double>(std::fabs(z))));
    return std::min(1.0, 2 * upper);
}

// Twice the mid-ranks (1-based, ties averaged), so that they are integers,
// the sizes of the groups of tied values (only groups of 2 or more), and
// the dense rank of each value (0 for the smallest distinct value), which
// orders the values as they do. The trend and the change point share one.
struct DoubledRanks {
    std::vector<int64_t> rank2;
    std::vector<int64_t> tie_sizes;
    std::vector<uint32_t> dense;
};

// The order of finite values, by a least-significant-digit radix sort of
// their bits (11 bits a pass, a pass skipped where every value has the same
// digit): two to three times faster than a comparison sort at a million
// values, the largest cost of the drift analysis. Equal values (-0 and +0
// included) end up next to each other, in no particular order. `key`
// receives the sorted keys, equal exactly where the values are.
std::vector<uint32_t> sorted_order(std::span<const double> values, std::vector<uint64_t>& key) {
    const size_t n = values.size();
    key.assign(n, 0);
    std::vector<uint64_t> key_buf(n);
    std::vector<uint32_t> order(n), order_buf(n);
    if (n == 0) return order;
    for (size_t i = 0; i < n; ++i) {
        const double v = values[i] == 0 ? 0.0 : values[i];
        const uint64_t bits = std::bit_cast<uint64_t>(v);
        // Negative values: all bits flipped; others: the sign bit set. The
        // keys then order as the values do.
        key[i] = bits >> 63 ? ~bits : bits | (uint64_t{1} << 63);
        order[i] = static_cast<uint32_t>(i);
    }
    constexpr int kBits = 11;
    constexpr size_t kBuckets = size_t{1} << kBits;
    std::vector<size_t> count(kBuckets);
    for (int shift = 0; shift < 64; shift += kBits) {
        std::fill(count.begin(), count.end(), 0);
        for (uint64_t k : key) ++count[(k >> shift) & (kBuckets - 1)];
        if (count[(key[0] >> shift) & (kBuckets - 1)] == n) continue;
        size_t sum = 0;
        for (size_t& c : count) sum += std::exchange(c, sum);
        for (size_t i = 0; i < n; ++i) {
            const size_t to = count[(key[i] >> shift) & (kBuckets - 1)]++;
            key_buf[to] = key[i];
            order_buf[to] = order[i];
        }
        key.swap(key_buf);
        order.swap(order_buf);
    }
    return order;
}

DoubledRanks doubled_midranks(std::span<const double> values) {
    const size_t n = values.size();
    std::vector<uint64_t> key;
    const std::vector<uint32_t> order = sorted_order(values, key);
    DoubledRanks r;
    r.rank2.resize(n);
    r.dense.resize(n);
    uint32_t distinct = 0;
    for (size_t a = 0; a < n; ++distinct) {
        size_t b = a + 1;
        while (b < n && key[b] == key[a]) ++b;
        // Positions a..b-1 (0-based) share the mid-rank (a + 1 + b) / 2.
        const auto doubled = static_cast<int64_t>(a + 1 + b);
        for (size_t k = a; k < b; ++k) r.rank2[order[k]] = doubled, r.dense[order[k]] = distinct;
        if (b - a > 1) r.tie_sizes.push_back(static_cast<int64_t>(b - a));
        a = b;
    }
    return r;
}

// Number of pairs i < j with v[i] > v[j] (strictly), from the dense ranks
// (which order as the values do), by a most-significant-digit radix sort
// of them, 4 bits a level: within each group of ranks that share the
// higher digits (kept in run order), a pair is inverted at this level when
// the earlier one has the larger digit, which a row of 16 counters of the
// digits seen so far in the group answers for each rank at once; then the
// group is split by the digit, stably, for the next level. Pairs that
// share every digit are equal values, no inversion. About ten sequential
// passes at a million values, where a merge sort makes twenty with an
// unpredictable comparison each.
uint64_t strict_inversions(std::span<const uint32_t> dense) {
    const size_t n = dense.size();
    if (n < 2) return 0;
    const uint32_t top = *std::max_element(dense.begin(), dense.end());
    const int levels = (std::bit_width(top) + 3) / 4;
    // below[d][t] = 1 for t < d: the counters a digit d raises.
    static constexpr auto below = [] {
        std::array<std::array<uint32_t, 16>, 16> m{};
        for (int d = 0; d < 16; ++d)
            for (int t = 0; t < d; ++t) m[d][t] = 1;
        return m;
    }();
    std::vector<uint32_t> cur(dense.begin(), dense.end()), next(levels > 1 ? n : 0);
    std::vector<size_t> starts{0}, next_starts;  // where each group begins
    uint64_t count = 0;
    for (int level = 0; level < levels; ++level) {
        const int shift = 4 * (levels - 1 - level);
        const bool last = level + 1 == levels;
        next_starts.clear();
        for (size_t g = 0; g < starts.size(); ++g) {
            const size_t s = starts[g], e = g + 1 < starts.size() ? starts[g + 1] : n;
            if (e - s < 2) {
                if (!last) next[s] = cur[s], next_starts.push_back(s);
                continue;
            }
            // greater[t]: ranks seen so far in the group whose digit exceeds t.
            alignas(64) std::array<uint32_t, 16> greater{};
            for (size_t k = s; k < e; ++k) {
                const uint32_t d = (cur[k] >> shift) & 15;
                count += greater[d];
                for (int t = 0; t < 16; ++t) greater[t] += below[d][t];
            }
            if (last) continue;
            // The digit-t bucket starts after the ranks with a smaller digit:
            // (e - s) - greater[t - 1] of them.
            std::array<size_t, 16> at{};
            for (int t = 0; t < 16; ++t) {
                at[t] = s + (t == 0 ? 0 : (e - s) - greater[t - 1]);
                const size_t end = s + (e - s) - greater[t];
                if (end > at[t]) next_starts.push_back(at[t]);
            }
            for (size_t k = s; k < e; ++k) next[at[(cur[k] >> shift) & 15]++] = cur[k];
        }
        cur.swap(next);
        starts.swap(next_starts);
    }
    return count;
}

// Type-7 median of a range (copied: the selection reorders).
double median_of(std::span<const double> values) {
    std::vector<double> copy(values.begin(), values.end());
    return median(MutableScaledValues{std::span<double>(copy), 0});
}

// Mean computed as shift + mean(x - shift) in long double: with shift close
// to the values (the first one), values near 1e9 with noise of 1e-3 keep
// their digits.
long double shifted_mean(std::span<const double> values, long double shift) {
    long double sum = 0;
    for (double v : values) sum += static_cast<long double>(v) - shift;
    return sum / static_cast<long double>(values.size());
}

}  // namespace

// Up to this many values the Spearman p-value is exact (9! = 362880
// arrangements at most).
constexpr size_t kExactSpearmanMax = 9;

namespace {

// The trend, given the values' ranks (computed when `ranks` is empty).
Trend trend_ranked(std::span<const double> values, double confidence, DoubledRanks& ranks) {
    Trend r;
    const size_t n = values.size();
    if (n < 3 || all_equal(values)) return r;
    r.defined = true;
    const long double ln = static_cast<long double>(n);

    // Least squares on x = 0..n-1, everything centred: d_i = y_i - mean.
    const long double shift = values[0];
    const long double dmean = shifted_mean(values, shift);  // mean - shift
    const long double mean = shift + dmean;
    const long double xbar = (ln - 1) / 2;
    // (d_i is computed again below rather than stored: 16 bytes a value.)
    const auto d = [&](size_t i) { return (static_cast<long double>(values[i]) - shift) - dmean; };
    long double sxy = 0;
    for (size_t i = 0; i < n; ++i) sxy += (static_cast<long double>(i) - xbar) * d(i);
    const long double sxx = ln * (ln * ln - 1) / 12;  // exact below n ~ 2.6e6
    const long double slope = sxy / sxx;
    long double sse = 0;
    for (size_t i = 0; i < n; ++i) {
        const long double e = d(i) - slope * (static_cast<long double>(i) - xbar);
        sse += e * e;
    }
    const double df = static_cast<double>(n - 2);
    const long double se = std::sqrt(sse / df / sxx);
    const boost::math::students_t tdist(df);
    const double q = boost::math::quantile(boost::math::complement(tdist, (1 - confidence) / 2));
    r.slope = static_cast<double>(slope);
    r.slope_ci_low = static_cast<double>(slope - q * se);
    r.slope_ci_high = static_cast<double>(slope + q * se);
    if (se == 0)
        r.slope_p = slope == 0 ? 1 : 0;  // an exact straight line
    else
        r.slope_p = t_two_sided(slope / se, df);
    r.relative_drift =
        mean == 0 ? kNaN : static_cast<double>(slope * (ln - 1) / std::fabs(mean));

    // Ranks: the index needs none (0..n-1 has no ties); centred doubled
    // ranks are integers, so the sums are exact in 128 bits.
    if (ranks.rank2.empty()) ranks = doubled_midranks(values);
    __int128 sab = 0, saa = 0;
    const auto n64 = static_cast<int64_t>(n);
    for (size_t i = 0; i < n; ++i) {
        const __int128 a = ranks.rank2[i] - (n64 + 1);
        const __int128 b = 2 * static_cast<int64_t>(i) + 1 - n64;
        sab += a * b;
        saa += a * a;
    }
    const long double sbb = ln * (ln * ln - 1) / 3;  // sum of (2i + 1 - n)^2
    long double rho = static_cast<long double>(sab) / std::sqrt(static_cast<long double>(saa) * sbb);
    rho = std::clamp(rho, -1.0L, 1.0L);
    r.spearman_rho = static_cast<double>(rho);
    const long double one_minus = 1 - rho * rho;
    const long double tr = one_minus <= 0 ? std::numeric_limits<long double>::infinity()
                                          : rho * std::sqrt((ln - 2) / one_minus);
    r.spearman_p = rho == 0 ? 1 : t_two_sided(tr, df);
    if (n <= kExactSpearmanMax) {
        // Few values: the t approximation is poor (a perfect rank order of
        // 5 values would get p = 0, where the exact p is 2/120). Enumerate
        // every permutation of the ranks against the order instead: R's
        // exact test for these n, and a permutation test with ties.
        std::vector<int64_t> a(n);
        for (size_t i = 0; i < n; ++i) a[i] = ranks.rank2[i] - (n64 + 1);
        std::sort(a.begin(), a.end());
        const __int128 observed = sab < 0 ? -sab : sab;
        size_t extreme = 0, total = 0;
        do {
            __int128 s = 0;
            for (size_t i = 0; i < n; ++i) s += static_cast<__int128>(a[i]) * (2 * static_cast<int64_t>(i) + 1 - n64);
            extreme += (s < 0 ? -s : s) >= observed;
            ++total;
        } while (std::next_permutation(a.begin(), a.end()));
        // Tied ranks give repeated permutations; next_permutation visits each
        // distinct arrangement once, and each stands for the same number of
        // labelled permutations, so the ratio is the permutation p-value.
        r.spearman_p = static_cast<double>(extreme) / static_cast<double>(total);
    }

    // Kendall's tau-b; the index has no ties, the values tie in groups t:
    // S = concordant - discordant = T0 - T1 - 2 D (D strict inversions).
    const long double t0 = ln * (ln - 1) / 2;
    long double t1 = 0, vt = 0;
    for (int64_t t : ranks.tie_sizes) {
        const long double lt = static_cast<long double>(t);
        t1 += lt * (lt - 1) / 2;
        vt += lt * (lt - 1) * (2 * lt + 5);
    }
    const long double s = t0 - t1 - 2 * static_cast<long double>(strict_inversions(ranks.dense));
    r.kendall_tau = static_cast<double>(s / std::sqrt((t0 - t1) * t0));
    const long double var_s = (ln * (ln - 1) * (2 * ln + 5) - vt) / 18;
    r.kendall_p = s == 0 ? 1 : normal_two_sided(s / std::sqrt(var_s));
    return r;
}

// The change point, given the values' ranks (computed when `ranks` is empty).
ChangePoint change_point_ranked(std::span<const double> values, DoubledRanks& ranks) {
    ChangePoint r;
    const size_t n = values.size();
    if (n < 4 || all_equal(values)) return r;
    r.defined = true;

    // Pettitt: U_t = sum_{i<=t} sum_{j>t} sign(x_i - x_j) (1-based, t =
    // 1..n-1) = 2 sum_{i<=t} r_i - t (n + 1) with mid-ranks r_i; here in
    // doubled ranks, exact integers.
    if (ranks.rank2.empty()) ranks = doubled_midranks(values);
    const auto n64 = static_cast<int64_t>(n);
    int64_t prefix = 0, best = -1;
    size_t best_t = 1;
    for (size_t t = 1; t < n; ++t) {
        prefix += ranks.rank2[t - 1];
        const int64_t u = prefix - static_cast<int64_t>(t) * (n64 + 1);
        const int64_t a = u < 0 ? -u : u;
        if (a > best) {  // strictly: the first t reaching the maximum
            best = a;
            best_t = t;
        }
    }
    const long double k = static_cast<long double>(best), ln = static_cast<long double>(n);
    r.statistic = static_cast<double>(best);
    r.p = static_cast<double>(std::min(1.0L, 2 * std::exp(-6 * k * k / (ln * ln * ln + ln * ln))));
    // The first t values (0-based 0..t-1) are before the change.
    r.index = best_t;
    const auto before = values.first(best_t), after = values.subspan(best_t);
    const long double shift = values[0];
    r.mean_before = static_cast<double>(shift + shifted_mean(before, shift));
    r.mean_after = static_cast<double>(shift + shifted_mean(after, shift));
    r.median_before = median_of(before);
    r.median_after = median_of(after);
    r.relative_shift = r.median_before == 0
                           ? kNaN
                           : (r.median_after - r.median_before) / std::fabs(r.median_before);
    return r;
}

}  // namespace

Trend trend(std::span<const double> values, double confidence) {
    require_confidence(confidence, "trend");
    require_finite(values, "trend");
    DoubledRanks ranks;
    return trend_ranked(values, confidence, ranks);
}

ChangePoint change_point(std::span<const double> values) {
    require_finite(values, "change_point");
    DoubledRanks ranks;
    return change_point_ranked(values, ranks);
}

FirstRunEffect first_run_effect(std::span<const double> values, std::span<const size_t> firsts) {
    require_finite(values, "first_run_effect");
    const size_t n = values.size();
    std::vector<char> is_first(n, 0);
    for (size_t f : firsts) {
        if (f >= n)
            throw std::invalid_argument("first_run_effect: index " + std::to_string(f) +
                                        " out of range for " + std::to_string(n) + " values");
        is_first[f] = 1;  // duplicates count once
    }
    FirstRunEffect r;
    std::vector<double> f, o;
    o.reserve(n);
    for (size_t i = 0; i < n; ++i) (is_first[i] ? f : o).push_back(values[i]);
    r.firsts = f.size();
    r.others = o.size();
    r.mean_firsts = r.mean_others = r.difference = r.relative_difference = kNaN;
    if (n == 0) return r;

    // Everything relative to one common shift, so that the difference of
    // means near 1e9 keeps the digits of the noise.
    const long double shift = values[0];
    long double df_mean = 0, do_mean = 0;  // means - shift
    if (!f.empty()) {
        df_mean = shifted_mean(f, shift);
        r.mean_firsts = static_cast<double>(shift + df_mean);
    }
    if (!o.empty()) {
        do_mean = shifted_mean(o, shift);
        r.mean_others = static_cast<double>(shift + do_mean);
    }
    if (f.empty() || o.empty()) return r;
    const long double diff = df_mean - do_mean;
    r.difference = static_cast<double>(diff);
    const long double mo = shift + do_mean;
    r.relative_difference = mo == 0 ? kNaN : static_cast<double>(diff / std::fabs(mo));
    if (o.size() < 2) return r;

    auto var = [shift](const std::vector<double>& x, long double dmean) {
        long double ss = 0;
        for (double v : x) {
            const long double e = (static_cast<long double>(v) - shift) - dmean;
            ss += e * e;
        }
        return ss / static_cast<long double>(x.size() - 1);
    };
    const long double m = static_cast<long double>(o.size());
    const long double vo = var(o, do_mean);
    if (f.size() == 1) {
        // Prediction interval for one new value from the others.
        if (vo == 0) return r;
        const long double t = diff / std::sqrt(vo * (1 + 1 / m));
        r.defined = true;
        r.p = t_two_sided(t, static_cast<double>(o.size() - 1));
        return r;
    }
    // Welch.
    const long double k = static_cast<long double>(f.size());
    const long double a = var(f, df_mean) / k, b = vo / m;
    if (a + b == 0) return r;
    const long double dfw = (a + b) * (a + b) / (a * a / (k - 1) + b * b / (m - 1));
    r.defined = true;
    r.p = t_two_sided(diff / std::sqrt(a + b), static_cast<double>(dfw));
    return r;
}

DriftAnalysis analyse_drift(std::span<const double> values, std::span<const size_t> firsts,
                            double confidence) {
    require_confidence(confidence, "analyse_drift");
    require_finite(values, "trend");  // (as when trend() checked them)
    DriftAnalysis r;
    // The ranks, the costliest part of both, computed once.
    DoubledRanks ranks;
    r.trend = trend_ranked(values, confidence, ranks);
    r.change_point = change_point_ranked(values, ranks);
    r.first_run = first_run_effect(values, firsts);
    return r;
}

}  // namespace gfxstat::analysis
