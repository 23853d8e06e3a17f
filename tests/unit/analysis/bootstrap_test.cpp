// SPDX-License-Identifier: MIT
#include "analysis/bootstrap.h"

#include <gtest/gtest.h>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/beta.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "tests/unit/test_support.h"

namespace gfxstat::analysis {
namespace {

using test::reference_cases;

// ---------------------------------------------------------------------------
// Helpers.

// Deterministic data on every platform: mt19937_64 is specified bit for bit;
// the transforms below are ours (std::normal_distribution is not portable).
std::vector<double> uniform_data(size_t n, uint64_t seed) {
    std::mt19937_64 g(seed);
    std::vector<double> v(n);
    for (auto& x : v) x = static_cast<double>((g() >> 11) + 1) * 0x1.0p-53;
    return v;
}
std::vector<double> normal_data(size_t n, uint64_t seed, double mean = 0, double sd = 1) {
    auto u = uniform_data(2 * n, seed);
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = mean + sd * std::sqrt(-2 * std::log(u[2 * i])) * std::cos(6.283185307179586 * u[2 * i + 1]);
    return v;
}

// Two-sample Kolmogorov-Smirnov statistic, ties handled (the step at a
// shared value is taken after both samples pass it).
double ks_statistic(std::vector<double> x, std::vector<double> y) {
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    size_t i = 0, j = 0;
    double d = 0;
    while (i < x.size() && j < y.size()) {
        const double v = std::min(x[i], y[j]);
        while (i < x.size() && x[i] == v) ++i;
        while (j < y.size() && y[j] == v) ++j;
        d = std::max(d, std::fabs(static_cast<double>(i) / x.size() - static_cast<double>(j) / y.size()));
    }
    return d;
}

// R's median of two values.
double mid(double lo, double hi) {
    return lo == hi ? lo : static_cast<double>((static_cast<long double>(lo) + hi) / 2);
}

bool bit_equal(double x, double y) { return std::bit_cast<uint64_t>(x) == std::bit_cast<uint64_t>(y); }

void expect_same_interval(const BootstrapInterval& x, const BootstrapInterval& y) {
    EXPECT_TRUE(bit_equal(x.estimate, y.estimate));
    for (int s = 0; s < 2; ++s) {
        EXPECT_TRUE(bit_equal(x.percentile[s], y.percentile[s])) << x.percentile[s] << " " << y.percentile[s];
        EXPECT_TRUE(bit_equal(x.bca[s], y.bca[s])) << x.bca[s] << " " << y.bca[s];
    }
    EXPECT_EQ(x.bca_defined, y.bca_defined);
    EXPECT_TRUE(bit_equal(x.bias, y.bias));
    EXPECT_TRUE(bit_equal(x.std_error, y.std_error));
    EXPECT_TRUE(bit_equal(x.z0, y.z0));
    EXPECT_TRUE(bit_equal(x.acceleration, y.acceleration));
}

void expect_same(const BootstrapResult& x, const BootstrapResult& y) {
    expect_same_interval(x.median_difference, y.median_difference);
    expect_same_interval(x.median_ratio, y.median_ratio);
    EXPECT_EQ(x.ratio_defined, y.ratio_defined);
    EXPECT_EQ(x.resamples, y.resamples);
}

// ---------------------------------------------------------------------------
// The exact bootstrap distribution of a sample median, for checking Monte
// Carlo results in probability terms. x sorted, n values, k = (n + 1) / 2 the
// rank of the (lower) middle value, N_i the number of draws with index <= i,
// N_i ~ Binomial(n, (i + 1) / n).
//   Odd n: P(I_k = i) = P(N_i >= k) - P(N_(i-1) >= k), with
//   P(Binomial(n, p) >= k) = I_p(k, n - k + 1).
//   Even n, ranks k and k + 1 at indices i < j: c < k draws below i, k - c
//   at i, and the other n - k all at j or above with at least one at j:
//     sum_c n! / (c! (k-c)! (n-k)!) (i/n)^c (1/n)^(k-c)
//       * (((n-j)/n)^(n-k) - ((n-j-1)/n)^(n-k)).
//   Both at i: c < k draws below i, m >= k + 1 - c at i, the rest above:
//     sum_c sum_m n! / (c! m! (n-c-m)!) (i/n)^c (1/n)^m ((n-i-1)/n)^(n-c-m).
struct Atoms {
    std::vector<double> value, prob;  // ascending values, merged
    double moment(int p, double about) const {
        double s = 0;
        for (size_t i = 0; i < value.size(); ++i) s += prob[i] * std::pow(value[i] - about, p);
        return s;
    }
};

Atoms exact_median_distribution(std::vector<double> x) {
    std::sort(x.begin(), x.end());
    const size_t n = x.size(), k = (n + 1) / 2;
    const double nd = static_cast<double>(n);
    auto lf = [](double m) { return std::lgamma(m + 1); };
    auto lpow = [](double base, double e) { return e == 0 ? 0.0 : e * std::log(base); };  // 0^0 = 1
    std::map<double, double> m;
    if (n % 2) {
        auto at_least_k = [&](size_t i) {  // P(N_i >= k)
            const double p = static_cast<double>(i + 1) / nd;
            return p >= 1 ? 1.0 : boost::math::ibeta(static_cast<double>(k), nd - k + 1, p);
        };
        double prev = 0;
        for (size_t i = 0; i < n; ++i) {
            const double t = at_least_k(i);
            m[x[i]] += t - prev;
            prev = t;
        }
    } else {
        const double kd = static_cast<double>(k);
        for (size_t i = 0; i < n; ++i) {
            const double qi = static_cast<double>(i) / nd;
            double below = 0;
            for (size_t c = 0; c < k; ++c)
                below += std::exp(lf(nd) - lf(c) - lf(kd - c) - lf(nd - kd) + lpow(qi, c) +
                                  (kd - c) * std::log(1 / nd));
            for (size_t j = i + 1; j < n; ++j)
                m[mid(x[i], x[j])] += below * (std::pow((nd - j) / nd, nd - kd) -
                                               std::pow((nd - j - 1) / nd, nd - kd));
            // Given c draws below i, each of the other n - c is at i with
            // probability 1 / (n - i): a binomial tail, via ibeta.
            double same = 0;
            for (size_t c = 0; c < k; ++c) {
                const double rest = nd - c, need = kd + 1 - c;
                if (need > rest) continue;
                const double tail = i + 1 == n ? 1.0 : boost::math::ibeta(need, rest - need + 1, 1 / (nd - i));
                same += std::exp(lf(nd) - lf(c) - lf(rest) + lpow(qi, c) + lpow(1 - qi, rest)) * tail;
            }
            m[x[i]] += same;
        }
    }
    Atoms out;
    for (const auto& [v, p] : m) {
        out.value.push_back(v);
        out.prob.push_back(p);
    }
    return out;
}

// The exact bootstrap distribution of median(b*) - median(a*).
struct ExactDifference {
    Atoms a, b;
    std::vector<double> b_cum;  // P(median(b*) <= b.value[i])
    ExactDifference(const std::vector<double>& xa, const std::vector<double>& xb)
        : a(exact_median_distribution(xa)), b(exact_median_distribution(xb)) {
        double s = 0;
        for (double p : b.prob) b_cum.push_back(s += p);
    }
    // P(t* <= v), or P(t* < v) when strict, with t* = mb - ma computed in
    // double as the implementation does (monotone in mb, so a prefix).
    double cdf(double v, bool strict) const {
        double s = 0;
        for (size_t i = 0; i < a.value.size(); ++i) {
            const double ma = a.value[i];
            const auto end = std::partition_point(b.value.begin(), b.value.end(), [&](double mb) {
                return strict ? mb - ma < v : mb - ma <= v;
            });
            if (end != b.value.begin()) s += a.prob[i] * b_cum[static_cast<size_t>(end - b.value.begin()) - 1];
        }
        return s;
    }
    double mean() const { return b.moment(1, 0) - a.moment(1, 0); }
    double variance() const { return b.moment(2, b.moment(1, 0)) + a.moment(2, a.moment(1, 0)); }
    double kurtosis() const {  // of a difference of independent variables
        const double va = a.moment(2, a.moment(1, 0)), vb = b.moment(2, b.moment(1, 0));
        const double m4 = a.moment(4, a.moment(1, 0)) + b.moment(4, b.moment(1, 0)) + 6 * va * vb;
        return m4 / ((va + vb) * (va + vb));
    }
};

// Distance in probability between where two endpoints sit in the exact
// distribution: an endpoint on an atom v covers [P(t* < v), P(t* <= v)].
double probability_distance(const ExactDifference& e, double x, double y) {
    const double x_lo = e.cdf(x, true), x_hi = e.cdf(x, false);
    const double y_lo = e.cdf(y, true), y_hi = e.cdf(y, false);
    return std::max({0.0, x_lo - y_hi, y_lo - x_hi});
}
double probability_distance_to_level(const ExactDifference& e, double x, double level) {
    return std::max({0.0, e.cdf(x, true) - level, level - e.cdf(x, false)});
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : mid(v[n / 2 - 1], v[n / 2]);
}

// boot's jackknife acceleration for median(b) - median(a), the slow way.
double jackknife_acceleration(const std::vector<double>& a, const std::vector<double>& b) {
    const double t0 = median_of(b) - median_of(a);
    double s2 = 0, s3 = 0;
    for (int side = 0; side < 2; ++side) {
        const auto& x = side ? b : a;
        for (size_t j = 0; j < x.size(); ++j) {
            auto y = x;
            y.erase(y.begin() + static_cast<ptrdiff_t>(j));
            const double t = side ? median_of(y) - median_of(a) : median_of(b) - median_of(y);
            const double l = static_cast<double>(x.size() - 1) * (t0 - t);
            s2 += l * l;
            s3 += l * l * l;
        }
    }
    return s3 / (6 * std::pow(s2, 1.5));
}

// ---------------------------------------------------------------------------
// R boot reference values (tests/data/reference_cases.json): boot::boot
// stratified, median(b*) - median(a*), R = 9999, boot.ci perc and bca with
// empinf(type = "jack"). Our random numbers differ from R's, so the
// estimate and the acceleration must match exactly and the rest within
// Monte Carlo error, measured against the exact bootstrap distribution:
// - standard deviation: ours and R's within 4.5 standard errors of the
//   exact one (relative standard error sqrt((kurtosis - 1) / (4 B))), and
//   within 10% of each other or 4.5 standard errors of their difference;
// - an endpoint at level l (alpha, or BCa's adjusted level from the exact
//   z0) is an order statistic whose position in the exact distribution has
//   a standard error of sqrt(l (1 - l) / B), plus for BCa the error of the
//   estimated z0 (sd sqrt(p0 (1 - p0) / B) / phi(z0)) times dl/dz0. Ours
//   and R's lie within 4.5 standard errors of l in probability (an atom
//   covers an interval of probability, so discrete cases, where the
//   endpoints are data values, are judged fairly), and within 5% of the
//   interval's width of each other or 4.5 standard errors of their
//   difference in probability.
void check_reference(ResampleMethod method, uint64_t seed_offset = 0) {
    const boost::math::normal_distribution<double> z;
    int checked = 0;
    for (const auto& c : reference_cases()["cases"]) {
        const auto& two = c["two_sample"];
        if (!two.contains("bootstrap_median_diff") || two["bootstrap_median_diff"].is_null()) continue;
        const auto& ref = two["bootstrap_median_diff"];
        SCOPED_TRACE(c["id"].get<std::string>());
        const auto a = test::doubles(c["a"]), b = test::doubles(c["b"]);
        BootstrapOptions opt;
        opt.seed = ref["seed"].get<uint64_t>() + seed_offset;
        opt.resamples = ref["B"].get<int>();
        opt.method = method;
        const auto r = bootstrap_medians(a, b, opt);
        const auto& d = r.median_difference;
        const double B = opt.resamples;
        EXPECT_EQ(r.resamples, 9999);
        EXPECT_EQ(d.estimate, ref["t0"].get<double>());
        EXPECT_NEAR(d.acceleration, jackknife_acceleration(a, b), 1e-10);  // dimensionless

        const ExactDifference exact(a, b);
        ASSERT_NEAR(exact.a.moment(0, 0), 1, 1e-9);
        ASSERT_NEAR(exact.b.moment(0, 0), 1, 1e-9);
        const double sd = std::sqrt(exact.variance());
        const double sd_se = sd * std::sqrt((exact.kurtosis() - 1) / (4 * B));
        const double r_sd = ref["boot_sd"].get<double>();
        EXPECT_NEAR(d.std_error, sd, 4.5 * sd_se);
        EXPECT_NEAR(r_sd, sd, 4.5 * sd_se) << "exact distribution or R's boot_sd off";
        EXPECT_NEAR(d.std_error, r_sd, std::max(0.10 * r_sd, 4.5 * std::sqrt(2.0) * sd_se));
        EXPECT_NEAR(d.bias + d.estimate, exact.mean(), 4.5 * sd / std::sqrt(B));

        const double p0 = exact.cdf(d.estimate, true);
        const double z0 = boost::math::quantile(z, p0);
        auto check = [&](const char* key, const std::array<double, 2>& got, bool bca) {
            const auto want = ref[key].get<std::vector<double>>();
            const double width = want[1] - want[0];
            for (int s = 0; s < 2; ++s) {
                const double zs = boost::math::quantile(z, s ? 0.975 : 0.025);
                double level = s ? 0.975 : 0.025, var = level * (1 - level) / B;
                if (bca) {
                    const double w = z0 + (z0 + zs) / (1 - d.acceleration * (z0 + zs));
                    level = boost::math::cdf(z, w);
                    const double dw = 1 + 1 / std::pow(1 - d.acceleration * (z0 + zs), 2);
                    const double dl = boost::math::pdf(z, w) * dw;
                    var = level * (1 - level) / B +
                          dl * dl * p0 * (1 - p0) / (B * std::pow(boost::math::pdf(z, z0), 2));
                }
                const double se = std::sqrt(var);
                SCOPED_TRACE(std::string(key) + "[" + std::to_string(s) + "] level " + std::to_string(level) +
                             " se " + std::to_string(se));
                EXPECT_LE(probability_distance_to_level(exact, got[s], level), 4.5 * se) << got[s];
                EXPECT_LE(probability_distance_to_level(exact, want[s], level), 4.5 * se)
                    << "R's " << want[s] << ": exact distribution off?";
                if (std::fabs(got[s] - want[s]) > 0.05 * width) {
                    EXPECT_LE(probability_distance(exact, got[s], want[s]), 4.5 * std::sqrt(2.0) * se)
                        << got[s] << " vs R's " << want[s];
                }
            }
        };
        check("percentile_95", d.percentile, false);
        EXPECT_TRUE(d.bca_defined);
        check("bca_95_jackknife_accel", d.bca, true);
        ++checked;
    }
    EXPECT_GE(checked, 12);
}

TEST(Bootstrap, MatchesRBootLiteral) { check_reference(ResampleMethod::literal); }
TEST(Bootstrap, MatchesRBootOrderStatistics) { check_reference(ResampleMethod::order_statistics); }

// ---------------------------------------------------------------------------
// Reproducibility.

TEST(Bootstrap, SameSeedSameResultForAnyThreadCount) {
    const auto small_a = normal_data(40, 1), small_b = normal_data(37, 2, 0.3);
    const auto big_a = normal_data(5000, 3, 10), big_b = normal_data(4001, 4, 10.1);
    for (auto method : {ResampleMethod::automatic, ResampleMethod::literal, ResampleMethod::order_statistics}) {
        for (bool big : {false, true}) {
            if (big && method == ResampleMethod::literal) continue;
            const auto& a = big ? big_a : small_a;
            const auto& b = big ? big_b : small_b;
            BootstrapOptions opt;
            opt.seed = 987654321;
            opt.resamples = 1999;
            opt.method = method;
            opt.threads = 1;
            const auto one = bootstrap_medians(a, b, opt);
            EXPECT_TRUE(one.median_difference.bca_defined);
            EXPECT_TRUE(one.ratio_defined);
            for (int t : {2, 3, 4, 7}) {
                SCOPED_TRACE("method " + std::to_string(static_cast<int>(method)) + " big " +
                             std::to_string(big) + " threads " + std::to_string(t));
                opt.threads = t;
                expect_same(one, bootstrap_medians(a, b, opt));
            }
        }
    }
}

TEST(Bootstrap, DifferentSeedsDiffer) {
    const auto a = normal_data(30, 5), b = normal_data(30, 6, 0.5);
    BootstrapOptions opt;
    opt.resamples = 999;
    opt.seed = 1;
    const auto r1 = bootstrap_medians(a, b, opt);
    opt.seed = 2;
    const auto r2 = bootstrap_medians(a, b, opt);
    EXPECT_EQ(r1.median_difference.estimate, r2.median_difference.estimate);
    EXPECT_NE(r1.median_difference.std_error, r2.median_difference.std_error);
    EXPECT_NE(r1.median_ratio.std_error, r2.median_ratio.std_error);
    EXPECT_FALSE(r1.median_difference.percentile == r2.median_difference.percentile &&
                 r1.median_difference.bca == r2.median_difference.bca);
    EXPECT_NE(resampled_medians(a, 100, 1), resampled_medians(a, 100, 2));
}

// resampled_medians draws exactly bootstrap_medians' baseline medians: with
// a constant candidate the resampled differences are c - median(a*).
TEST(Bootstrap, ResampledMediansAreTheBaselineDraws) {
    for (size_t n : {25u, 3000u}) {
        const auto a = normal_data(n, 7);
        const std::vector<double> b(9, 100.0);
        BootstrapOptions opt;
        opt.resamples = 499;
        opt.threads = 3;
        const auto r = bootstrap_medians(a, b, opt);
        auto m = resampled_medians(a, opt.resamples, opt.seed, opt.method, 2);
        for (auto& v : m) v = 100.0 - v;
        std::sort(m.begin(), m.end());
        // (B + 1) * 0.025 = 12.5: interpolated between the 12th and 13th.
        EXPECT_GE(r.median_difference.percentile[0], m[11]);
        EXPECT_LE(r.median_difference.percentile[0], m[12]);
        EXPECT_GE(r.median_difference.percentile[1], m[486]);
        EXPECT_LE(r.median_difference.percentile[1], m[487]);
    }
}

// ---------------------------------------------------------------------------
// Edge cases.

TEST(Bootstrap, RatioUndefinedWhenBaselineMedianIsZero) {
    const std::vector<double> a{-1, 0, 0, 2, 5}, b{3, 4, 5, 6};
    const auto r = bootstrap_medians(a, b, {});
    EXPECT_FALSE(r.ratio_defined);
    EXPECT_FALSE(r.median_ratio.bca_defined);
    EXPECT_TRUE(std::isnan(r.median_ratio.percentile[0]));
    EXPECT_EQ(r.median_difference.estimate, 4.5);
    EXPECT_TRUE(r.median_difference.bca_defined);
}

TEST(Bootstrap, RatioUndefinedWhenAResampledBaselineMedianIsZero) {
    // Median 2, but a resample of mostly zeros has median 0.
    const std::vector<double> a{0, 0, 2, 3, 4}, b{3, 4, 5};
    const auto r = bootstrap_medians(a, b, {});
    EXPECT_FALSE(r.ratio_defined);
    EXPECT_EQ(r.median_difference.estimate, 2);
}

TEST(Bootstrap, RatioOfPositiveSamples) {
    const std::vector<double> a{10, 11, 12, 13, 14, 15, 16}, b{20, 22, 24, 26, 28, 30, 32};
    const auto r = bootstrap_medians(a, b, {});
    EXPECT_TRUE(r.ratio_defined);
    EXPECT_EQ(r.median_ratio.estimate, 2);
    EXPECT_LE(r.median_ratio.percentile[0], 2);
    EXPECT_GE(r.median_ratio.percentile[1], 2);
    // Every resampled median lies within the data's range.
    EXPECT_GE(r.median_ratio.percentile[0], 20.0 / 16);
    EXPECT_LE(r.median_ratio.percentile[1], 32.0 / 10);
}

TEST(Bootstrap, BothSamplesConstant) {
    const std::vector<double> a(6, 3.5), b(4, 5.0);
    const auto r = bootstrap_medians(a, b, {});
    const auto& d = r.median_difference;
    EXPECT_EQ(d.estimate, 1.5);
    EXPECT_EQ(d.percentile, (std::array<double, 2>{1.5, 1.5}));
    EXPECT_FALSE(d.bca_defined);  // no resample below the estimate: z0 = -inf
    EXPECT_EQ(d.bca, d.percentile);
    EXPECT_EQ(d.std_error, 0);
    EXPECT_EQ(d.bias, 0);
    EXPECT_TRUE(r.ratio_defined);
    EXPECT_EQ(r.median_ratio.estimate, 5.0 / 3.5);
    EXPECT_EQ(r.median_ratio.percentile[0], 5.0 / 3.5);
    EXPECT_FALSE(r.median_ratio.bca_defined);
}

TEST(Bootstrap, OneSampleConstant) {
    const std::vector<double> a(8, 10.0);
    const auto b = normal_data(15, 8, 11);
    const auto r = bootstrap_medians(a, b, {});
    const auto& d = r.median_difference;
    EXPECT_TRUE(d.bca_defined);
    EXPECT_LT(d.percentile[0], d.estimate);
    EXPECT_GT(d.percentile[1], d.estimate);
    EXPECT_LE(d.bca[0], d.bca[1]);
    // Only the candidate varies: the intervals are those of median(b*) - 10.
    auto mb = resampled_medians(b, 9999, 99, ResampleMethod::literal);
    std::sort(mb.begin(), mb.end());
    EXPECT_GE(d.percentile[0], mb.front() - 10);
    EXPECT_LE(d.percentile[1], mb.back() - 10);
}

// n = 2 and n = 3: the bootstrap distribution of the difference is known
// exactly. median(a*) for a = {1, 2}: 1, 1.5, 2 with 1/4, 1/2, 1/4;
// median(b*) for b = {10, 11, 12}: 10, 11, 12 with 7/27, 13/27, 7/27. The
// extremes 8 and 11 each have probability 7/108 > 2.5%, so the 250th and
// 9750th of 9999 resamples are 8 and 11 (failing with probability < 1e-100).
TEST(Bootstrap, TinySamplesTwoAndThree) {
    const std::vector<double> a{2, 1}, b{12, 10, 11};
    for (auto method : {ResampleMethod::literal, ResampleMethod::order_statistics}) {
        BootstrapOptions opt;
        opt.method = method;
        const auto r = bootstrap_medians(a, b, opt);
        const auto& d = r.median_difference;
        EXPECT_EQ(d.estimate, 9.5);
        EXPECT_EQ(d.percentile, (std::array<double, 2>{8, 11}));
        // Exact standard deviation: var(a*) = 1/8, var(b*) = 14/27.
        EXPECT_NEAR(d.std_error, std::sqrt(1.0 / 8 + 14.0 / 27), 0.02);
        EXPECT_NEAR(d.bias, 0, 0.03);
        EXPECT_TRUE(d.bca_defined);
        EXPECT_GE(d.bca[0], 8);
        EXPECT_LE(d.bca[1], 11);
        EXPECT_TRUE(r.ratio_defined);
        EXPECT_EQ(r.median_ratio.percentile, (std::array<double, 2>{5, 12}));
    }
    // n = 3 against n = 2 the other way round.
    const auto r = bootstrap_medians(b, a, {});
    EXPECT_EQ(r.median_difference.estimate, -9.5);
    EXPECT_EQ(r.median_difference.percentile, (std::array<double, 2>{-11, -8}));
}

TEST(Bootstrap, SingleValues) {
    const std::vector<double> a{4}, b{7};
    const auto r = bootstrap_medians(a, b, {});
    EXPECT_EQ(r.median_difference.estimate, 3);
    EXPECT_EQ(r.median_difference.percentile, (std::array<double, 2>{3, 3}));
    EXPECT_FALSE(r.median_difference.bca_defined);
    const std::vector<double> c{1, 2, 3, 4, 5};
    const auto s = bootstrap_medians(a, c, {});
    EXPECT_EQ(s.median_difference.estimate, -1);
    EXPECT_TRUE(s.median_difference.bca_defined);
}

TEST(Bootstrap, RejectsBadInput) {
    const std::vector<double> a{1, 2, 3}, empty;
    EXPECT_THROW(bootstrap_medians(empty, a, {}), std::invalid_argument);
    EXPECT_THROW(bootstrap_medians(a, empty, {}), std::invalid_argument);
    const std::vector<double> nan{1, std::numeric_limits<double>::quiet_NaN()};
    EXPECT_THROW(bootstrap_medians(a, nan, {}), std::invalid_argument);
    BootstrapOptions opt;
    opt.resamples = 0;
    EXPECT_THROW(bootstrap_medians(a, a, opt), std::invalid_argument);
    opt.resamples = 10;
    opt.confidence = 1;
    EXPECT_THROW(bootstrap_medians(a, a, opt), std::invalid_argument);
    opt.confidence = 0.9;
    opt.threads = 0;  // means 1
    EXPECT_EQ(bootstrap_medians(a, a, opt).resamples, 10);
}

TEST(Bootstrap, ConfidenceLevelWidensInterval) {
    const auto a = normal_data(200, 11), b = normal_data(200, 12, 0.2);
    BootstrapOptions opt;
    opt.confidence = 0.8;
    const auto narrow = bootstrap_medians(a, b, opt);
    opt.confidence = 0.99;
    const auto wide = bootstrap_medians(a, b, opt);
    EXPECT_LT(wide.median_difference.percentile[0], narrow.median_difference.percentile[0]);
    EXPECT_GT(wide.median_difference.percentile[1], narrow.median_difference.percentile[1]);
    EXPECT_LT(wide.median_difference.bca[0], narrow.median_difference.bca[0]);
    EXPECT_GT(wide.median_difference.bca[1], narrow.median_difference.bca[1]);
}

// ---------------------------------------------------------------------------
// The order-statistic sampler against literal resampling.

// Two-sample KS between 100000 literal and 100000 order-statistic resampled
// medians (n = 301 and n = 300, fixed seeds: deterministic). Under equal
// distributions P(sqrt(N/2) D > c) <= 2 exp(-2 c^2) asymptotically, and the
// test is conservative for discrete distributions such as these; c = 2.23
// gives a level of 1e-4: D < 2.23 sqrt(2 / 100000) = 0.00997. Power: drawing
// rank k + 1 instead of k, or the lower middle value twice for even n,
// shifts the median by a half to one order-statistic spacing, 0.06 to 0.12
// of its standard deviation, which moves the CDF by 0.023 to 0.046.
TEST(BootstrapSampler, OrderStatisticsMatchLiteralResampling) {
    constexpr int kDraws = 100000;
    const double bound = 2.23 * std::sqrt(2.0 / kDraws);
    for (size_t n : {301u, 300u}) {
        SCOPED_TRACE(n);
        const auto x = normal_data(n, 20 + n);
        const auto lit = resampled_medians(x, kDraws, 1001, ResampleMethod::literal, 2);
        const auto ord = resampled_medians(x, kDraws, 2002, ResampleMethod::order_statistics, 2);
        EXPECT_LT(ks_statistic(lit, ord), bound);
        // Each against the exact distribution: one-sample KS, where
        // P(sqrt(N) D > c) <= 2 exp(-2 c^2) holds for any N and any
        // distribution (Dvoretzky-Kiefer-Wolfowitz-Massart): 1e-4 again.
        const Atoms exact = exact_median_distribution(x);
        for (const auto* draws : {&lit, &ord}) {
            auto sorted = *draws;
            std::sort(sorted.begin(), sorted.end());
            double d = 0, cum = 0;
            for (size_t i = 0; i < exact.value.size(); ++i) {
                cum += exact.prob[i];
                const auto below = std::lower_bound(sorted.begin(), sorted.end(), exact.value[i]) - sorted.begin();
                const auto upto = std::upper_bound(sorted.begin(), sorted.end(), exact.value[i]) - sorted.begin();
                d = std::max({d, std::fabs(static_cast<double>(upto) / kDraws - cum),
                              std::fabs(static_cast<double>(below) / kDraws - (cum - exact.prob[i]))});
            }
            EXPECT_LT(d, 2.23 / std::sqrt(kDraws)) << (draws == &lit ? "literal" : "order statistics");
        }
        // Skewed data with ties as well.
        auto y = uniform_data(n, 40 + n);
        for (auto& v : y) v = std::floor(-std::log(v) * 20);
        const auto lit_y = resampled_medians(y, kDraws, 3003, ResampleMethod::literal, 2);
        const auto ord_y = resampled_medians(y, kDraws, 4004, ResampleMethod::order_statistics, 2);
        EXPECT_LT(ks_statistic(lit_y, ord_y), bound);
    }
}

// Exact bootstrap distribution of the median for n = 4 and 5 (all n^n
// equally likely index tuples), against 200000 draws of each method: every
// probability within 5 binomial standard deviations.
TEST(BootstrapSampler, ExactDistributionSmallN) {
    for (size_t n : {4u, 5u}) {
        std::vector<double> x;
        for (size_t i = 0; i < n; ++i) x.push_back(std::ldexp(1.0, static_cast<int>(i)));  // 1 2 4 8 16
        std::map<double, double> exact;
        size_t tuples = 1;
        for (size_t i = 0; i < n; ++i) tuples *= n;
        for (size_t t = 0; t < tuples; ++t) {
            std::vector<double> s;
            for (size_t i = 0, u = t; i < n; ++i, u /= n) s.push_back(x[u % n]);
            std::sort(s.begin(), s.end());
            const double m = n % 2 ? s[n / 2] : mid(s[n / 2 - 1], s[n / 2]);
            exact[m] += 1.0 / static_cast<double>(tuples);
        }
        // The closed form used by the reference tests agrees with enumeration.
        const Atoms formula = exact_median_distribution(x);
        ASSERT_EQ(formula.value.size(), exact.size());
        for (size_t i = 0; i < formula.value.size(); ++i) {
            EXPECT_TRUE(exact.count(formula.value[i]));
            EXPECT_NEAR(formula.prob[i], exact[formula.value[i]], 1e-12);
        }
        for (auto method : {ResampleMethod::literal, ResampleMethod::order_statistics}) {
            SCOPED_TRACE("n " + std::to_string(n) + " method " + std::to_string(static_cast<int>(method)));
            constexpr int kDraws = 200000;
            std::map<double, double> seen;
            for (double m : resampled_medians(x, kDraws, 77, method, 2)) seen[m] += 1;
            for (const auto& [m, count] : seen) EXPECT_TRUE(exact.count(m)) << m;
            for (const auto& [m, p] : exact) {
                const double expect = kDraws * p;
                EXPECT_NEAR(seen[m], expect, 5 * std::sqrt(expect * (1 - p)) + 1) << m;
            }
        }
    }
}

// Large samples take the order-statistic path (automatic): the result agrees
// with literal resampling of the same data within Monte Carlo error, and for
// n = 200000 the standard error with the asymptotic sqrt(pi / 2) sigma /
// sqrt(n) per sample (the bootstrap variance of a median converges slowly,
// relative error of order n^(-1/4), 5% here: a loose 15%).
TEST(Bootstrap, LargeSamplesOrderStatisticPath) {
    const size_t n = 3000;
    const auto a = normal_data(n, 50, 100, 2), b = normal_data(n, 51, 101, 2);
    BootstrapOptions opt;
    opt.resamples = 4999;
    const auto fast = bootstrap_medians(a, b, opt);  // n > kLiteralResampleMaxN
    opt.method = ResampleMethod::literal;
    const auto slow = bootstrap_medians(a, b, opt);
    const auto& f = fast.median_difference;
    const auto& s = slow.median_difference;
    EXPECT_EQ(f.estimate, s.estimate);
    EXPECT_NEAR(f.std_error, s.std_error, 0.06 * s.std_error);
    const double width = s.percentile[1] - s.percentile[0];
    for (int k = 0; k < 2; ++k) {
        EXPECT_NEAR(f.percentile[k], s.percentile[k], 0.05 * width);
        EXPECT_NEAR(f.bca[k], s.bca[k], 0.06 * width);
    }
    EXPECT_NEAR(fast.median_ratio.estimate, f.estimate / 100 + 1, 0.01);

    const auto big_a = normal_data(200000, 52), big_b = normal_data(200001, 53, 0.01);
    BootstrapOptions o2;
    o2.resamples = 1999;
    const auto big = bootstrap_medians(big_a, big_b, o2);
    const double asym_big = std::sqrt(3.141592653589793 / 2 * (1.0 / 200000 + 1.0 / 200001));
    EXPECT_NEAR(big.median_difference.std_error, asym_big, 0.15 * asym_big);
    EXPECT_TRUE(big.median_difference.bca_defined);
}

}  // namespace
}  // namespace gfxstat::analysis
