// SPDX-License-Identifier: MIT
#include "analysis/bootstrap_exact.h"

#include <algorithm>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>

namespace gfxstat::analysis {

namespace {

// P(Binomial(n, p) >= k), k >= 1: the regularised incomplete beta function.
double at_least(double n, double k, double p) {
    if (p <= 0) return 0;
    if (p >= 1) return 1;
    return boost::math::ibeta(k, n - k + 1, p);
}

// Merges equal values (ordered by value), drops points of weight 0.
std::vector<WeightedValue> merged(std::vector<WeightedValue> points) {
    std::sort(points.begin(), points.end(),
              [](const WeightedValue& a, const WeightedValue& b) { return a.value < b.value; });
    std::vector<WeightedValue> out;
    for (const WeightedValue& p : points) {
        if (!(p.weight > 0)) continue;
        if (!out.empty() && out.back().value == p.value) out.back().weight += p.weight;
        else out.push_back(p);
    }
    return out;
}

}  // namespace

std::size_t exact_median_points(std::size_t n) {
    if (n <= 1) return 1;
    return n % 2 ? n : n * (n + 1) / 2;
}

std::vector<WeightedValue> exact_resampled_medians(std::span<const double> sorted) {
    const std::size_t n = sorted.size();
    if (n == 1) return {{sorted[0], 1}};
    const double nd = static_cast<double>(n);
    const std::size_t k = (n + 1) / 2;  // rank of the lower middle value, 1-based
    const double kd = static_cast<double>(k);
    // rank_k_on[i]: P(the k-th smallest draw has index i).
    std::vector<double> rank_k_on(n);
    double below = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double upto = at_least(nd, kd, static_cast<double>(i + 1) / nd);
        rank_k_on[i] = upto - below;
        below = upto;
    }
    std::vector<WeightedValue> points;
    if (n % 2) {
        for (std::size_t i = 0; i < n; ++i) points.push_back({sorted[i], rank_k_on[i]});
        return merged(std::move(points));
    }
    // Even n: A(i) in logarithms (the multinomial coefficients overflow
    // for large n), B(j) directly.
    std::vector<double> log_factorial(n + 1, 0);
    for (std::size_t m = 1; m <= n; ++m) log_factorial[m] = log_factorial[m - 1] + std::log(static_cast<double>(m));
    const double log_n = std::log(nd);
    const auto above = [&](std::size_t count) { return std::pow(static_cast<double>(count) / nd, kd); };
    std::vector<double> b(n);
    for (std::size_t j = 0; j < n; ++j) b[j] = above(n - j) - above(n - j - 1);
    points.reserve(n * (n + 1) / 2);
    for (std::size_t i = 0; i < n; ++i) {
        double a = 0;
        for (std::size_t s = 0; s < k && (s == 0 || i > 0); ++s) {
            const double sd = static_cast<double>(s);
            // n! / (s! (k - s)! k!) i^s / n^k
            const double log_term = log_factorial[n] - log_factorial[s] - log_factorial[k - s] - log_factorial[k] +
                                    (s ? sd * std::log(static_cast<double>(i)) : 0) - kd * log_n;
            a += std::exp(log_term);
        }
        const double same = rank_k_on[i] - a * above(n - i - 1);
        points.push_back({sorted[i], std::max(0.0, same)});
        for (std::size_t j = i + 1; j < n; ++j) points.push_back({median_midpoint(sorted[i], sorted[j]), a * b[j]});
    }
    return merged(std::move(points));
}

}  // namespace gfxstat::analysis
