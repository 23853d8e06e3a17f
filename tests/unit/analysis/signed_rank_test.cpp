// SPDX-License-Identifier: MIT
// The Wilcoxon signed-rank test and the one-sample Hodges-Lehmann interval
// against independent references:
//  * tests/data/paired_reference.json, written by
//    tests/data/make_paired_reference.py: the exact null distribution as
//    integer counts in Python (checked there against scipy's exact path),
//    scipy.stats.wilcoxon(zero_method="wilcox", correction=True,
//    method="approx") for the normal approximation, brute-force sorted Walsh
//    averages, and R's W(d) evaluated literally for the normal-case
//    interval (its exact step, and a brentq imitation of R's uniroot);
//  * brute force in this file: all 2^n sign flips for exact p-values, all
//    Walsh averages sorted, R's W(d) between every two Walsh averages.
#include "analysis/signed_rank.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gfxstat::analysis {
namespace {

using nlohmann::json;

const json& reference() {
    static const json doc = [] {
        std::ifstream in(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/paired_reference.json");
        if (!in) throw std::runtime_error("cannot open tests/data/paired_reference.json");
        return json::parse(in);
    }();
    return doc;
}

double rel_tol(double expected, double rel) { return std::max(std::fabs(expected) * rel, 1e-300); }

// ---------------------------------------------------------------------------
// Against the Python reference

TEST(SignedRankReference, TestMatchesExactEnumerationAndScipy) {
    int exact = 0, normal = 0;
    for (const json& c : reference().at("signed_rank")) {
        SCOPED_TRACE(c.at("id").get<std::string>());
        const auto d = c.at("differences").get<std::vector<double>>();
        const json& want = c.at("expect");
        const SignedRank r = wilcoxon_signed_rank(d);
        EXPECT_EQ(r.n, want.at("n").get<size_t>());
        EXPECT_EQ(r.zeros, want.at("zeros").get<size_t>());
        EXPECT_EQ(r.v, want.at("v").get<double>());
        EXPECT_EQ(r.exact, want.at("exact").get<bool>());
        EXPECT_EQ(r.ties, want.at("ties").get<bool>());
        EXPECT_EQ(r.defined, want.at("defined").get<bool>());
        EXPECT_EQ(r.method, want.at("method").get<std::string>());
        const double p = want.at("p");
        EXPECT_NEAR(r.p, p, rel_tol(p, 1e-9));
        if (want.contains("p_scipy")) {
            const double ps = want.at("p_scipy");
            EXPECT_NEAR(r.p, ps, rel_tol(ps, 1e-6));
        }
        (r.exact ? exact : normal)++;
    }
    EXPECT_GE(exact, 15);
    EXPECT_GE(normal, 10);
}

TEST(SignedRankReference, HodgesLehmannMatchesWalshAveragesAndR) {
    int exact = 0, normal = 0, widened = 0;
    for (const json& c : reference().at("signed_rank")) {
        SCOPED_TRACE(c.at("id").get<std::string>());
        const auto d = c.at("differences").get<std::vector<double>>();
        const double level = c.at("confidence");
        const json& want = c.at("expect").at("hodges_lehmann");
        const OneSampleHodgesLehmann r = hodges_lehmann_one_sample(d, level);
        EXPECT_EQ(r.n, c.at("expect").at("n").get<size_t>());
        const double est = want.at("estimate");
        EXPECT_NEAR(r.estimate, est, rel_tol(est, 1e-12));
        EXPECT_EQ(r.exact, want.at("exact").get<bool>());
        const double lo = want.at("ci")[0], hi = want.at("ci")[1];
        EXPECT_NEAR(r.ci[0], lo, rel_tol(lo, 1e-12));
        EXPECT_NEAR(r.ci[1], hi, rel_tol(hi, 1e-12));
        const double achieved = want.at("achieved_confidence");
        EXPECT_NEAR(r.achieved_confidence, achieved, 1e-12);
        if (r.exact) {
            ++exact;
            continue;
        }
        ++normal;
        if (want.contains("r_uniroot_ci")) {
            // R's uniroot stops within its (absolute) tolerance of the step.
            const double rlo = want.at("r_uniroot_ci")[0], rhi = want.at("r_uniroot_ci")[1];
            EXPECT_NEAR(r.ci[0], rlo, 1e-4 + rel_tol(rlo, 1e-9));
            EXPECT_NEAR(r.ci[1], rhi, 1e-4 + rel_tol(rhi, 1e-9));
        }
        if (want.contains("median_bracket")) {
            // R's estimate here is a root of the uncorrected statistic: a
            // point between the two middle Walsh averages, within uniroot's
            // tolerance. gfxstat's median lies in the same bracket.
            const double blo = want.at("median_bracket")[0], bhi = want.at("median_bracket")[1];
            EXPECT_LE(blo, r.estimate);
            EXPECT_LE(r.estimate, bhi);
            const double re = want.at("r_estimate");
            EXPECT_GE(re, blo - 1e-4);
            EXPECT_LE(re, bhi + 1e-4);
        }
        if (want.contains("alpha_used") && want.at("alpha_used").get<double>() != 1 - level) ++widened;
    }
    EXPECT_GE(exact, 15);
    EXPECT_GE(normal, 10);
    EXPECT_GE(widened, 2);
}

// ---------------------------------------------------------------------------
// Against brute force

// V of x (nonzero values) by midranks of |x|, O(n^2).
double brute_v(const std::vector<double>& x) {
    double v = 0;
    for (double a : x) {
        if (a <= 0) continue;
        double below = 0, equal = 0;
        for (double b : x) {
            below += std::fabs(b) < std::fabs(a);
            equal += std::fabs(b) == std::fabs(a);
        }
        v += below + (equal + 1) / 2;
    }
    return v;
}

// Distinct nonzero |values|, rounded to 3 decimals.
std::vector<double> distinct_sample(std::mt19937_64& rng, int n) {
    std::normal_distribution<double> g(0.3, 1.0);
    for (;;) {
        std::vector<double> x;
        std::set<double> seen;
        for (int i = 0; i < n; ++i) x.push_back(std::round(g(rng) * 1000) / 1000);
        for (double v : x) seen.insert(std::fabs(v));
        if (seen.size() == x.size() && !seen.count(0.0)) return x;
    }
}

// The exact p-value by flipping the signs of |x| in all 2^n ways: R's two-
// sided rule, 2 min(P(V <= v), P(V >= v)).
TEST(SignedRankBrute, ExactPIsTheSignFlipDistribution) {
    std::mt19937_64 rng(20260312);
    for (int n = 1; n <= 14; ++n) {
        for (int rep = 0; rep < 3; ++rep) {
            const auto x = distinct_sample(rng, n);
            const double v = brute_v(x);
            uint64_t le = 0, ge = 0;
            std::vector<double> flipped(x.size());
            for (uint64_t mask = 0; mask < (uint64_t{1} << n); ++mask) {
                for (int i = 0; i < n; ++i) flipped[i] = (mask >> i & 1) ? std::fabs(x[i]) : -std::fabs(x[i]);
                const double w = brute_v(flipped);
                le += w <= v;
                ge += w >= v;
            }
            const double total = std::ldexp(1.0, n);
            const double mean = n * (n + 1) / 4.0;
            const double p = std::min(1.0, 2 * (v > mean ? ge : le) / total);
            const auto r = wilcoxon_signed_rank(x);
            ASSERT_TRUE(r.exact);
            EXPECT_EQ(r.v, v);
            EXPECT_EQ(r.p, p) << "n " << n;
        }
    }
}

std::vector<double> brute_walsh(std::vector<double> x) {
    std::vector<double> w;
    for (size_t i = 0; i < x.size(); ++i)
        for (size_t j = i; j < x.size(); ++j) w.push_back((x[i] + x[j]) / 2);
    std::sort(w.begin(), w.end());
    return w;
}

double brute_median(const std::vector<double>& s) {
    const size_t m = s.size();
    return m % 2 ? s[m / 2] : (s[m / 2 - 1] + s[m / 2]) / 2;
}

// R's W(d) of the asymptotic interval, as R computes it.
double brute_w(const std::vector<double>& x, double d) {
    std::vector<double> xd;
    for (double v : x)
        if (v - d != 0) xd.push_back(v - d);
    const double nx = static_cast<double>(xd.size());
    double v = brute_v(xd), tie_sum = 0;
    std::vector<double> a;
    for (double e : xd) a.push_back(std::fabs(e));
    std::sort(a.begin(), a.end());
    for (size_t i = 0; i < a.size();) {
        size_t j = i;
        while (j < a.size() && a[j] == a[i]) ++j;
        const double t = static_cast<double>(j - i);
        tie_sum += t * t * t - t;
        i = j;
    }
    const double sigma = std::sqrt(nx * (nx + 1) * (2 * nx + 1) / 24 - tie_sum / 48);
    const double dz = v - nx * (nx + 1) / 4;
    const double corr = dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0.0;
    return (dz - corr) / sigma;
}

// Samples with ties and zeros (normal case): the estimate is the median of
// all Walsh averages, and each bound is the Walsh average after which R's
// W(d), evaluated literally between consecutive Walsh averages, first drops
// below the quantile (at the level R's widening arrives at).
TEST(SignedRankBrute, NormalIntervalIsWhereRsStatisticSteps) {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> value(-6, 14);
    int checked = 0;
    for (int rep = 0; rep < 200; ++rep) {
        const int n = 4 + rep % 30;
        std::vector<double> d;
        for (int i = 0; i < n; ++i) d.push_back(value(rng) / 4.0);
        std::vector<double> x;
        for (double v : d)
            if (v != 0) x.push_back(v);
        if (x.size() < 2) continue;
        const auto r = hodges_lehmann_one_sample(d, 0.95);
        const auto w = brute_walsh(x);
        EXPECT_EQ(r.estimate, brute_median(w));
        if (r.exact || r.achieved_confidence == 0) continue;
        // The level R used: 1 - achieved (alpha, possibly doubled).
        const double alpha = 1 - r.achieved_confidence;
        // Normal quantile by bisection on erfc (independent of Boost).
        auto upper_quantile = [](double p) {
            double lo = -10, hi = 10;
            for (int i = 0; i < 200; ++i) {
                const double mid = (lo + hi) / 2;
                (0.5 * std::erfc(mid / std::sqrt(2.0)) > p ? lo : hi) = mid;
            }
            return (lo + hi) / 2;
        };
        const double zq = upper_quantile(alpha / 2);
        std::vector<double> distinct = w;
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        auto step = [&](double target) {
            for (size_t k = 0; k < distinct.size(); ++k) {
                const double after = k + 1 < distinct.size() ? (distinct[k] + distinct[k + 1]) / 2 : distinct[k] + 1;
                if (brute_w(x, after) < target) return distinct[k];
            }
            return std::numeric_limits<double>::quiet_NaN();
        };
        EXPECT_EQ(r.ci[0], step(zq)) << "rep " << rep;
        EXPECT_EQ(r.ci[1], step(-zq)) << "rep " << rep;
        ++checked;
    }
    EXPECT_GE(checked, 150);
}

// The exact interval is (walsh[qu], walsh[N - qu + 1]) with qu from the
// exact distribution (counted here by brute force over sign flips).
TEST(SignedRankBrute, ExactIntervalIsWalshOrderStatistics) {
    std::mt19937_64 rng(11);
    for (int n = 1; n <= 16; ++n) {
        const auto x = distinct_sample(rng, n);
        // P(V <= q) from all 2^n subsets of ranks.
        const int top = n * (n + 1) / 2;
        std::vector<double> freq(top + 1, 0);
        for (uint64_t mask = 0; mask < (uint64_t{1} << n); ++mask) {
            int s = 0;
            for (int i = 0; i < n; ++i)
                if (mask >> i & 1) s += i + 1;
            ++freq[s];
        }
        for (double level : {0.8, 0.9, 0.95, 0.99}) {
            const double alpha = 1 - level;
            double cum = 0;
            int qu = 0;
            for (;; ++qu) {
                cum += freq[qu] / std::ldexp(1.0, n);
                if (cum >= alpha / 2 - 10 * std::numeric_limits<double>::epsilon()) break;
            }
            if (qu == 0) qu = 1;
            double below = 0;
            for (int q = 0; q < qu; ++q) below += freq[q];
            const auto w = brute_walsh(x);
            const auto r = hodges_lehmann_one_sample(x, level);
            ASSERT_TRUE(r.exact);
            EXPECT_EQ(r.ci[0], w[qu - 1]) << n << " " << level;
            EXPECT_EQ(r.ci[1], w[top - qu]) << n << " " << level;
            EXPECT_EQ(r.achieved_confidence, 1 - 2 * below / std::ldexp(1.0, n));
            EXPECT_EQ(r.estimate, brute_median(w));
        }
    }
}

// A few thousand differences: the bisection selects the same Walsh averages
// as sorting all 4.5 million of them.
TEST(SignedRankBrute, LargeSampleEstimateIsTheSortedMedian) {
    std::mt19937_64 rng(3);
    std::normal_distribution<double> g(0.01, 0.05);
    std::vector<double> d(3000);
    for (double& v : d) v = g(rng);
    const auto w = brute_walsh(d);
    const auto r = hodges_lehmann_one_sample(d, 0.95);
    EXPECT_EQ(r.estimate, brute_median(w));
    EXPECT_FALSE(r.exact);
    EXPECT_LT(r.ci[0], r.estimate);
    EXPECT_GT(r.ci[1], r.estimate);
    // Each bound is one of the Walsh averages.
    EXPECT_TRUE(std::binary_search(w.begin(), w.end(), r.ci[0]));
    EXPECT_TRUE(std::binary_search(w.begin(), w.end(), r.ci[1]));
}

// ---------------------------------------------------------------------------
// Closed forms and edge cases

// 1..n: symmetric about (n+1)/2, so the pseudomedian is (n+1)/2 and the
// interval is symmetric about it; every difference is positive: V = N.
TEST(SignedRank, LargeArithmeticSequence) {
    const size_t n = 200000;
    std::vector<double> d(n);
    for (size_t i = 0; i < n; ++i) d[i] = static_cast<double>(i + 1);
    const auto t = wilcoxon_signed_rank(d);
    EXPECT_EQ(t.v, static_cast<double>(n) * (n + 1) / 2);
    EXPECT_EQ(t.p, 0);  // z ~ 775: below the smallest double
    const auto r = hodges_lehmann_one_sample(d, 0.95);
    EXPECT_EQ(r.estimate, (n + 1) / 2.0);
    EXPECT_EQ(r.ci[0] + r.ci[1], static_cast<double>(n + 1));
}

TEST(SignedRank, ZerosAreDroppedAndCounted) {
    const std::vector<double> d{0, 1, -2, 0, 3, 4};
    const auto r = wilcoxon_signed_rank(d);
    EXPECT_EQ(r.n, 4u);
    EXPECT_EQ(r.zeros, 2u);
    EXPECT_EQ(r.v, 1 + 3 + 4);
    EXPECT_FALSE(r.exact);  // zeros rule out R's exact test
    const auto h = hodges_lehmann_one_sample(d, 0.95);
    EXPECT_EQ(h.n, 4u);
    // Walsh averages of {-2, 1, 3, 4}: 10 of them; median of the middle two.
    EXPECT_EQ(h.estimate, brute_median(brute_walsh({-2, 1, 3, 4})));
}

TEST(SignedRank, AllZeroIsUndefined) {
    const std::vector<double> d{0, 0, -0.0};
    const auto r = wilcoxon_signed_rank(d);
    EXPECT_FALSE(r.defined);
    EXPECT_EQ(r.p, 1);
    EXPECT_EQ(r.n, 0u);
    EXPECT_EQ(r.zeros, 3u);
    const auto h = hodges_lehmann_one_sample(d, 0.95);
    EXPECT_EQ(h.estimate, 0);
    EXPECT_EQ(h.ci[0], 0);
    EXPECT_EQ(h.ci[1], 0);
    EXPECT_EQ(h.achieved_confidence, 0);
    const auto e = wilcoxon_signed_rank(std::vector<double>{});
    EXPECT_FALSE(e.defined);
    EXPECT_EQ(e.p, 1);
}

TEST(SignedRank, OppositeSignsTie) {
    const auto r = wilcoxon_signed_rank(std::vector<double>{1, -1, 2, 3});
    EXPECT_TRUE(r.ties);
    EXPECT_FALSE(r.exact);
    EXPECT_EQ(r.v, 1.5 + 3 + 4);
}

TEST(SignedRank, RefusesBadInput) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_THROW(wilcoxon_signed_rank(std::vector<double>{1, nan}), std::invalid_argument);
    EXPECT_THROW(wilcoxon_signed_rank(std::vector<double>{1, -inf}), std::invalid_argument);
    EXPECT_THROW(hodges_lehmann_one_sample(std::vector<double>{1, inf}, 0.95), std::invalid_argument);
    EXPECT_THROW(hodges_lehmann_one_sample(std::vector<double>{1, 2}, 0), std::invalid_argument);
    EXPECT_THROW(hodges_lehmann_one_sample(std::vector<double>{1, 2}, 1), std::invalid_argument);
    EXPECT_THROW(hodges_lehmann_one_sample(std::vector<double>{1, 2}, nan), std::invalid_argument);
}

// Past 2^26 differences the Walsh averages are no longer countable exactly:
// refused before anything is read (an untouched anonymous mapping costs no
// memory).
TEST(SignedRank, RefusesAbsurdSizes) {
    const size_t n = (size_t{1} << 26) + 1;
    void* p = mmap(nullptr, n * sizeof(double), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    const std::span<const double> huge(static_cast<const double*>(p), n);
    EXPECT_THROW(wilcoxon_signed_rank(huge), std::length_error);
    EXPECT_THROW(hodges_lehmann_one_sample(huge, 0.95), std::length_error);
    munmap(p, n * sizeof(double));
}

}  // namespace
}  // namespace gfxstat::analysis
