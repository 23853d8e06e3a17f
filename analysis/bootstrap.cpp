// SPDX-License-Identifier: MIT
#include "analysis/bootstrap.h"

#include "analysis/bootstrap_exact.h"
#include "analysis/gamma_variate.h"
#include "analysis/rank_tests.h"
#include "analysis/xoshiro.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

namespace gfxstat::analysis {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---------------------------------------------------------------------------
// Random numbers. Every resample r has its own xoshiro256** generator, seeded
// through SplitMix64 from (seed, r); it draws the baseline's resample and then
// the candidate's. A resample's values therefore depend only on (seed, r), and
// the threads can split the resamples any way they like.


class Rng {
public:
    Rng(uint64_t seed, uint64_t stream) : gen_(state_for(seed, stream)) {}

    uint64_t next() { return gen_.next(); }

    // Uniform on {0, ..., n-1}, exactly (Lemire's multiply-and-reject).
    uint64_t below(uint64_t n) {
        unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
        uint64_t low = static_cast<uint64_t>(m);
        if (low < n) {
            const uint64_t threshold = (0 - n) % n;
            while (low < threshold) {
                m = static_cast<unsigned __int128>(next()) * n;
                low = static_cast<uint64_t>(m);
            }
        }
        return static_cast<uint64_t>(m >> 64);
    }

    // Uniform on (0, 1]: multiples of 2^-53, never 0, so log() is finite.
    double open0() { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }

    double normal() {  // Box-Muller, one of the pair
        const double r = std::sqrt(-2 * std::log(open0()));
        return r * std::cos(6.283185307179586 * open0());
    }

    // Gamma(shape, 1) for shape >= 1: Marsaglia & Tsang (2000), an exact
    // rejection method (acceptance > 95%).
    double gamma(double shape) { return gamma_variate(*this, shape); }

    // Beta(a, b) for a, b >= 1, as X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b).
    double beta(double a, double b) {
        const double x = gamma(a);
        const double y = gamma(b);
        return x / (x + y);
    }

private:
    static std::array<uint64_t, 4> state_for(uint64_t seed, uint64_t stream) {
        constexpr uint64_t kGamma = 0x9E3779B97F4A7C15ULL;
        uint64_t x = mix64(mix64(seed) + stream * kGamma);
        std::array<uint64_t, 4> s;
        for (auto& w : s) w = mix64(x += kGamma);
        return s;
    }
    Xoshiro256ss gen_;
};

// ---------------------------------------------------------------------------
// Medians of sorted data.

double median_sorted(std::span<const double> x) {
    const size_t n = x.size();
    return n % 2 ? x[n / 2] : median_midpoint(x[n / 2 - 1], x[n / 2]);
}

// Median of the sorted x without x[j] (n >= 2), in O(1).
double median_without(std::span<const double> x, size_t j) {
    const size_t m = x.size() - 1;
    auto y = [&](size_t i) { return i < j ? x[i] : x[i + 1]; };
    return m % 2 ? y(m / 2) : median_midpoint(y(m / 2 - 1), y(m / 2));
}

// ---------------------------------------------------------------------------
// One resample's median, from the sorted data x (size n). Let k be the rank
// (1-based) of the lower middle value: k = (n + 1) / 2 for odd n, n / 2 for
// even n (which also needs rank k + 1).
//
// Literal: draw n indices with replacement and count them; a cumulative walk
// over the counts finds the indices of ranks k and k + 1. Since x is sorted,
// the order statistics of the drawn indices are those of the drawn values.
// O(n) time, counts has n entries.
//
// Order statistics, exact in distribution, O(1) time: drawing an index
// uniformly from {0..n-1} is floor(n U) with U uniform on (0,1), and floor is
// monotone, so the rank-k index of a resample is floor(n U_(k)) where U_(k)
// is the k-th smallest of n independent uniforms, which is Beta(k, n-k+1).
// (Equivalently P(I_k <= i) = P(Binomial(n, (i+1)/n) >= k): the binomial
// inverse-transform view, without its search.) For even n the rank-(k+1)
// index is needed jointly: given U_(k) = v, the other n - k uniforms above
// v are independent and uniform on (v, 1) (the order statistics of
// independent uniforms are Markov), so U_(k+1) = v + (1 - v) W with W the
// minimum of n - k uniforms on (0, 1), W ~ Beta(1, n-k), drawn by inversion
// as W = 1 - U'^(1/(n-k)). Then I_(k+1) = floor(n U_(k+1)) >= I_k, equal
// with exactly the probability that the (k+1)-th draw lands on the same
// index. The only approximation is double rounding of U_(k) and U_(k+1)
// (relative 1e-16), which moves floor(n U) with probability about n 1e-16.

double literal_median(std::span<const double> x, Rng& rng, std::vector<uint32_t>& counts) {
    const size_t n = x.size();
    counts.assign(n, 0);
    for (size_t j = 0; j < n; ++j) ++counts[rng.below(n)];
    const size_t k = (n + 1) / 2;  // rank of the lower middle value, 1-based
    size_t i = 0, cum = counts[0];
    while (cum < k) cum += counts[++i];
    if (n % 2) return x[i];
    size_t i2 = i;
    while (cum < k + 1) cum += counts[++i2];
    return median_midpoint(x[i], x[i2]);
}

double order_statistic_median(std::span<const double> x, Rng& rng) {
    const size_t n = x.size();
    const double nd = static_cast<double>(n);
    const size_t k = (n + 1) / 2;
    const double v = rng.beta(static_cast<double>(k), static_cast<double>(n - k + 1));
    auto index = [&](double u) { return std::min(n - 1, static_cast<size_t>(nd * u)); };
    const size_t i = index(v);
    if (n % 2) return x[i];
    const double w = -std::expm1(std::log(rng.open0()) / static_cast<double>(n - k));
    const size_t i2 = index(v + (1 - v) * w);
    return median_midpoint(x[i], x[i2]);
}

struct Sampler {
    std::span<const double> sorted;
    bool literal = true;

