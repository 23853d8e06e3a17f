// SPDX-License-Identifier: MIT
// The dip's null distribution by Monte Carlo: dips of seeded uniform samples
// and their quantiles. Used by tools/make_dip_table.cpp to write
// analysis/dip_table.cpp, and by the tests to check that table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gfxstat::analysis {

// Quantiles (at `probabilities`, each in [0, 1]) of the dip of `replicates`
// uniform samples of size n, from a generator seeded with `seed`. The result
// does not depend on `threads`.
std::vector<double> simulate_dip_quantiles(size_t n, size_t replicates, uint64_t seed,
                                           std::span<const double> probabilities, int threads = 1);

// The table the p-value interpolates in (analysis/dip_table.cpp).
struct DipTable {
    std::span<const double> probabilities;  // increasing, in [0, 1]
    std::span<const size_t> sizes;          // increasing sample sizes
    // quantiles[i * probabilities.size() + j]: the probabilities[j] quantile
    // of the dip at n = sizes[i].
    std::span<const double> quantiles;
    size_t replicates = 0;                  // per size (the smallest used)
    uint64_t seed = 0;
};
const DipTable& dip_table();

}  // namespace gfxstat::analysis
