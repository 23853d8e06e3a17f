// SPDX-License-Identifier: MIT
#include "analysis/signed_rank.h"
#include "analysis/rank_formulas.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include <boost/math/distributions/normal.hpp>

namespace gfxstat::analysis {
namespace {

// ---------------------------------------------------------------------------
// Input checks and the nonzero differences

// n(n+1)/2 Walsh averages and rank sums up to that stay exact in a double.
constexpr size_t kMaxValues = size_t{1} << 26;

void check_inputs(std::span<const double> d) {
    if (d.size() > kMaxValues) throw std::length_error("signed-rank test: too many differences");
    for (double v : d)
        if (!std::isfinite(v)) throw std::invalid_argument("signed-rank test: non-finite difference");
}

// The nonzero differences, ascending (R drops the zeros before anything else).
std::vector<double> nonzero_sorted(std::span<const double> d) {
    std::vector<double> x;
    x.reserve(d.size());
    for (double v : d)
        if (v != 0) x.push_back(v);
    std::sort(x.begin(), x.end());
    return x;
}

// The signed-rank statistic of x as R's rank(abs(x)) gives it.
struct Ranked {
    double v = 0;        // sum of the midranks of |x| over the positive x
    double tie_sum = 0;  // sum(t^3 - t) over the groups of equal |x|
    bool ties = false;
};

Ranked rank_absolute(std::vector<double> x) {  // x: nonzero values, any order
    std::sort(x.begin(), x.end(), [](double a, double b) { return std::fabs(a) < std::fabs(b); });
    Ranked r;
    for (size_t i = 0; i < x.size();) {
        size_t j = i + 1;
        size_t positive = x[i] > 0;
        while (j < x.size() && std::fabs(x[j]) == std::fabs(x[i])) positive += x[j++] > 0;
        const double t = static_cast<double>(j - i);
        const double midrank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
        r.v += midrank * static_cast<double>(positive);
        if (j - i > 1) {
            r.ties = true;
            r.tie_sum += t * t * t - t;
        }
        i = j;
    }
    return r;
}

double continuity(double dz) { return dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0.0; }

// sqrt(Var V) for n nonzero values with the given tie sum: n(n+1)(2n+1)/24
// less sum(t^3 - t)/48. Positive for n >= 1, even when all n are tied.
double sigma_v(double n, double tie_sum) {
    return std::sqrt(n * (n + 1) * (2 * n + 1) / 24 - tie_sum / 48);
}

// ---------------------------------------------------------------------------
// The exact null distribution of V for n nonzero values, no ties.

class SignedRankDistribution {
public:
    // Frequencies of V = 0..n(n+1)/2: the number of subsets of {1..n} with
    // that sum, by adding one rank at a time. Every count and every partial
    // sum is below 2^n < 2^50: exact in uint64, and each probability
    // count / 2^n is exact in a double.
    explicit SignedRankDistribution(int n) : n_(n), top_(static_cast<uint64_t>(n) * (n + 1) / 2) {
        freq_.assign(top_ + 1, 0);
        freq_[0] = 1;
        uint64_t reach = 0;
        for (uint64_t k = 1; k <= static_cast<uint64_t>(n); ++k) {
            reach += k;
            for (uint64_t v = reach; v >= k; --v) freq_[v] += freq_[v - k];
        }
        scale_ = std::ldexp(1.0, -n);
    }

    // P(V <= q), with q rounded as R's psignrank does.
    double cdf(double q) const {
        q = std::nearbyint(q + 1e-7);
        if (q < 0) return 0;
        if (q >= static_cast<double>(top_)) return 1;
        uint64_t count = 0;
        for (uint64_t i = 0; i <= static_cast<uint64_t>(q); ++i) count += freq_[i];
        return static_cast<double>(count) * scale_;
    }

    // Smallest q with P(V <= q) >= x, for x <= 0.5 (R's qsignrank, with its
    // 10 eps fuzz).
    uint64_t quantile(double x) const {
        x -= 10 * std::numeric_limits<double>::epsilon();
        uint64_t count = 0;
        for (uint64_t q = 0; q < top_; ++q) {
            count += freq_[q];
            if (static_cast<double>(count) * scale_ >= x) return q;
        }
        return top_;
    }

