// SPDX-License-Identifier: MIT
#include "analysis/rank_tests.h"
#include "analysis/rank_formulas.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include <boost/math/distributions/normal.hpp>

namespace gfxstat::analysis {
namespace {

// ---------------------------------------------------------------------------
// Input checks and sorting

void check_inputs(std::span<const double> baseline, std::span<const double> candidate) {
    if (baseline.empty() || candidate.empty())
        throw std::invalid_argument("rank test: both samples need at least one value");
    for (auto s : {baseline, candidate})
        for (double v : s)
            if (!std::isfinite(v)) throw std::invalid_argument("rank test: non-finite value");
    // The pair count must stay exact in a double (and in the uint64 counts).
    const double pairs = static_cast<double>(baseline.size()) * static_cast<double>(candidate.size());
    if (pairs > 0x1p53 || baseline.size() > std::numeric_limits<uint32_t>::max())
        throw std::length_error("rank test: samples too large");
}

// Ascending, by an LSD radix sort on order-preserving 64-bit keys (11-bit
// digits, digits shared by every key skipped): a million values in a few ms.
// -0.0 sorts before +0.0, which is harmless: they compare equal.
std::vector<double> sorted(std::span<const double> s) {
    std::vector<double> v(s.begin(), s.end());
    if (v.size() < 2048) {
        std::sort(v.begin(), v.end());
        return v;
    }
    constexpr int kBits = 11, kDigits = 6;
    constexpr uint64_t kMask = (uint64_t{1} << kBits) - 1;
    std::vector<uint64_t> keys(v.size()), tmp(v.size());
    std::vector<std::array<size_t, kMask + 1>> count(kDigits);
    for (auto& c : count) c.fill(0);
    for (size_t i = 0; i < v.size(); ++i) {
        const auto u = std::bit_cast<uint64_t>(v[i]);
        const uint64_t k = (u >> 63) ? ~u : u | (uint64_t{1} << 63);
        keys[i] = k;
        for (int d = 0; d < kDigits; ++d) ++count[d][(k >> (d * kBits)) & kMask];
    }
    for (int d = 0; d < kDigits; ++d) {
        auto& c = count[d];
        if (std::find(c.begin(), c.end(), v.size()) != c.end()) continue;  // one bucket
        size_t sum = 0;
        for (auto& x : c) sum += std::exchange(x, sum);
        for (uint64_t k : keys) tmp[c[(k >> (d * kBits)) & kMask]++] = k;
        keys.swap(tmp);
    }
    for (size_t i = 0; i < v.size(); ++i) {
        const uint64_t k = keys[i];
        v[i] = std::bit_cast<double>((k >> 63) ? k & ~(uint64_t{1} << 63) : ~k);
    }
    return v;
}

// The pooled ranking, by a merge of the two sorted samples (the same ranks as
// one sort of the pooled values).
struct Pooled {
    double u = 0;          // sum of the candidate's midranks - nb(nb+1)/2
    double tie_sum = 0;    // sum(t^3 - t) over the pooled tie groups
    bool ties = false;     // any two pooled values equal
    bool all_equal = false;
};

Pooled pool(const std::vector<double>& a, const std::vector<double>& b) {
    Pooled p;
    // U = sum over candidate values of #(baseline below) + #(baseline equal)/2,
    // which is the rank-sum form; kept as an integer count of halves.
    uint64_t twice_u = 0;
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const double v = (j == b.size() || (i < a.size() && a[i] < b[j])) ? a[i] : b[j];
        size_t ta = 0, tb = 0;
        while (i < a.size() && a[i] == v) ++i, ++ta;
        while (j < b.size() && b[j] == v) ++j, ++tb;
        twice_u += tb * (2 * (i - ta) + ta);
        const double t = static_cast<double>(ta + tb);
        if (ta + tb > 1) {
            p.ties = true;
            p.tie_sum += t * t * t - t;
        }
    }
    p.u = static_cast<double>(twice_u) / 2;
    p.all_equal = a.front() == a.back() && b.front() == b.back() && a.front() == b.front();
    return p;
}


// ---------------------------------------------------------------------------
// The exact null distribution of U for sample sizes (m, n), no ties.

class WilcoxonDistribution {
public:
    // Frequencies of U = 0..mn: the coefficients of the Gaussian binomial
    // [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), computed
    // exactly in 128-bit integers (C(98, 49) < 2^95), then as doubles.
    WilcoxonDistribution(int m, int n) : m_(m), n_(n) {
        const size_t top = static_cast<size_t>(m) * n;
        std::vector<__int128> c(top + static_cast<size_t>(m) + 2, 0);
        c[0] = 1;
        size_t degree = 0;
        for (int i = 1; i <= m; ++i) {
            const size_t up = static_cast<size_t>(n) + i;
            for (size_t d = degree + up; d >= up; --d) c[d] -= c[d - up];  // * (1 - q^(n+i))
            degree += up;
            for (size_t d = i; d <= degree; ++d) c[d] += c[d - i];  // / (1 - q^i), exact
            degree -= i;
        }
        __int128 total = 0;
        freq_.resize(top + 1);
        for (size_t d = 0; d <= top; ++d) {
            freq_[d] = static_cast<double>(c[d]);
            total += c[d];
        }
        total_ = static_cast<double>(total);
    }

