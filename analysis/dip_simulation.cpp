// SPDX-License-Identifier: MIT
// Monte Carlo null distribution of the dip: see dip_simulation.h.
#include "analysis/dip_simulation.h"

#include "analysis/dip.h"
#include "analysis/xoshiro.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace gfxstat::analysis {

namespace {

// A replicate's generator: its four words from SplitMix64 run on its seed.
Xoshiro256ss seeded_generator(uint64_t seed) {
    std::array<uint64_t, 4> state;
    for (uint64_t& w : state) w = splitmix64(seed);
    return Xoshiro256ss(state);
}

// Replicate i of size n draws from its own generator, so the dips do not
// depend on how replicates are spread over threads.
uint64_t replicate_seed(uint64_t seed, size_t n, size_t i) {
    uint64_t state = seed;
    uint64_t h = splitmix64(state);
    state = h ^ static_cast<uint64_t>(n);
    h = splitmix64(state);
    state = h ^ static_cast<uint64_t>(i);
    return splitmix64(state);
}

void simulate_range(size_t n, uint64_t seed, size_t begin, size_t end, double* dips) {
    std::vector<double> x(n);
    for (size_t i = begin; i < end; ++i) {
        Xoshiro256ss rng = seeded_generator(replicate_seed(seed, n, i));
        for (double& v : x) v = rng.uniform();
        std::sort(x.begin(), x.end());
        dips[i] = dip_statistic(x);
    }
}

}  // namespace

std::vector<double> simulate_dip_quantiles(size_t n, size_t replicates, uint64_t seed,
                                           std::span<const double> probabilities, int threads) {
    std::vector<double> q(probabilities.size(), 0.0);
    if (replicates == 0 || n == 0) return q;
    std::vector<double> dips(replicates);
    const size_t workers =
        std::clamp<size_t>(threads < 1 ? 1 : static_cast<size_t>(threads), 1, replicates);
    if (workers == 1) {
        simulate_range(n, seed, 0, replicates, dips.data());
    } else {
        std::vector<std::thread> pool;
        pool.reserve(workers);
        for (size_t w = 0; w < workers; ++w) {
            const size_t begin = replicates * w / workers, end = replicates * (w + 1) / workers;
            pool.emplace_back(simulate_range, n, seed, begin, end, dips.data());
        }
        for (auto& t : pool) t.join();
    }
    std::sort(dips.begin(), dips.end());

    // R's quantile type 7: position h = (N - 1) p between order statistics,
    // linear in between, and exactly the order statistic when the two
    // neighbours are equal (so atoms of the discrete small-n distribution
    // come out exactly). A position within 1e-9 of an integer is taken as
    // that integer, so that e.g. p = 0.29 with N - 1 = 100000 lands on an
    // order statistic despite binary rounding.
    const double last = static_cast<double>(replicates - 1);
    for (size_t j = 0; j < probabilities.size(); ++j) {
        double h = last * std::clamp(probabilities[j], 0.0, 1.0);
        const double r = std::round(h);
        if (std::fabs(h - r) <= 1e-9 * std::max(1.0, r)) h = r;
        const size_t lo = static_cast<size_t>(std::floor(h));
        const size_t hi = std::min(lo + 1, replicates - 1);
        const double frac = h - static_cast<double>(lo);
        if (frac == 0 || dips[hi] == dips[lo])
            q[j] = dips[lo];
        else
            q[j] = (1 - frac) * dips[lo] + frac * dips[hi];
    }
    return q;
}

}  // namespace gfxstat::analysis