    uint64_t top() const { return top_; }

private:
    int n_;
    uint64_t top_;
    std::vector<uint64_t> freq_;
    double scale_ = 1;
};

bool exact_case(size_t n, bool ties, size_t zeros) { return n < 50 && !ties && zeros == 0; }

// ---------------------------------------------------------------------------
// Order statistics of the Walsh averages (x_i + x_j) / 2, i <= j, without
// forming them.
//
// With x ascending, the average is non-decreasing in i and in j: each is
// the correctly rounded (x_i + x_j) / 2 (the halving is exact, and the
// overflow branch rounds the same exact value), and rounding is monotone.
// So the averages <= v in row i are j = i..J(i) with J falling as i grows:
// one pass counts them all. The k-th smallest average is the smallest
// double v with count(<= v) >= k, found by bisection on the doubles' order-
// preserving 64-bit keys: at most 64 counts.
class WalshAverages {
public:
    explicit WalshAverages(const std::vector<double>& x_sorted) : x_(x_sorted) {}

    uint64_t size() const {
        const uint64_t n = x_.size();
        return n * (n + 1) / 2;
    }

    static double average(double a, double b) {
        const double s = a + b;
        return std::isfinite(s) ? s * 0.5 : a * 0.5 + b * 0.5;
    }

    // The k-th smallest average (1-based, 1 <= k <= size()).
    double select(uint64_t k) const {
        uint64_t lo = key(x_.front()), hi = key(x_.back());  // the smallest and largest averages
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo) / 2;
            if (count_at_most(value(mid)) >= k)
                hi = mid;
            else
                lo = mid + 1;
        }
        return value(lo) + 0.0;  // -0.0 and +0.0 count alike; report +0.0
    }

private:
    uint64_t count_at_most(double v) const {
        const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(x_.size());
        std::ptrdiff_t j = n - 1;
        uint64_t total = 0;
        for (std::ptrdiff_t i = 0; i < n; ++i) {
            while (j >= i && average(x_[i], x_[j]) > v) --j;
            if (j < i) break;  // row i's smallest, (x_i + x_i) / 2, is past v: so are the rest
            total += static_cast<uint64_t>(j - i + 1);
        }
        return total;
    }

    static uint64_t key(double v) {
        const auto u = std::bit_cast<uint64_t>(v);
        return (u >> 63) ? ~u : u | (uint64_t{1} << 63);
    }
    static double value(uint64_t k) {
        return std::bit_cast<double>((k >> 63) ? k & ~(uint64_t{1} << 63) : ~k);
    }

    const std::vector<double>& x_;
};

// R's W(d) of the asymptotic interval, computed the way R does at one
// point: x - d, zeros dropped, midranks of the absolute values, tie- and
// continuity-corrected z. NaN when every x equals d: nothing is left to
// rank and R's sigma is 0.
double r_interval_statistic(const std::vector<double>& x, double d) {
    std::vector<double> xd;
    xd.reserve(x.size());
    for (double v : x)
        if (v - d != 0) xd.push_back(v - d);
    const double nx = static_cast<double>(xd.size());
    const Ranked r = rank_absolute(std::move(xd));
    const double sigma = sigma_v(nx, r.tie_sum);
    if (!(sigma > 0)) return std::numeric_limits<double>::quiet_NaN();
    const double dz = r.v - nx * (nx + 1) / 4;
    return (dz - continuity(dz)) / sigma;
}

double sorted_median(const std::vector<double>& s) {
    const size_t m = s.size();
    return m % 2 ? s[m / 2] : mean_of_middles(s[m / 2 - 1], s[m / 2]);
}

}  // namespace

SignedRank wilcoxon_signed_rank(std::span<const double> differences) {
    check_inputs(differences);
    std::vector<double> x = nonzero_sorted(differences);
    SignedRank r;
    r.n = x.size();
    r.zeros = differences.size() - x.size();
    r.method = "normal approximation, tie and continuity corrected";
    if (r.n == 0) {  // nothing to rank (R: NaN)
        r.defined = false;
        r.p = 1;
        return r;
    }
    const Ranked ranked = rank_absolute(x);
    r.v = ranked.v;
    r.ties = ranked.ties;
    const double n = static_cast<double>(r.n);
    if (exact_case(r.n, r.ties, r.zeros)) {
        r.exact = true;
        r.method = "exact";
        const SignedRankDistribution dist(static_cast<int>(r.n));
        // P(V >= v) = P(V <= n(n+1)/2 - v) by symmetry, exactly what R's
        // psignrank(v - 1, n, lower.tail = FALSE) is.
        const double p = r.v > n * (n + 1) / 4 ? dist.cdf(static_cast<double>(dist.top()) - r.v) : dist.cdf(r.v);
        r.p = std::min(1.0, 2 * p);
        return r;
    }
    const double sigma = sigma_v(n, ranked.tie_sum);  // > 0 for n >= 1
    const double dz = r.v - n * (n + 1) / 4;
    const double z = (dz - continuity(dz)) / sigma;
    // 2 min(Phi(z), 1 - Phi(z)), without R's cancellation in 1 - Phi(z).
    r.p = std::min(1.0, 2 * normal_upper(std::fabs(z)));
    return r;
}

