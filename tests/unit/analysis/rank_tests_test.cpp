// SPDX-License-Identifier: MIT
#include "analysis/rank_tests.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/unit/test_support.h"

namespace gfxstat::analysis {
namespace {

// ---------------------------------------------------------------------------
// Brute force: R's rules applied directly, O(n^2) and worse.

double mean2(double x, double y) { return (x + y) / 2; }

struct BruteRanks {
    double u = 0, tie_sum = 0;
    bool ties = false;
};

// rank(c(b - d, a)) with midranks, then W = sum of the ranks of b - d
// minus nb(nb+1)/2, as R's wilcox.test computes it.
BruteRanks brute_ranks(const std::vector<double>& a, const std::vector<double>& b, double d = 0) {
    std::vector<std::pair<double, int>> pooled;
    for (double v : b) pooled.push_back({v - d, 1});
    for (double v : a) pooled.push_back({v, 0});
    std::sort(pooled.begin(), pooled.end());
    BruteRanks r;
    double rank_sum = 0;
    for (size_t i = 0; i < pooled.size();) {
        size_t j = i;
        while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
        const double mid = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
        for (size_t k = i; k < j; ++k)
            if (pooled[k].second == 1) rank_sum += mid;
        const double t = static_cast<double>(j - i);
        if (j - i > 1) r.ties = true;
        r.tie_sum += t * t * t - t;
        i = j;
    }
    const double nb = static_cast<double>(b.size());
    r.u = rank_sum - nb * (nb + 1) / 2;
    return r;
}

double brute_sigma(double na, double nb, double tie_sum) {
    const double n = na + nb;
    return std::sqrt(na * nb / 12 * ((n + 1) - tie_sum / (n * (n - 1))));
}

// R's W(d) of the asymptotic interval: the continuity-corrected z of b - d
// against a.
double brute_w(const std::vector<double>& a, const std::vector<double>& b, double d) {
    const auto r = brute_ranks(a, b, d);
    const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
    const double dz = r.u - na * nb / 2;
    const double corr = dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0.0;
    return (dz - corr) / brute_sigma(na, nb, r.tie_sum);
}

double upper_normal(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

// Frequencies of U for sizes (m, n) by the textbook recursion on the largest
// pooled value: N(m, n, u) = N(m - 1, n, u - n) + N(m, n - 1, u).
std::vector<double> brute_null(int m, int n) {
    std::vector<std::vector<std::vector<double>>> f(m + 1, std::vector<std::vector<double>>(n + 1));
    for (int i = 0; i <= m; ++i)
        for (int j = 0; j <= n; ++j) {
            auto& c = f[i][j];
            c.assign(static_cast<size_t>(i) * j + 1, 0);
            if (i == 0 || j == 0) {
                c[0] = 1;
                continue;
            }
            for (size_t u = 0; u < f[i - 1][j].size(); ++u) c[u + j] += f[i - 1][j][u];
            for (size_t u = 0; u < f[i][j - 1].size(); ++u) c[u] += f[i][j - 1][u];
        }
    return f[m][n];
}

// P(U <= q), or P(U > q) summed directly (no cancellation).
double brute_cdf(const std::vector<double>& freq, double q, bool lower_tail = true) {
    double total = 0, p = 0;
    for (size_t u = 0; u < freq.size(); ++u) {
        total += freq[u];
        if ((static_cast<double>(u) <= q + 1e-7) == lower_tail) p += freq[u];
    }
    return p / total;
}

std::vector<double> sorted_differences(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> d;
    d.reserve(a.size() * b.size());
    for (double x : b)
        for (double y : a) d.push_back(x - y);
    std::sort(d.begin(), d.end());
    return d;
}

double brute_median(const std::vector<double>& d) {
    const size_t n = d.size();
    return n % 2 ? d[n / 2] : mean2(d[n / 2 - 1], d[n / 2]);
}

struct BruteResult {
    double u = 0, p = 1, estimate = 0, achieved = 0;
    bool exact = false;
    std::array<double, 2> ci{};
};

BruteResult brute(const std::vector<double>& a, const std::vector<double>& b, double confidence) {
    BruteResult r;
    const auto ranks = brute_ranks(a, b);
    const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
    const double mn = na * nb;
    r.u = ranks.u;
    const auto d = sorted_differences(a, b);
    r.estimate = brute_median(d);
    const double alpha = 1 - confidence;
    r.exact = !ranks.ties && a.size() < 50 && b.size() < 50;
    if (r.exact) {
        const auto freq = brute_null(static_cast<int>(b.size()), static_cast<int>(a.size()));
        const double p = r.u > mn / 2 ? brute_cdf(freq, r.u - 1, false) : brute_cdf(freq, r.u);
        r.p = std::min(1.0, 2 * p);
        int qu = 0;
        while (brute_cdf(freq, qu) < alpha / 2 - 10 * std::numeric_limits<double>::epsilon()) ++qu;
        if (qu == 0) qu = 1;
        const size_t ql = d.size() - static_cast<size_t>(qu);
        r.ci = {d[static_cast<size_t>(qu) - 1], d[ql]};
        r.achieved = 1 - 2 * brute_cdf(freq, qu - 1);
        return r;
    }
    const double dz = r.u - mn / 2;
    const double corr = dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0.0;
    r.p = std::min(1.0, 2 * upper_normal(std::fabs((dz - corr) / brute_sigma(na, nb, ranks.tie_sum))));
    // Distinct differences; g(m) = W in the gap after the m-th distinct one
    // (m = 0: below all, m = K: above all) falls with m. The bound is the
    // distinct difference where W first drops below the quantile.
    std::vector<double> u(d);
    u.erase(std::unique(u.begin(), u.end()), u.end());
    const size_t K = u.size();
    auto g = [&](size_t m) {
        double at;
        if (m == 0)
            at = u[0] - std::max(1.0, std::fabs(u[0]));
        else if (m == K)
            at = u[K - 1] + std::max(1.0, std::fabs(u[K - 1]));
        else
            at = u[m - 1] + (u[m] - u[m - 1]) / 2;
        return brute_w(a, b, at);
    };
    auto bound = [&](double target) {
        size_t lo = 0, hi = K + 1;  // smallest m in [0, K] with g(m) < target; K + 1: none
        while (lo < hi) {
            const size_t mid = (lo + hi) / 2;
            if (g(mid) < target)
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo == 0 ? u[0] : lo > K ? u[K - 1] : u[lo - 1];
    };
    // Quantile of the normal by bisection on erfc: independent of Boost.
    double zl = 0, zh = 40;
    for (int i = 0; i < 200; ++i) {
        const double zm = (zl + zh) / 2;
        (upper_normal(zm) > alpha / 2 ? zl : zh) = zm;
    }
    const double z = (zl + zh) / 2;
    r.ci = {bound(z), bound(-z)};
    r.achieved = confidence;
    return r;
}

void expect_matches_brute(const std::vector<double>& a, const std::vector<double>& b,
                          double confidence) {
    const auto want = brute(a, b, confidence);
    const auto mw = mann_whitney(a, b);
    const auto hl = hodges_lehmann(a, b, confidence);
    EXPECT_EQ(mw.u, want.u);
    EXPECT_EQ(mw.exact, want.exact);
    EXPECT_NEAR(mw.p, want.p, 1e-9 * want.p + 1e-300);
    EXPECT_EQ(hl.estimate, want.estimate);
    EXPECT_EQ(hl.ci[0], want.ci[0]);
    EXPECT_EQ(hl.ci[1], want.ci[1]);
    EXPECT_NEAR(hl.achieved_confidence, want.achieved, 1e-12);
}

// ---------------------------------------------------------------------------
// Against R

double rel_tol(double want, double rel) { return rel * std::max(1.0, std::fabs(want)); }

TEST(RankTests, MannWhitneyMatchesR) {
    int compared = 0;
    for (const auto& c : test::reference_cases()["cases"]) {
        SCOPED_TRACE(c["id"].get<std::string>());
        const auto a = test::doubles(c["a"]), b = test::doubles(c["b"]);
        const auto& want = c["two_sample"]["mann_whitney"];
        const auto r = mann_whitney(a, b);
        EXPECT_EQ(r.u, want["W_b"].get<double>());
        EXPECT_EQ(r.ties, want["ties_present"].get<bool>());
        EXPECT_DOUBLE_EQ(r.probability_of_superiority,
                         want["W_b"].get<double>() / static_cast<double>(a.size() * b.size()));
        const auto& rd = want["R_default"];
        if (rd.contains("error")) {
            // Both samples constant and different: R stops (its interval
            // has sigma 0); the p-value itself is well defined.
            const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
            const double n = na + nb;
            const double sigma = std::sqrt(na * nb / 12 *
                                           ((n + 1) - (na * na * na - na + nb * nb * nb - nb) / (n * (n - 1))));
            const double dz = r.u - na * nb / 2;
            const double z = (dz - (dz > 0 ? 0.5 : -0.5)) / sigma;
            EXPECT_FALSE(r.exact);
            EXPECT_NEAR(r.p, 2 * upper_normal(std::fabs(z)), 1e-12);
            continue;
        }
        const bool r_exact = rd["method"].get<std::string>().find("exact") != std::string::npos;
        EXPECT_EQ(r.exact, r_exact);
        EXPECT_EQ(r.method, r_exact ? "exact" : "normal approximation, tie and continuity corrected");
        const double p = rd["p_value"];
        EXPECT_NEAR(r.p, p, 1e-6 * p);
        ++compared;
    }
    EXPECT_GE(compared, 14);
}

TEST(RankTests, HodgesLehmannMatchesR) {
    int exact = 0, approx = 0;
    for (const auto& c : test::reference_cases()["cases"]) {
        SCOPED_TRACE(c["id"].get<std::string>());
        const auto a = test::doubles(c["a"]), b = test::doubles(c["b"]);
        const auto& want = c["two_sample"]["mann_whitney"];
        const double hl_want = want["hodges_lehmann"];
        const auto& rd = want["R_default"];
        const double level = rd.contains("ci_level") ? rd["ci_level"].get<double>() : 0.95;
        const auto r = hodges_lehmann(a, b, level);
        EXPECT_NEAR(r.estimate, hl_want, rel_tol(hl_want, 1e-9));
        if (rd.contains("error")) {
            // Both constant: every difference is the same; R has no interval.
            EXPECT_EQ(r.ci[0], r.estimate);
            EXPECT_EQ(r.ci[1], r.estimate);
            EXPECT_EQ(r.achieved_confidence, level);
            continue;
        }
        const double lo = rd["ci"][0], hi = rd["ci"][1];
        if (rd["method"].get<std::string>().find("exact") != std::string::npos) {
            EXPECT_NEAR(r.ci[0], lo, rel_tol(lo, 1e-9));
            EXPECT_NEAR(r.ci[1], hi, rel_tol(hi, 1e-9));
            EXPECT_NEAR(r.estimate, rd["estimate"].get<double>(), rel_tol(hl_want, 1e-9));
            EXPECT_GE(r.achieved_confidence, level);
            EXPECT_LT(r.achieved_confidence, 1);
            ++exact;
        } else {
            // R's uniroot stops within its tolerance of the exact step.
            EXPECT_NEAR(r.ci[0], lo, rel_tol(lo, 2e-4));
            EXPECT_NEAR(r.ci[1], hi, rel_tol(hi, 2e-4));
            EXPECT_EQ(r.achieved_confidence, level);
            ++approx;
        }
    }
    EXPECT_GE(exact, 10);
    EXPECT_GE(approx, 4);
}

// Where R uses the exact interval, exactRankTests::wilcox.exact gives the
// same one: a second reference for the order statistics.
TEST(RankTests, ExactIntervalIsExactRankTestsInterval) {
    int compared = 0;
    for (const auto& c : test::reference_cases()["cases"]) {
        const auto& want = c["two_sample"]["mann_whitney"];
        const auto& rd = want["R_default"];
        if (rd.contains("error") || rd["method"].get<std::string>().find("exact") == std::string::npos)
            continue;
        SCOPED_TRACE(c["id"].get<std::string>());
        const auto a = test::doubles(c["a"]), b = test::doubles(c["b"]);
        const auto r = hodges_lehmann(a, b, rd["ci_level"].get<double>());
        if (rd["ci_level"].get<double>() != 0.95) continue;
        const auto& ert = want["exactRankTests_exact"];
        EXPECT_NEAR(r.ci[0], ert["ci"][0].get<double>(), rel_tol(r.ci[0], 1e-9));
        EXPECT_NEAR(r.ci[1], ert["ci"][1].get<double>(), rel_tol(r.ci[1], 1e-9));
        ++compared;
    }
    EXPECT_GE(compared, 8);
}

// ---------------------------------------------------------------------------
// Against brute force

// Every arrangement of n values into two groups: the exact p-value from the
// enumerated permutation distribution.
TEST(RankTests, ExactPValueMatchesEnumeration) {
    for (auto [na, nb] : {std::pair{4, 5}, {6, 6}, {1, 7}, {3, 8}, {7, 2}}) {
        const int n = na + nb;
        std::map<int, double> dist;  // U -> count over all C(n, nb) splits
        std::vector<std::pair<std::vector<double>, std::vector<double>>> splits;
        for (uint32_t mask = 0; mask < (1u << n); ++mask) {
            if (__builtin_popcount(mask) != nb) continue;
            std::vector<double> a, b;
            int u = 0, a_below = 0;
            for (int i = 0; i < n; ++i) {
                if (mask >> i & 1) {
                    b.push_back(i * 1.5 - 3);
                    u += a_below;
                } else {
                    a.push_back(i * 1.5 - 3);
                    ++a_below;
                }
            }
            dist[u] += 1;
            splits.push_back({a, b});
        }
        double total = 0;
        for (auto& [u, k] : dist) total += k;
        for (const auto& [a, b] : splits) {
            const auto r = mann_whitney(a, b);
            double le = 0, ge = 0;
            for (auto& [u, k] : dist) {
                if (u <= r.u) le += k;
                if (u >= r.u) ge += k;
            }
            const double want = std::min(1.0, 2 * std::min(le, ge) / total);
            ASSERT_TRUE(r.exact);
            ASSERT_NEAR(r.p, want, 1e-12) << na << " vs " << nb << " u=" << r.u;
        }
    }
}

std::vector<double> draw(std::mt19937_64& rng, size_t n, int kind) {
    std::vector<double> v(n);
    std::normal_distribution<double> normal(100, 7);
    std::uniform_int_distribution<int> small(0, 15);
    for (auto& x : v) {
        switch (kind) {
            case 0: x = normal(rng); break;                                   // no ties
            case 1: x = small(rng); break;                                    // heavy ties
            default: x = std::round(normal(rng) * 4) / 4; break;              // some ties, dyadic
        }
    }
    return v;
}

TEST(RankTests, RandomSamplesMatchBruteForce) {
    std::mt19937_64 rng(20261130);
    const std::pair<size_t, size_t> sizes[] = {
        {1, 1},  {1, 9},   {9, 1},    {2, 3},    {5, 5},    {12, 30},  {49, 49}, {49, 3},
        {50, 4}, {3, 50},  {60, 60},  {1, 300},  {300, 2},  {120, 250}, {300, 300}, {17, 290}};
    const double levels[] = {0.95, 0.8, 0.99, 0.5};
    int cases = 0;
    for (int kind = 0; kind < 3; ++kind)
        for (auto [na, nb] : sizes)
            for (int rep = 0; rep < 2; ++rep) {
                const auto a = draw(rng, na, kind);
                auto b = draw(rng, nb, kind);
                if (rep == 1)
                    for (auto& x : b) x += kind == 0 ? 3.3 : 2;  // a shifted candidate
                const double level = levels[(cases++) % 4];
                SCOPED_TRACE("kind " + std::to_string(kind) + " " + std::to_string(na) + " vs " +
                             std::to_string(nb) + " level " + std::to_string(level));
                expect_matches_brute(a, b, level);
            }
    EXPECT_EQ(cases, 96);
}

// Enough pairs (1.5 million) that the selection samples and narrows in
// rounds rather than gathering everything at once.
TEST(RankTests, ManyPairsMatchBruteForce) {
    std::mt19937_64 rng(7);
    for (int kind = 0; kind < 3; ++kind) {
        SCOPED_TRACE(kind);
        const auto a = draw(rng, 1500, kind);
        auto b = draw(rng, 1000, kind);
        for (auto& x : b) x += 1;
        const auto d = sorted_differences(a, b);
        const auto r = hodges_lehmann(a, b, 0.9);
        EXPECT_EQ(r.estimate, brute_median(d));
        // The interval bounds are pairwise differences, each at its own rank.
        EXPECT_TRUE(std::binary_search(d.begin(), d.end(), r.ci[0]));
        EXPECT_TRUE(std::binary_search(d.begin(), d.end(), r.ci[1]));
        // The crossing, checked with R's own statistic just either side.
        const double z = 1.6448536269514722;  // qnorm(0.95)
        const auto below = [&](double v) { return *(std::lower_bound(d.begin(), d.end(), v) - 1); };
        const auto above = [&](double v) { return *std::upper_bound(d.begin(), d.end(), v); };
        if (r.ci[0] > d.front()) {
            EXPECT_GE(brute_w(a, b, (below(r.ci[0]) + r.ci[0]) / 2), z);
        }
        EXPECT_LT(brute_w(a, b, (r.ci[0] + above(r.ci[0])) / 2), z);
        EXPECT_GE(brute_w(a, b, (below(r.ci[1]) + r.ci[1]) / 2), -z);
        if (r.ci[1] < d.back()) {
            EXPECT_LT(brute_w(a, b, (r.ci[1] + above(r.ci[1])) / 2), -z);
        }
    }
}

// Integer samples of 300,000 and 200,000 values (6e10 pairs, each
// difference repeated ~1e8 times): the order statistics from histograms.
TEST(RankTests, HugeTiedSamplesMatchHistogram) {
    std::mt19937_64 rng(99);
    std::uniform_int_distribution<int> va(0, 96), vb(0, 60);
    std::vector<double> a(300000), b(200000);
    std::vector<double> ha(97), hb(61);
    for (auto& x : a) ha[static_cast<size_t>(x = va(rng))] += 1;
    for (auto& x : b) hb[static_cast<size_t>(x = vb(rng))] += 1, x += 20;
    // Differences b - a = 20 + j - i.
    std::map<double, double> hd;
    for (int i = 0; i < 97; ++i)
        for (int j = 0; j < 61; ++j) hd[20.0 + j - i] += ha[i] * hb[j];
    const double mn = 300000.0 * 200000.0;
    auto kth = [&](double k) {  // 1-based
        double cum = 0;
        for (auto& [v, c] : hd)
            if ((cum += c) >= k) return v;
        return hd.rbegin()->first;
    };
    const auto r = hodges_lehmann(a, b, 0.95);
    EXPECT_EQ(r.estimate, mean2(kth(mn / 2), kth(mn / 2 + 1)));
    // Normal branch: W in the gap after value v is
    // (mn/2 - m - 0.5 sign(mn/2 - m)) / sigma0 with m = #differences <= v.
    auto tsum = [](const std::vector<double>& h) {
        double s = 0;
        for (double t : h) s += t * t * t - t;
        return s;
    };
    const double sigma0 = brute_sigma(300000, 200000, tsum(ha) + tsum(hb));
    const double z = 1.959963984540054;
    auto bound = [&](double target) {
        double cum = 0;
        for (auto& [v, c] : hd) {
            cum += c;
            const double dz = mn / 2 - cum;
            const double w = (dz - (dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0)) / sigma0;
            if (w < target) return v;
        }
        return hd.rbegin()->first;
    };
    EXPECT_EQ(r.ci[0], bound(z));
    EXPECT_EQ(r.ci[1], bound(-z));
    // 500,000 values pin the shift to within one integer step.
    EXPECT_LE(r.ci[0], r.estimate);
    EXPECT_LE(r.estimate, r.ci[1]);
    const auto mw = mann_whitney(a, b);
    EXPECT_FALSE(mw.exact);
    EXPECT_TRUE(mw.ties);
    double u2 = 0;  // 2U = sum over pairs of 2 [b > a] + [b == a]
    for (auto& [v, c] : hd) u2 += (v > 0 ? 2 : v == 0 ? 1 : 0) * c;
    EXPECT_EQ(mw.u, u2 / 2);
}

// ---------------------------------------------------------------------------
// Edge cases

// The two middle differences straddle a tie block: 11,250 zeros, then
// 11,250 ones. Found by sampling (not gathering), the median is 0.5.
TEST(RankTests, MedianBetweenTieBlocks) {
    const std::vector<double> a(150, 0.0);
    std::vector<double> b(150, 0.0);
    std::fill(b.begin() + 75, b.end(), 1.0);
    const auto r = hodges_lehmann(a, b, 0.95);
    EXPECT_EQ(r.estimate, 0.5);
    EXPECT_EQ(r.ci[0], 0);
    EXPECT_EQ(r.ci[1], 1);
    std::vector<double> c(b);
    c.push_back(1.0);  // 150 more ones: the median is 1
    EXPECT_EQ(hodges_lehmann(a, c, 0.95).estimate, 1);
    // 20,000 differences below 1 (100 distinct, 200 copies each), then
    // 20,000 equal to 1000: the middle two are the largest small one and 1000.
    std::vector<double> d;
    for (int i = 0; i < 100; ++i) d.push_back(0.001 * i + 0.25);
    d.resize(200, 1000.0);
    const std::vector<double> zeros(200, 0.0);
    EXPECT_EQ(hodges_lehmann(zeros, d, 0.95).estimate, mean2(0.001 * 99 + 0.25, 1000));
}

TEST(RankTests, AllValuesEqual) {
    const std::vector<double> a(7, 5.0), b(4, 5.0);
    const auto mw = mann_whitney(a, b);
    EXPECT_EQ(mw.u, 14);
    EXPECT_EQ(mw.p, 1);  // sigma 0: documented as p = 1
    EXPECT_FALSE(mw.exact);
    EXPECT_EQ(mw.probability_of_superiority, 0.5);
    const auto hl = hodges_lehmann(a, b, 0.95);
    EXPECT_EQ(hl.estimate, 0);
    EXPECT_EQ(hl.ci[0], 0);
    EXPECT_EQ(hl.ci[1], 0);
}

TEST(RankTests, SingleValues) {
    const std::vector<double> a{1.0}, b{3.5};
    const auto mw = mann_whitney(a, b);
    EXPECT_EQ(mw.u, 1);
    EXPECT_TRUE(mw.exact);
    EXPECT_EQ(mw.p, 1);
    EXPECT_EQ(mw.probability_of_superiority, 1);
    const auto hl = hodges_lehmann(a, b, 0.95);
    EXPECT_EQ(hl.estimate, 2.5);
    EXPECT_EQ(hl.ci[0], 2.5);
    EXPECT_EQ(hl.ci[1], 2.5);
}

TEST(RankTests, RejectsBadInput) {
    const std::vector<double> ok{1, 2, 3}, empty, inf{1, std::numeric_limits<double>::infinity()},
        nan{std::nan("")};
    EXPECT_THROW(mann_whitney(empty, ok), std::invalid_argument);
    EXPECT_THROW(mann_whitney(ok, empty), std::invalid_argument);
    EXPECT_THROW(mann_whitney(ok, inf), std::invalid_argument);
    EXPECT_THROW(hodges_lehmann(nan, ok, 0.95), std::invalid_argument);
    EXPECT_THROW(hodges_lehmann(ok, ok, 1.0), std::invalid_argument);
    EXPECT_THROW(hodges_lehmann(ok, ok, 0.0), std::invalid_argument);
    EXPECT_THROW(hodges_lehmann(ok, ok, std::nan("")), std::invalid_argument);
}

// Swapping the samples mirrors everything.
TEST(RankTests, SwappingSamplesMirrors) {
    std::mt19937_64 rng(3);
    const auto a = draw(rng, 80, 2), b = draw(rng, 65, 2);
    const auto ab = mann_whitney(a, b), ba = mann_whitney(b, a);
    EXPECT_EQ(ab.u + ba.u, 80.0 * 65);
    EXPECT_NEAR(ab.p, ba.p, 1e-15);
    const auto hab = hodges_lehmann(a, b, 0.9), hba = hodges_lehmann(b, a, 0.9);
    EXPECT_EQ(hab.estimate, -hba.estimate);
    EXPECT_EQ(hab.ci[0], -hba.ci[1]);
    EXPECT_EQ(hab.ci[1], -hba.ci[0]);
}

}  // namespace
}  // namespace gfxstat::analysis