    double draw(Rng& rng, std::vector<uint32_t>& counts) const {
        if (sorted.size() == 1) return sorted[0];
        return literal ? literal_median(sorted, rng, counts) : order_statistic_median(sorted, rng);
    }

    // A draw's cost, in literal draws of one index (about 5 ns each): a
    // Beta variate costs some 30.
    size_t cost() const { return sorted.size() == 1 ? 1 : literal ? sorted.size() : 32; }
};

Sampler make_sampler(std::span<const double> sorted, ResampleMethod method) {
    bool literal = method == ResampleMethod::literal ||
                   (method == ResampleMethod::automatic && sorted.size() <= kLiteralResampleMaxN);
    return {sorted, literal};
}

// Runs body(first, last, worker) over [0, count) split into `threads`
// contiguous blocks, one thread each (the caller's thread runs the first).
// A block whose thread cannot be started runs on the caller's thread; an
// exception from any block is rethrown here after all have finished.
template <class Body>
void parallel_blocks(size_t count, int threads, Body body) {
    const size_t t = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), count));
    std::vector<std::exception_ptr> errors(t);
    auto bounds = [&](size_t w) { return count * w / t; };
    auto run = [&](size_t w) {
        try {
            body(bounds(w), bounds(w + 1), w);
        } catch (...) {
            errors[w] = std::current_exception();
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(t - 1);
    for (size_t w = 1; w < t; ++w) {
        try {
            pool.emplace_back(run, w);
        } catch (const std::system_error&) {
            run(w);
        }
    }
    run(0);
    for (auto& th : pool) th.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

std::vector<double> sorted_copy(std::span<const double> v, const char* what) {
    if (v.empty()) throw std::invalid_argument(std::string("bootstrap: empty ") + what);
    for (double x : v)
        if (std::isnan(x)) throw std::invalid_argument(std::string("bootstrap: NaN in ") + what);
    // The radix sort the comparison's rank tests use: a million values in
    // a few ms, where std::sort took a quarter of a second per sample.
    return sorted_ascending(v);
}

void check_resamples(int resamples) {
    if (resamples < 1) throw std::invalid_argument("bootstrap: resamples must be >= 1");
}

// ---------------------------------------------------------------------------
// Intervals from the resampled statistics, as R's boot.ci.

const boost::math::normal_distribution<double> kStdNormal;

double qnorm(double p) {
    if (p <= 0) return -std::numeric_limits<double>::infinity();
    if (p >= 1) return std::numeric_limits<double>::infinity();
    return boost::math::quantile(kStdNormal, p);
}
double pnorm(double z) {
    if (std::isnan(z)) return kNaN;
    if (std::isinf(z)) return z > 0 ? 1 : 0;
    return boost::math::cdf(kStdNormal, z);
}

// boot's norm.inter: the quantile at level alpha of the sorted finite
// statistics t (size R) is the order statistic (R + 1) alpha when that is an
// integer, else interpolated between the neighbouring order statistics on
// the normal quantile scale (Davison & Hinkley eq. 5.8); ranks below 1 or
// above R give the extremes. One deviation: a rank within 1e-9 of an integer
// counts as that integer. R computes (1 + -0.95) / 2 * 10000 =
// 250.0000000000002 and interpolates with a weight of 1e-13 towards the 251st
// value; we take the 250th, which is what boot's documentation intends.
double norm_inter(const std::vector<double>& t, double alpha) {
    const size_t r = t.size();
    const double rk = (static_cast<double>(r) + 1) * alpha;
    if (!(rk >= 0)) return kNaN;  // NaN level
    const double nearest = std::round(rk);
    if (std::fabs(rk - nearest) <= 1e-9 * std::max(1.0, rk)) {
        const double k = std::clamp(nearest, 1.0, static_cast<double>(r));
        return t[static_cast<size_t>(k) - 1];
    }
    const double kf = std::floor(rk);
    if (kf < 1) return t.front();
    if (kf >= static_cast<double>(r)) return t.back();
    const size_t k = static_cast<size_t>(kf);
    const double z = qnorm(alpha), zk = qnorm(kf / (r + 1.0)), zk1 = qnorm((kf + 1) / (r + 1.0));
    const double tk = t[k - 1], tk1 = t[k];
    return tk + (z - zk) / (zk1 - zk) * (tk1 - tk);
}

struct Influence {
    double sum2 = 0, sum3 = 0;
    bool finite = true;
    void add(double l) {
        if (!std::isfinite(l)) finite = false;
        sum2 += l * l;
        sum3 += l * l * l;
    }
};

// The interval from a bootstrap distribution of the statistic (t0 on the
// data): its mean and standard deviation, the share of it strictly below
// t0, and quantile(level), as boot.ci's percentile and BCa intervals.
template <class Quantile>
BootstrapInterval finish_interval(double t0, double mean, double sd, double below, const Influence& infl,
                                  double confidence, Quantile quantile) {
    BootstrapInterval out;
    out.estimate = t0;
    out.bias = mean - t0;
    out.std_error = sd;
    const double alpha[2] = {(1 - confidence) / 2, (1 + confidence) / 2};
    for (int s = 0; s < 2; ++s) out.percentile[s] = quantile(alpha[s]);

    // BCa. z0 counts strictly smaller statistics, as boot does: resamples
    // equal to t0 (common for medians of small or tied samples) count as
    // not below.
    out.z0 = qnorm(below);
    out.acceleration = infl.finite ? infl.sum3 / (6 * std::pow(infl.sum2, 1.5)) : kNaN;
    out.bca_defined = std::isfinite(out.z0) && std::isfinite(out.acceleration);
    for (int s = 0; s < 2 && out.bca_defined; ++s) {
        const double zs = out.z0 + qnorm(alpha[s]);
        const double denom = 1 - out.acceleration * zs;
        if (!(denom > 0)) {
            out.bca_defined = false;
            break;
        }
        const double level = pnorm(out.z0 + zs / denom);
        if (std::isnan(level)) {
            out.bca_defined = false;
            break;
        }
        out.bca[s] = quantile(level);
    }
    if (!out.bca_defined) out.bca = out.percentile;
    return out;
}

// No interval: the statistic t0 (NaN when it is undefined itself) and NaN
// for the rest.
BootstrapInterval undefined_interval(double t0 = kNaN) {
    BootstrapInterval out;
    out.estimate = t0;
    out.percentile = out.bca = {kNaN, kNaN};
    out.bias = out.std_error = out.z0 = out.acceleration = kNaN;
    out.bca_defined = false;
    return out;
}

// t: the resampled statistics (reordered here). L: jackknife influence sums.
BootstrapInterval make_interval(double t0, std::vector<double>& t, const Influence& infl,
                                double confidence) {
    // boot.ci drops non-finite statistics.
    t.erase(std::remove_if(t.begin(), t.end(), [](double v) { return !std::isfinite(v); }), t.end());
    if (t.empty()) return undefined_interval(t0);
    std::sort(t.begin(), t.end());
    const double n = static_cast<double>(t.size());
    long double sum = 0;
    for (double v : t) sum += v;
    const double mean = static_cast<double>(sum / t.size());
    long double ss = 0;
    for (double v : t) ss += (static_cast<long double>(v) - mean) * (v - mean);
    const double sd = t.size() > 1 ? static_cast<double>(std::sqrt(ss / (n - 1))) : kNaN;
    const size_t below = static_cast<size_t>(std::lower_bound(t.begin(), t.end(), t0) - t.begin());
    return finish_interval(t0, mean, sd, static_cast<double>(below) / n, infl, confidence,
                           [&](double level) { return norm_inter(t, level); });
}

// The same from the exact distribution t (reordered and merged here): its
// mean and standard deviation (the limits of the random bootstrap's as the
// resamples grow), the weight strictly below t0, and the quantile at level
// p, the smallest value whose cumulative weight reaches p (where the random
// bootstrap's interpolated order statistic (B + 1) p tends to).
BootstrapInterval make_exact_interval(double t0, std::vector<WeightedValue>& t, const Influence& infl,
                                      double confidence) {
    t.erase(std::remove_if(t.begin(), t.end(), [](const WeightedValue& v) { return !std::isfinite(v.value); }),
            t.end());
    if (t.empty()) return undefined_interval(t0);
    std::sort(t.begin(), t.end(), [](const WeightedValue& a, const WeightedValue& b) { return a.value < b.value; });
    long double total = 0, sum = 0;
    for (const WeightedValue& v : t) {
        total += v.weight;
        sum += static_cast<long double>(v.weight) * v.value;
    }
    const double mean = static_cast<double>(sum / total);
    long double ss = 0;
    for (const WeightedValue& v : t) ss += v.weight * (static_cast<long double>(v.value) - mean) * (v.value - mean);
    const double sd = static_cast<double>(std::sqrt(ss / total));
    // Cumulative weights, normalised: the last is exactly 1.
    std::vector<double> cumulative(t.size());
    long double run = 0;
    for (size_t i = 0; i < t.size(); ++i) cumulative[i] = static_cast<double>((run += t[i].weight) / total);
    cumulative.back() = 1;
    const size_t first_not_below = static_cast<size_t>(
        std::lower_bound(t.begin(), t.end(), t0, [](const WeightedValue& v, double x) { return v.value < x; }) -
        t.begin());
    const double below = first_not_below == 0 ? 0 : cumulative[first_not_below - 1];
    // A cumulative weight within rounding of the level counts as reaching it.
    constexpr double kSlack = 1e-12;
    const auto quantile = [&](double level) {
        if (std::isnan(level)) return kNaN;
        const size_t i = static_cast<size_t>(
            std::lower_bound(cumulative.begin(), cumulative.end(), level - kSlack) - cumulative.begin());
        return t[std::min(i, t.size() - 1)].value;
    };
    return finish_interval(t0, mean, sd, below, infl, confidence, quantile);
}

constexpr size_t kDrawsPerThread = 1 << 18;


}  // namespace

std::vector<double> resampled_medians(std::span<const double> values, int resamples, uint64_t seed,
                                      ResampleMethod method, int threads) {
    check_resamples(resamples);
    const std::vector<double> sorted = sorted_copy(values, "sample");
    const Sampler sampler = make_sampler(sorted, method);
    std::vector<double> out(static_cast<size_t>(resamples));
    parallel_blocks(out.size(), threads, [&](size_t first, size_t last, size_t) {
        std::vector<uint32_t> counts;
        for (size_t r = first; r < last; ++r) {
            Rng rng(seed, r);
            out[r] = sampler.draw(rng, counts);
        }
    });
    return out;
}

namespace {

// Jackknife influence values, both samples (a and b sorted): L_j = (n_s - 1)
// (t0 - t_(-j)) with t_(-j) the statistic without value j of its sample
// (boot's usual.jack). A sample of one value has no leave-one-out
// statistic; its influence is 0 (its resamples never vary). R would stop
// there.
void jackknife(std::span<const double> a, std::span<const double> b, double med_a, double med_b, Influence& di,
               Influence& ri) {
    const double t0_diff = med_b - med_a, t0_ratio = med_b / med_a;
    // Calls add(n_s - 1, the sample's median without value j) for each j.
    const auto leave_one_out = [](std::span<const double> sample, auto&& add) {
        if (sample.size() < 2) return;
        const double f = static_cast<double>(sample.size() - 1);
        for (size_t j = 0; j < sample.size(); ++j) add(f, median_without(sample, j));
    };
    leave_one_out(a, [&](double f, double m) {
        di.add(f * (t0_diff - (med_b - m)));
        ri.add(f * (t0_ratio - med_b / m));
    });
    leave_one_out(b, [&](double f, double m) {
        di.add(f * (t0_diff - (m - med_a)));
        ri.add(f * (t0_ratio - m / med_a));
    });
}

// Where the exact distribution has no more points than the resamples asked
// for, it is computed instead of drawn (method automatic only).
bool exact_is_cheaper(size_t na, size_t nb, const BootstrapOptions& o) {
    if (o.method != ResampleMethod::automatic) return false;
    const size_t pa = exact_median_points(na), pb = exact_median_points(nb);
    const size_t b = static_cast<size_t>(o.resamples);
    return pa <= b && pb <= b / pa;
}

// Threads pay for themselves only on large work: a thread's start and join
// cost some 10^4 draws of an index, and two compete with each other and
// with the next comparison's on a busy machine.
int threads_for(size_t draws, int threads) { return draws >= kDrawsPerThread ? threads : 1; }

}  // namespace

BootstrapResult bootstrap_medians(std::span<const double> baseline, std::span<const double> candidate,
                                  const BootstrapOptions& options) {
    check_resamples(options.resamples);
    if (!(options.confidence > 0 && options.confidence < 1))
        throw std::invalid_argument("bootstrap: confidence must be in (0, 1)");
    const int threads = std::max(1, options.threads);

    // Sort both samples, in parallel when there are threads to spare.
    std::vector<double> a, b;
    const bool big = baseline.size() + candidate.size() > 100000;
    parallel_blocks(2, big ? threads : 1, [&](size_t first, size_t last, size_t) {
        for (size_t s = first; s < last; ++s) {
            if (s == 0) a = sorted_copy(baseline, "baseline");
            else b = sorted_copy(candidate, "candidate");
        }
    });

    const double med_a = median_sorted(a), med_b = median_sorted(b);
    const double t0_diff = med_b - med_a, t0_ratio = med_b / med_a;
    Influence di, ri;
    jackknife(a, b, med_a, med_b, di, ri);
    BootstrapResult result;
    result.resamples = options.resamples;

    if (exact_is_cheaper(a.size(), b.size(), options)) {
        const std::vector<WeightedValue> da = exact_resampled_medians(a), db = exact_resampled_medians(b);
        std::vector<WeightedValue> diff, ratio;
        diff.reserve(da.size() * db.size());
        ratio.reserve(da.size() * db.size());
        bool zero = false;
        for (const WeightedValue& ma : da) {
            zero |= ma.value == 0;
            for (const WeightedValue& mb : db) {
                diff.push_back({mb.value - ma.value, ma.weight * mb.weight});
                ratio.push_back({mb.value / ma.value, ma.weight * mb.weight});
            }
        }
        result.exact = true;
        result.median_difference = make_exact_interval(t0_diff, diff, di, options.confidence);
        result.ratio_defined = med_a != 0 && !zero;
        result.median_ratio = result.ratio_defined ? make_exact_interval(t0_ratio, ratio, ri, options.confidence)
                                                   : undefined_interval();
        return result;
    }

    const Sampler sa = make_sampler(a, options.method), sb = make_sampler(b, options.method);
    const size_t nb_resamples = static_cast<size_t>(options.resamples);
    const int workers = threads_for(nb_resamples * (sa.cost() + sb.cost()), threads);
    std::vector<double> diff(nb_resamples), ratio(nb_resamples);
    std::vector<char> zero_baseline(static_cast<size_t>(workers), 0);
    parallel_blocks(nb_resamples, workers, [&](size_t first, size_t last, size_t worker) {
        std::vector<uint32_t> counts;
        bool zero = false;
        for (size_t r = first; r < last; ++r) {
            Rng rng(options.seed, r);
            const double ma = sa.draw(rng, counts);
            const double mb = sb.draw(rng, counts);
            diff[r] = mb - ma;
            ratio[r] = mb / ma;
            zero |= ma == 0;
        }
        zero_baseline[worker] = zero;
    });

    result.median_difference = make_interval(t0_diff, diff, di, options.confidence);
    result.ratio_defined = med_a != 0 && std::none_of(zero_baseline.begin(), zero_baseline.end(),
                                                      [](char z) { return z != 0; });
    if (result.ratio_defined)
        result.median_ratio = make_interval(t0_ratio, ratio, ri, options.confidence);
    else
        result.median_ratio = undefined_interval();
    return result;
}

}  // namespace gfxstat::analysis