    // P(U <= q) (or P(U > q)), summing the shorter tail as R's pwilcox does.
    double cdf(double q, bool lower_tail = true) const {
        const double mn = static_cast<double>(m_) * n_;
        q = std::floor(q + 1e-7);
        if (q < 0) return lower_tail ? 0 : 1;
        if (q >= mn) return lower_tail ? 1 : 0;
        double p = 0;
        if (q <= mn / 2) {
            for (int i = 0; i <= static_cast<int>(q); ++i) p += freq_[i] / total_;
        } else {
            const int stop = static_cast<int>(mn - q);
            for (int i = 0; i < stop; ++i) p += freq_[i] / total_;
            lower_tail = !lower_tail;
        }
        return lower_tail ? p : 0.5 - p + 0.5;
    }

    // Smallest q with P(U <= q) >= x (R's qwilcox, with its 10 eps fuzz).
    int quantile(double x) const {
        const double eps = std::numeric_limits<double>::epsilon();
        double p = 0;
        int q = 0;
        if (x <= 0.5) {
            x -= 10 * eps;
            for (;;) {
                p += freq_[q] / total_;
                if (p >= x || q + 1 == static_cast<int>(freq_.size())) break;
                ++q;
            }
        } else {
            x = 1 - x + 10 * eps;
            for (;;) {
                p += freq_[q] / total_;
                if (p > x || q + 1 == static_cast<int>(freq_.size())) {
                    q = m_ * n_ - q;
                    break;
                }
                ++q;
            }
        }
        return q;
    }

private:
    int m_, n_;
    std::vector<double> freq_;
    double total_ = 1;
};

bool exact_sizes(size_t na, size_t nb) { return na < 50 && nb < 50; }

// ---------------------------------------------------------------------------
// Order statistics of the pairwise differences b_i - a_j without forming them.
//
// With b ascending (rows) and a descending (columns), M(i, j) = b_i - a_j is
// non-decreasing along rows and columns: rounding to double is monotone, so
// the computed differences keep the order of the exact ones. Every count
// below compares the computed difference b_i - a_j with the threshold, never
// b_i with a_j + d, so the counts agree with the differences themselves.
class PairwiseDifferences {
public:
    PairwiseDifferences(const std::vector<double>& a_sorted, const std::vector<double>& b_sorted)
        : b_(b_sorted), a_(a_sorted.rbegin(), a_sorted.rend()),
          total_(static_cast<uint64_t>(a_.size()) * b_.size()) {}

    uint64_t size() const { return total_; }

    // Narrows the candidates once to a bracket that holds the ranks kmin..kmax
    // (1-based); select() for a rank in it starts from there. The interval
    // bounds and the median are close in rank for large samples, so they
    // share the first, costliest rounds.
    void focus(uint64_t kmin, uint64_t kmax) {
        reset();
        for (;;) {
            const uint64_t live = upto_ - below_;
            // A round cannot leave fewer than the ranks' span: stop where
            // it would not cut what is left by 4 at least.
            if (live <= gather_limit() || (kmax - kmin) * 4 > live) break;
            const auto& sample = draw_sample(live);
            const double v1 = pivot(sample, kmin, live, -1), v2 = pivot(sample, kmax, live, +1);
            const auto [le, lt] = count_both(v1, v2);
            if (le < kmin) {
                lo_.swap(le_);
                below_ = le;
            }
            if (lt >= kmax) {
                hi_.swap(lt_);
                upto_ = lt;
            }
            if ((upto_ - below_) * 4 > live) break;  // the ranks span most of what is left
        }
        focus_lo_ = lo_;
        focus_hi_ = hi_;
        focus_below_ = below_;
        focus_upto_ = upto_;
        focused_ = true;
    }

