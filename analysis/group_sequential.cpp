// SPDX-License-Identifier: MIT
// The Pocock boundary of group_sequential.h: the joint law of the looks' t
// statistics under "no change", simulated once per (looks, alpha) with a
// fixed seed, and the per-look level read off it.
#include "analysis/group_sequential.h"

#include <algorithm>
#include <array>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <utility>
#include <vector>

#include "analysis/gamma_variate.h"
#include "analysis/student_t.h"
#include "analysis/xoshiro.h"

namespace gfxstat::analysis {

namespace {

// The boundary's seed: fixed, so that every program computes the same one.
constexpr uint64_t kGroupSeed = 0x6a09e667f3bcc908ULL;

class Draws {
public:
    explicit Draws(uint64_t seed) : g_(state(seed)) {}
    // Uniform on (0, 1], never 0, so that log() is finite.
    double open0() { return 1 - g_.uniform(); }
    // Box-Muller, one value of each pair: simple, and the draws are cheap
    // next to the replicates' other work.
    double normal() { return std::sqrt(-2 * std::log(open0())) * std::cos(2 * std::numbers::pi * g_.uniform()); }
    // Gamma(shape, 1); shape < 1 by the boost Gamma(a) = Gamma(a + 1) U^(1/a).
    double gamma(double shape) {
        if (shape < 1) return gamma_variate(*this, shape + 1) * std::pow(open0(), 1 / shape);
        return gamma_variate(*this, shape);
    }

private:
    static std::array<uint64_t, 4> state(uint64_t seed) {
        std::array<uint64_t, 4> s{};
        for (auto& w : s) w = splitmix64(seed);
        return s;
    }
    Xoshiro256ss g_;
};

void check(std::span<const size_t> looks, double alpha) {
    if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("group-sequential boundary: alpha must be in (0, 1)");
    if (looks.empty()) throw std::invalid_argument("group-sequential boundary: no look planned");
    if (looks[0] < 2) throw std::invalid_argument("group-sequential boundary: the first look needs 2 blocks or more");
    for (size_t k = 1; k < looks.size(); ++k)
        if (looks[k] <= looks[k - 1]) throw std::invalid_argument("group-sequential boundary: the looks must increase");
}

// A look's two-sided p as a function of |t|, for the replicates: log p
// tabulated on a grid of |t| and interpolated linearly. log p is smooth in
// |t| (about -t^2/2 in the normal's tail), so the interpolation's error is
// about h^2/8 = 1.3e-5 relative at h = 0.01; past the grid (p below about
// 1e-5 even on 1 df) the exact p. Two million exact p's (10 looks of 200000
// replicates) cost seconds, the tables a few milliseconds.
class PTable {
public:
    explicit PTable(double df) : df_(df), log_p_(kPoints + 1) {
        for (size_t i = 0; i <= kPoints; ++i) log_p_[i] = std::log(t_two_sided_p(static_cast<double>(i) * kStep, df));
    }
    double operator()(double abs_t) const {
        const double x = abs_t / kStep;
        if (!(x < static_cast<double>(kPoints))) return t_two_sided_p(abs_t, df_);
        const auto i = static_cast<size_t>(x);
        const double f = x - static_cast<double>(i);
        return std::exp(log_p_[i] + f * (log_p_[i + 1] - log_p_[i]));
    }

private:
    static constexpr double kStep = 0.01;
    static constexpr size_t kPoints = 6400;  // |t| up to 64
    double df_;
    std::vector<double> log_p_;
};

std::unique_ptr<GroupBoundary> compute(std::span<const size_t> looks, double alpha) {
    auto b = std::make_unique<GroupBoundary>();
    b->looks.assign(looks.begin(), looks.end());
    b->alpha = alpha;
    const size_t k_looks = looks.size();
    std::vector<double> df(k_looks);
    std::vector<PTable> p_of;
    for (size_t k = 0; k < k_looks; ++k) {
        df[k] = static_cast<double>(looks[k]) - 1;
        p_of.emplace_back(df[k]);
    }
    // Each replicate: the block differences as stretches between looks,
    // standard normal (the law of the t's is free of mean and variance).
    // A stretch of m blocks adds its sum, sqrt(m) Z, and its own sum of
    // squares about its mean, chi-square on m - 1 df = 2 Gamma((m - 1)/2);
    // the running sum of squares about the overall mean then merges them
    // (Chan, Golub & LeVeque). The smallest nominal p of the replicate is
    // what the boundary and the p need.
    Draws draws(kGroupSeed);
    b->min_p.resize(kGroupReplicates);
    for (size_t rep = 0; rep < kGroupReplicates; ++rep) {
        double n = 0, mean = 0, q = 0, smallest = 1;
        size_t prev = 0;
        for (size_t k = 0; k < k_looks; ++k) {
            const double m = static_cast<double>(looks[k] - prev);
            prev = looks[k];
            const double sum = std::sqrt(m) * draws.normal();
            const double within = m >= 2 ? 2 * draws.gamma((m - 1) / 2) : 0;
            const double seg_mean = sum / m, total = n + m;
            q += within + (n > 0 ? n * m / total * (seg_mean - mean) * (seg_mean - mean) : 0);
            mean += (seg_mean - mean) * m / total;
            n = total;
            const double se = std::sqrt(q / (n - 1) / n);
            smallest = std::min(smallest, p_of[k](std::fabs(mean) / se));
        }
        b->min_p[rep] = smallest;
    }
    std::sort(b->min_p.begin(), b->min_p.end());
    // The largest level at which (count + 1) / (R + 1) <= alpha: count =
    // j replicates at most, j = floor(alpha (R + 1)) - 1, so the level is
    // the (j + 1)-th smallest p, and a look rejects when its p is below it
    // (strictly): then group_p's p is <= alpha exactly when a look rejected.
    const double r1 = static_cast<double>(kGroupReplicates + 1);
    const double allowed = std::floor(alpha * r1) - 1;
    // alpha too small for the simulation: no look can decide.
    b->nominal = allowed < 0 ? 0 : b->min_p[static_cast<size_t>(allowed)];
    b->critical.resize(k_looks);
    for (size_t k = 0; k < k_looks; ++k)
        b->critical[k] = b->nominal > 0 ? t_quantile(1 - b->nominal / 2, df[k]) : std::numeric_limits<double>::infinity();
    return b;
}

}  // namespace

std::vector<size_t> group_looks(size_t max_blocks) {
    if (max_blocks < 2) throw std::invalid_argument("group-sequential looks: at least 2 blocks");
    constexpr size_t kFirst = 4, kMaxLooks = 10, kMinSpacing = 4;
    if (max_blocks <= kFirst) return {max_blocks};
    const size_t span = max_blocks - kFirst;
    const size_t k_looks = std::min(kMaxLooks, 1 + std::max<size_t>(1, span / kMinSpacing));
    std::vector<size_t> looks;
    for (size_t k = 0; k < k_looks; ++k) {
        // Rounded to the nearest block, the last exactly max_blocks.
        const size_t at = kFirst + (span * k + (k_looks - 1) / 2) / (k_looks - 1);
        if (looks.empty() || at > looks.back()) looks.push_back(at);
    }
    return looks;
}

double t_two_sided_p(double abs_t, double df) {
    if (!(abs_t > 0)) return 1;
    if (std::isinf(abs_t)) return 0;
    const boost::math::students_t dist(df);
    return std::min(1.0, 2 * boost::math::cdf(boost::math::complement(dist, abs_t)));
}

const GroupBoundary& group_boundary(std::span<const size_t> looks, double alpha) {
    check(looks, alpha);
    static std::mutex mutex;
    static std::map<std::pair<std::vector<size_t>, double>, std::unique_ptr<GroupBoundary>> cache;
    std::pair<std::vector<size_t>, double> key{std::vector<size_t>(looks.begin(), looks.end()), alpha};
    {
        std::lock_guard lock(mutex);
        if (auto it = cache.find(key); it != cache.end()) return *it->second;
    }
    // Computed outside the lock (a fraction of a second): two threads that
    // ask at once compute the same boundary, and the first one is kept.
    auto b = compute(looks, alpha);
    std::lock_guard lock(mutex);
    auto [it, inserted] = cache.emplace(std::move(key), std::move(b));
    return *it->second;
}

double group_radius(const GroupBoundary& b, size_t blocks) {
    const auto it = std::lower_bound(b.looks.begin(), b.looks.end(), blocks);
    if (it == b.looks.end() || *it != blocks) return std::numeric_limits<double>::infinity();
    return b.critical[static_cast<size_t>(it - b.looks.begin())];
}

double group_p(const GroupBoundary& b, double smallest_nominal_p) {
    const auto count = static_cast<double>(std::upper_bound(b.min_p.begin(), b.min_p.end(), smallest_nominal_p) -
                                           b.min_p.begin());
    return std::min(1.0, (count + 1) / (static_cast<double>(b.min_p.size()) + 1));
}

}  // namespace gfxstat::analysis
