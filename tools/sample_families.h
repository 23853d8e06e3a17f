// SPDX-License-Identifier: MIT
// The sample families gfxstat's diagnostics are calibrated and checked on:
// unimodal, drift-free families that benchmark data looks like (normal,
// right-skewed timings, heavy tails, values quantised to a timer step), and
// a few with a real bimodality or a real outlier. Shared by
// tools/diagnostic_rates.cpp (the measured false rates in
// docs/diagnostics.md), tools/make_outlier_table.cpp (the outlier cutoffs)
// and the unit tests, so that all of them speak of the same samples.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "analysis/xoshiro.h"

namespace gfxstat::tools {

class FamilyRng {
public:
    explicit FamilyRng(uint64_t seed)
        : g_({analysis::splitmix64(seed), analysis::splitmix64(seed), analysis::splitmix64(seed),
              analysis::splitmix64(seed)}) {}
    // (0, 1): never 0, so that logs are finite.
    double uniform() { return (static_cast<double>(g_.next() >> 11) + 0.5) * 0x1.0p-53; }
    double normal() {
        // Box-Muller, one value per pair: simple and the same everywhere.
        const double u = uniform(), v = uniform();
        return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * v);
    }
    double exponential(double mean) { return -mean * std::log(uniform()); }
    double student_t3() {
        const double a = normal(), b = normal(), c = normal();
        return normal() / std::sqrt((a * a + b * b + c * c) / 3);
    }
    size_t below(size_t n) { return static_cast<size_t>(uniform() * static_cast<double>(n)); }

private:
    analysis::Xoshiro256ss g_;
};

enum class Family {
    normal,          // N(100, 1)
    lognormal_005,   // 10 exp(0.05 Z)
    lognormal_02,    // 10 exp(0.2 Z)
    lognormal_05,    // 10 exp(0.5 Z)
    ex_gaussian,     // N(20, 0.5) + Exp(mean 1.5), ms
    student_t3,      // 100 + t3
    ex_gaussian_us,  // the ex-Gaussian rounded to 1 us (0.001 ms)
    normal_ms,       // N(16.4, 0.6) rounded to 1 ms
    // Not unimodal, or not clean:
    bimodal_d4,      // 0.5 N(100, 1) + 0.5 N(105.66, 1): Ashman's D = 4
    fps_60_30,       // 90% 60 fps, 10% 30 fps, per-run noise sd 0.05, printed to 0.01
    fps_60_30_exact, // 90% exactly 60, 10% exactly 30
    outlier_10sd,    // N(100, 1) with one value (at a random place) 10 sd out
};

inline constexpr Family kUnimodalFamilies[] = {Family::normal,       Family::lognormal_005, Family::lognormal_02,
                                               Family::lognormal_05, Family::ex_gaussian,   Family::student_t3,
                                               Family::ex_gaussian_us, Family::normal_ms};

inline std::string family_name(Family f) {
    switch (f) {
        case Family::normal: return "normal";
        case Family::lognormal_005: return "lognormal 0.05";
        case Family::lognormal_02: return "lognormal 0.2";
        case Family::lognormal_05: return "lognormal 0.5";
        case Family::ex_gaussian: return "ex-Gaussian";
        case Family::student_t3: return "t3";
        case Family::ex_gaussian_us: return "ex-Gaussian, 1 us";
        case Family::normal_ms: return "normal, 1 ms";
        case Family::bimodal_d4: return "bimodal D=4";
        case Family::fps_60_30: return "60/30 fps";
        case Family::fps_60_30_exact: return "60/30 fps exact";
        case Family::outlier_10sd: return "10 sd outlier";
    }
    return "?";
}

inline double round_to(double x, double step) { return std::round(x / step) * step; }

inline std::vector<double> draw(Family f, size_t n, FamilyRng& r) {
    std::vector<double> x(n);
    for (double& v : x) {
        switch (f) {
            case Family::normal: v = 100 + r.normal(); break;
            case Family::lognormal_005: v = 10 * std::exp(0.05 * r.normal()); break;
            case Family::lognormal_02: v = 10 * std::exp(0.2 * r.normal()); break;
            case Family::lognormal_05: v = 10 * std::exp(0.5 * r.normal()); break;
            case Family::ex_gaussian: v = 20 + 0.5 * r.normal() + r.exponential(1.5); break;
            case Family::student_t3: v = 100 + r.student_t3(); break;
            case Family::ex_gaussian_us: v = round_to(20 + 0.5 * r.normal() + r.exponential(1.5), 0.001); break;
            case Family::normal_ms: v = round_to(16.4 + 0.6 * r.normal(), 1); break;
            case Family::bimodal_d4: v = (r.uniform() < 0.5 ? 100 : 105.66) + r.normal(); break;
            case Family::fps_60_30: v = round_to((r.uniform() < 0.9 ? 60 : 30) + 0.05 * r.normal(), 0.01); break;
            case Family::fps_60_30_exact: v = r.uniform() < 0.9 ? 60 : 30; break;
            case Family::outlier_10sd: v = 100 + r.normal(); break;
        }
    }
    if (f == Family::outlier_10sd && n > 0) x[r.below(n)] = 110;
    return x;
}

}  // namespace gfxstat::tools