    // The k-th smallest difference (1-based, 1 <= k <= size()) and the
    // (k+1)-th (the k-th again when k == size()).
    std::pair<double, double> select(uint64_t k) {
        if (focused_ && focus_below_ < k && k <= focus_upto_) {
            lo_ = focus_lo_;
            hi_ = focus_hi_;
            below_ = focus_below_;
            upto_ = focus_upto_;
        } else {
            reset();
        }
        for (;;) {
            const uint64_t live = upto_ - below_;  // candidates: lo_[i] <= j < hi_[i]
            if (live <= gather_limit()) return gather(k);
            // Floyd-Rivest: two pivots from a random sample of the candidates
            // that bracket the k-th closely; the candidates shrink ~40-fold a
            // round. v1 is expected below the k-th and v2 above it: count
            // <= v1 and < v2, and the other count only when that fails.
            // Both counts in one pass (<= v1 and < v2), the other count of
            // a pivot only when the k-th turns out not to lie between them.
            const auto& sample = draw_sample(live);
            const double v1 = pivot(sample, k, live, -1), v2 = pivot(sample, k, live, +1);
            auto [le, lt] = count_both(v1, v2);
            if (le >= k) {
                lt = count<true>(v1, lt_);
                if (lt < k) return answer(v1, k, le);
                hi_.swap(lt_);
                upto_ = lt;
                continue;
            }
            lo_.swap(le_);
            below_ = le;
            if (v2 == v1) continue;
            if (lt >= k) {
                hi_.swap(lt_);
                upto_ = lt;
                continue;
            }
            le = count<false>(v2, le_);
            if (le >= k) return answer(v2, k, le);
            lo_.swap(le_);
            below_ = le;
        }
    }

private:
    double at_(size_t i, size_t j) const { return b_[i] - a_[j]; }

    void reset() {
        lo_.assign(b_.size(), 0);
        hi_.assign(b_.size(), static_cast<uint32_t>(a_.size()));
        below_ = 0;
        upto_ = total_;
    }

    // Few enough candidates to gather them: linear in the input.
    uint64_t gather_limit() const { return b_.size() + a_.size() + 4096; }

    // A sorted sample, with replacement, of the live candidates.
    const std::vector<double>& draw_sample(uint64_t live) {
        const size_t s = static_cast<size_t>(std::clamp<uint64_t>(live / 16, 1024, 16384));
        ranks_.resize(s);
        std::uniform_int_distribution<uint64_t> pick(0, live - 1);
        for (auto& r : ranks_) r = pick(rng_);
        std::sort(ranks_.begin(), ranks_.end());
        sample_.clear();
        uint64_t acc = 0;
        size_t at = 0;
        for (size_t i = 0; i < b_.size() && at < s; ++i) {
            const uint64_t width = hi_[i] - lo_[i];
            for (; at < s && ranks_[at] < acc + width; ++at)
                sample_.push_back(at_(i, lo_[i] + (ranks_[at] - acc)));
            acc += width;
        }
        std::sort(sample_.begin(), sample_.end());
        return sample_;
    }

    // The sample value three standard errors below (side -1) or above (+1)
    // where rank k of the whole set falls among the live candidates.
    double pivot(const std::vector<double>& sample, uint64_t k, uint64_t live, int side) const {
        const double s = static_cast<double>(sample.size());
        const double t = (static_cast<double>(k - below_) - 0.5) / static_cast<double>(live);
        const double x = t * s + side * (3 * std::sqrt(s * t * (1 - t)) + 2);
        return sample[static_cast<size_t>(std::clamp(x, 0.0, s - 1))];
    }

    // For every row, how many entries are <= v (or < v when Strict), into
    // pos; returns the total. Positions stay within [lo_, hi_], where the
    // answer lies, and fall row by row: O(rows + cols).
    template <bool Strict>
    uint64_t count(double v, std::vector<uint32_t>& pos) {
        pos.resize(b_.size());
        uint32_t* const out = pos.data();
        uint32_t r = hi_[0];
        uint64_t total = 0;
        for (size_t i = 0; i < b_.size(); ++i) total += out[i] = step<Strict>(i, v, r);
        return total;
    }