OneSampleHodgesLehmann hodges_lehmann_one_sample(std::span<const double> differences, double confidence) {
    check_inputs(differences);
    if (!(confidence > 0 && confidence < 1))
        throw std::invalid_argument("signed-rank test: confidence must lie in (0, 1)");
    const std::vector<double> x = nonzero_sorted(differences);
    const size_t zeros = differences.size() - x.size();
    OneSampleHodgesLehmann r;
    r.n = x.size();
    if (x.empty()) {  // every difference is 0 (R: NaN)
        r.ci = {0, 0};
        return r;
    }
    const WalshAverages walsh(x);
    const uint64_t total = walsh.size();
    const uint64_t k_median = (total + 1) / 2;  // and k_median + 1 when total is even
    r.estimate = total % 2 ? walsh.select(k_median)
                           : mean_of_middles(walsh.select(k_median), walsh.select(k_median + 1));
    const double alpha = 1 - confidence;

    if (exact_case(x.size(), rank_absolute(x).ties, zeros)) {
        // R: qu = qsignrank(alpha/2, n) (1 when 0), ql = n(n+1)/2 - qu,
        // interval (walsh[qu], walsh[ql + 1]).
        const SignedRankDistribution dist(static_cast<int>(x.size()));
        uint64_t qu = dist.quantile(alpha / 2);
        if (qu == 0) qu = 1;
        r.exact = true;
        r.ci = {walsh.select(qu), walsh.select(total - qu + 1)};
        r.achieved_confidence = 1 - 2 * dist.cdf(static_cast<double>(qu) - 1);
        return r;
    }

    // R brackets its root search by the statistic at the smallest and the
    // largest difference (where that difference itself drops out as a zero).
    // NaN there means every nonzero difference is equal (R: NaN interval).
    const double w_min = r_interval_statistic(x, x.front());
    const double w_max = r_interval_statistic(x, x.back());
    if (!std::isfinite(w_min) || !std::isfinite(w_max)) {
        r.ci = {r.estimate, r.estimate};
        return r;
    }
    // Where those do not reach the quantiles, R doubles alpha until they do
    // ("requested conf.level not achievable"). w_min >= 0 >= w_max, so once
    // alpha >= 1 (quantile <= 0) both are reached and the loop ends.
    const boost::math::normal_distribution<double> normal;
    double used = alpha;
    for (;;) {
        if (used >= 1) break;
        const double z = boost::math::quantile(boost::math::complement(normal, used / 2));
        if (w_min - z < 0 || w_max + z > 0)
            used *= 2;
        else
            break;
    }
    if (used >= 1) {  // R: rep(median(x), 2), conf.level 0
        const double m = sorted_median(x);
        r.ci = {m, m};
        return r;
    }
    r.achieved_confidence = used != alpha ? 1 - used : confidence;

    // Between two consecutive distinct Walsh averages, with m of them below
    // d, no x_i - d is 0 and |x_i - d| ties only where the x_i are equal;
    // the statistic of x - d is then
    //   W(m) = (N/2 - m - 0.5 sign(N/2 - m)) / sigma0,
    // N = n(n+1)/2, sigma0 counting the groups of equal x. W falls as m
    // grows. R's uniroot looks for where W crosses +-z; that is the Walsh
    // average number m at which W first drops below the quantile, reported
    // here exactly.
    const double n = static_cast<double>(x.size());
    const double big_n = static_cast<double>(total);
    const double sigma0 = sigma_v(n, tie_sum_sorted(x));
    const double z = boost::math::quantile(boost::math::complement(normal, used / 2));
    auto w = [&](double m) {
        const double dz = big_n / 2 - m;
        return (dz - continuity(dz)) / sigma0;
    };
    // Smallest m in [0, N] with w(m) < target (N + 1 when none), from a guess
    // that is off by at most a step or two.
    auto first_below = [&](double target, double guess) {
        double m = std::clamp(std::floor(guess), 0.0, big_n);
        while (m > 0 && w(m - 1) < target) --m;
        while (m <= big_n && !(w(m) < target)) ++m;
        return m;
    };
    // The widening above keeps both crossings within [min(x), max(x)]; the
    // clamp only guards the ends.
    const auto rank = [&](double m) { return static_cast<uint64_t>(std::clamp(m, 1.0, big_n)); };
    const uint64_t k_lower = rank(first_below(z, big_n / 2 - 0.5 - z * sigma0));
    const uint64_t k_upper = rank(first_below(-z, big_n / 2 + 0.5 + z * sigma0));
    r.ci = {walsh.select(k_lower), walsh.select(k_upper)};
    return r;
}

}  // namespace gfxstat::analysis