    // count<false>(v1) into le_ and count<true>(v2) into lt_, in one pass:
    // each row's position depends on the last row's, a chain of loads and
    // compares, so the rows are taken in two halves, each half's chain
    // starting from its first row's upper bound, and the four independent
    // chains (two pivots, two halves) run side by side in about the time of
    // one.
    std::pair<uint64_t, uint64_t> count_both(double v1, double v2) {
        const size_t rows = b_.size(), half = rows / 2;
        le_.resize(rows);
        lt_.resize(rows);
        uint32_t *const le = le_.data(), *const lt = lt_.data();
        uint32_t r1 = hi_[0], r2 = hi_[0], s1 = hi_[half], s2 = hi_[half];
        uint64_t t1 = 0, t2 = 0;
        for (size_t i = 0, j = half; i < half; ++i, ++j) {
            t1 += le[i] = step<false>(i, v1, r1);
            t2 += lt[i] = step<true>(i, v2, r2);
            t1 += le[j] = step<false>(j, v1, s1);
            t2 += lt[j] = step<true>(j, v2, s2);
        }
        for (size_t j = 2 * half; j < rows; ++j) {  // an odd row left over
            t1 += le[j] = step<false>(j, v1, s1);
            t2 += lt[j] = step<true>(j, v2, s2);
        }
        return {t1, t2};
    }

    // Row i's count of entries <= v (< v when Strict), from r, the last
    // row's (the counts fall row by row), clamped to [lo_[i], hi_[i]].
    template <bool Strict>
    [[gnu::always_inline]] uint32_t step(size_t i, double v, uint32_t& r) const {
        const double bi = b_[i];
        const double* const a = a_.data();
        const uint32_t l = lo_[i];
        r = std::max(l, std::min(r, hi_[i]));
        auto above = [&](uint32_t j) {  // entry j - 1 is past v
            const double d = bi - a[j - 1];
            return Strict ? d >= v : d > v;
        };
        // The position moves about cols / rows per row: two branch-free
        // steps (entry max(r, 1) - 1 is always readable), then a loop.
        r -= static_cast<uint32_t>((r > l) & above(std::max<uint32_t>(r, 1)));
        r -= static_cast<uint32_t>((r > l) & above(std::max<uint32_t>(r, 1)));
        while (r > l && above(r)) --r;
        return r;
    }

    // The k-th is v; le_ holds the per-row counts of entries <= v (le total).
    std::pair<double, double> answer(double v, uint64_t k, uint64_t le) const {
        return {v, k < total_ && le == k ? min_from(le_) : v};
    }

    // The smallest entry at or after pos[i] in any row.
    double min_from(const std::vector<uint32_t>& pos) const {
        double m = std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < b_.size(); ++i)
            if (pos[i] < a_.size()) m = std::min(m, at_(i, pos[i]));
        return m;
    }

    std::pair<double, double> gather(uint64_t k) {
        std::vector<double> c;
        for (size_t i = 0; i < b_.size(); ++i)
            for (uint32_t j = lo_[i]; j < hi_[i]; ++j) c.push_back(at_(i, j));
        const size_t need = static_cast<size_t>(k - below_);  // 1..c.size()
        std::nth_element(c.begin(), c.begin() + (need - 1), c.end());
        const double kth = c[need - 1];
        double next = kth;
        if (need < c.size())
            next = *std::min_element(c.begin() + need, c.end());
        else if (k < total_)
            next = min_from(hi_);  // everything past hi_ is above the candidates
        return {kth, next};
    }

    const std::vector<double>& b_;
    std::vector<double> a_;  // descending
    uint64_t total_;
    std::vector<uint32_t> lo_, hi_, le_, lt_;
    uint64_t below_ = 0, upto_ = 0;  // sum(lo_), sum(hi_)
    std::vector<uint32_t> focus_lo_, focus_hi_;
    uint64_t focus_below_ = 0, focus_upto_ = 0;
    bool focused_ = false;
    std::vector<uint64_t> ranks_;
    std::vector<double> sample_;
    std::mt19937_64 rng_{0x9e3779b97f4a7c15ULL};  // fixed: only the run time is random
};

}  // namespace

std::vector<double> sorted_ascending(std::span<const double> values) { return sorted(values); }

MannWhitney mann_whitney(std::span<const double> baseline, std::span<const double> candidate) {
    return mann_whitney_sorted(sorted(baseline), sorted(candidate));
}

MannWhitney mann_whitney_sorted(const std::vector<double>& a, const std::vector<double>& b) {
    check_inputs(a, b);
    const Pooled pooled = pool(a, b);
    const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
    const double mn = na * nb;
    MannWhitney r;
    r.u = pooled.u;
    r.ties = pooled.ties;
    r.probability_of_superiority = r.u / mn;
    if (!pooled.ties && exact_sizes(a.size(), b.size())) {
        r.exact = true;
        r.method = "exact";
        const WilcoxonDistribution dist(static_cast<int>(b.size()), static_cast<int>(a.size()));
        const double p = r.u > mn / 2 ? dist.cdf(r.u - 1, false) : dist.cdf(r.u);
        r.p = std::min(1.0, 2 * p);
        return r;
    }
    r.method = "normal approximation, tie and continuity corrected";
    if (pooled.all_equal) {  // sigma = 0: no evidence either way (R: NaN)
        r.p = 1;
        return r;
    }
    const double n = na + nb;
    const double sigma = std::sqrt((mn / 12) * ((n + 1) - pooled.tie_sum / (n * (n - 1))));
    const double dz = r.u - mn / 2;
    const double correction = dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0.0;
    const double z = (dz - correction) / sigma;
    // 2 min(Phi(z), 1 - Phi(z)), without R's cancellation in 1 - Phi(z).
    r.p = std::min(1.0, 2 * normal_upper(std::fabs(z)));
    return r;
}

HodgesLehmann hodges_lehmann(std::span<const double> baseline, std::span<const double> candidate,
                             double confidence) {
    return hodges_lehmann_sorted(sorted(baseline), sorted(candidate), confidence);
}

HodgesLehmann hodges_lehmann_sorted(const std::vector<double>& a, const std::vector<double>& b,
                                    double confidence) {
    check_inputs(a, b);
    if (!(confidence > 0 && confidence < 1))
        throw std::invalid_argument("rank test: confidence must lie in (0, 1)");
    const uint64_t total = static_cast<uint64_t>(a.size()) * b.size();
    const double mn = static_cast<double>(total);
    const double alpha = 1 - confidence;
    HodgesLehmann r;

    // The ranks (1-based) of the interval bounds among the sorted differences.
    uint64_t k_lower, k_upper;
    const Pooled pooled = pool(a, b);
    if (!pooled.ties && exact_sizes(a.size(), b.size())) {
        // R: qu = qwilcox(alpha/2, nb, na) (1 when 0), ql = nb na - qu,
        // interval (diffs[qu], diffs[ql + 1]).
        const WilcoxonDistribution dist(static_cast<int>(b.size()), static_cast<int>(a.size()));
        uint64_t qu = static_cast<uint64_t>(dist.quantile(alpha / 2));
        if (qu == 0) qu = 1;
        k_lower = qu;
        k_upper = total - qu + 1;
        r.achieved_confidence = 1 - 2 * dist.cdf(static_cast<double>(qu) - 1);
    } else {
        // Between two consecutive distinct differences d, the statistic of
        // (b - d) against a is, with m the number of differences below d,
        //   W(m) = (mn/2 - m - 0.5 sign(mn/2 - m)) / sigma0,
        // where sigma0 counts only the ties within each sample (no b_i - d
        // equals an a_j there). W falls as m grows. R's uniroot looks for
        // where W crosses +-z; that is the difference number m at which W
        // first drops below the quantile, reported here exactly. (Exactly at
        // a difference extra ties change sigma, which moves nothing: W jumps
        // there either way.)
        const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
        const double n = na + nb;
        const double within = tie_sum_sorted(a) + tie_sum_sorted(b);
        // sigma0 > 0 whenever both samples are non-empty: shifted off each
        // other, the two samples never form a single tie group.
        const double sigma0 = std::sqrt((mn / 12) * ((n + 1) - within / (n * (n - 1))));
        const double z = boost::math::quantile(
            boost::math::complement(boost::math::normal_distribution<double>(), alpha / 2));
        auto w = [&](double m) {
            const double dz = mn / 2 - m;
            const double correction = dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0.0;
            return (dz - correction) / sigma0;
        };
        // Smallest m in [0, mn] with w(m) < target (mn + 1 when none), from a
        // guess that is off by at most a step or two.
        auto first_below = [&](double target, double guess) {
            double m = std::clamp(std::floor(guess), 0.0, mn);
            while (m > 0 && w(m - 1) < target) --m;
            while (m <= mn && !(w(m) < target)) ++m;
            return m;
        };
        // Where W never crosses, R returns the extreme differences.
        const auto rank = [&](double m) { return static_cast<uint64_t>(std::clamp(m, 1.0, mn)); };
        k_lower = rank(first_below(z, mn / 2 - 0.5 - z * sigma0));
        k_upper = rank(first_below(-z, mn / 2 + 0.5 + z * sigma0));
        r.achieved_confidence = confidence;
    }

    PairwiseDifferences diffs(a, b);
    const uint64_t k_median = (total + 1) / 2;  // and k_median + 1 when total is even
    diffs.focus(std::min(k_lower, k_median), std::max(k_upper, k_median));
    const auto [m1, m2] = diffs.select(k_median);
    r.estimate = total % 2 ? m1 : mean_of_middles(m1, m2);
    r.ci = {diffs.select(k_lower).first, diffs.select(k_upper).first};
    return r;
}

}  // namespace gfxstat::analysis
