// SPDX-License-Identifier: MIT
#include "tests/calibration/families.h"

#include <cmath>
#include <numbers>

namespace gfxstat::calibration {

using analysis::Better;

Rng::Rng(uint64_t seed)
    : g_([&] {
          std::array<uint64_t, 4> s{};
          for (auto& w : s) w = analysis::splitmix64(seed);
          return s;
      }()) {}

double Rng::normal() {
    // Box-Muller without caching the second variate: one replicate's stream
    // then does not depend on how many normals earlier code drew in pairs.
    const double u1 = 1 - uniform();  // (0, 1]: log(0) never happens
    const double u2 = uniform();
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
}

double Rng::exponential(double mean) { return -mean * std::log(1 - uniform()); }

double Rng::student_t3() {
    const double z = normal();
    double chi2 = 0;
    for (int i = 0; i < 3; ++i) {
        const double x = normal();
        chi2 += x * x;
    }
    return z / std::sqrt(chi2 / 3);
}

namespace {

// Means below are the distributions' exact means (rounded in the text);
// the additive shift uses them, but coverage is judged on the shift itself,
// which moves every location estimand by the same amount whatever the mean.
const std::vector<Family> kFamilies = {
    {"normal", "N(100, 2): mean 100, sd 2", "time", Better::lower, 100, true, true, false, false,
     Detects::nothing},
    {"lognormal-0.05", "100 exp(0.05 Z): median 100, mean 100.1, sd 5.0", "time", Better::lower,
     100 * std::exp(0.05 * 0.05 / 2), true, true, false, false, Detects::nothing},
    {"lognormal-0.2", "100 exp(0.2 Z): median 100, mean 102.0, sd 20.6", "time", Better::lower,
     100 * std::exp(0.2 * 0.2 / 2), true, true, false, false, Detects::nothing},
    {"lognormal-0.5", "100 exp(0.5 Z): median 100, mean 113.3, sd 60.4", "time", Better::lower,
     100 * std::exp(0.5 * 0.5 / 2), true, true, false, false, Detects::nothing},
    {"ex-gaussian", "N(20, 0.5) + Exp(mean 1.5), a latency in us: mean 21.5, sd 1.58", "latency us",
     Better::lower, 21.5, true, true, false, false, Detects::nothing},
    {"t3", "100 + 2 t3: mean 100, sd 3.46 (heavy tails)", "time", Better::lower, 100, true, true, false, false,
     Detects::nothing},
    {"latency-1us", "ex-Gaussian rounded to a 1 us timer step: mean ~21.5, sd ~1.6", "latency us", Better::lower,
     21.5, true, true, false, false, Detects::nothing},
    {"frametime-1ms", "N(16.4, 0.6) rounded to 1 ms: mean ~16.4, sd ~0.67", "frame time ms", Better::lower, 16.4,
     true, true, false, false, Detects::nothing},
    {"fps-60-30", "60 fps, 30 with probability 0.1: mean 57, sd 9", "fps", Better::higher, 57, false, true, false,
     false, Detects::bimodality},
    {"boot-modes", "each boot draws mode 100 or 104 (p 0.5), runs N(mode, 0.5); max(2, ceil(n/3)) boots: mean "
                   "102, sd 2.06",
     "time", Better::lower, 102, false, true, true, false, Detects::nothing},
    {"drift", "N(100, 1) plus a linear drift of +3% over the series, both sides: mean 101.5", "time", Better::lower,
     101.5, false, true, false, false, Detects::drift},
    {"constant", "every value 100", "time", Better::lower, 100, false, true, false, false, Detects::nothing},
    {"deterministic", "1000 in every run of a variant (an instruction count), compared exactly", "count",
     Better::lower, 1000, false, true, false, true, Detects::nothing},
    {"mixture-D4", "0.5 N(100, 1) + 0.5 N(104, 1): two modes, Ashman's D = 4; mean 102, sd 2.24", "time",
     Better::lower, 102, false, false, false, false, Detects::bimodality},
    {"outlier", "N(100, 2) with one value at 120 (10 sd out) at a random position", "time", Better::lower, 100,
     false, false, false, false, Detects::outlier},
};

}  // namespace

const std::vector<Family>& families() { return kFamilies; }

const Family* find_family(const std::string& name) {
    for (const Family& f : kFamilies)
        if (name == f.name) return &f;
    return nullptr;
}

analysis::SampleLayout Sample::layout() const {
    analysis::SampleLayout l;
    if (boot_of_value.empty()) return l;
    l.boot_of_value = boot_of_value;
    l.boot_ids = boot_ids;
    l.firsts = firsts;
    return l;
}

void generate(const Family& f, size_t n, const Change& ch, const char* side, Rng& rng, Sample& out) {
    out.values.assign(n, 0);
    out.boot_of_value.clear();
    out.boot_ids.clear();
    out.firsts.clear();
    out.planted.reset();
    const std::string name = f.name;
    const double s = ch.scale;
    auto& v = out.values;
    if (name == "normal") {
        for (auto& x : v) x = s * (100 + 2 * rng.normal());
    } else if (name.starts_with("lognormal-")) {
        const double sigma = std::stod(name.substr(10));
        for (auto& x : v) x = s * 100 * std::exp(sigma * rng.normal());
    } else if (name == "ex-gaussian" || name == "latency-1us") {
        for (auto& x : v) {
            x = s * (20 + 0.5 * rng.normal() + rng.exponential(1.5));
            if (name == "latency-1us") x = std::round(x);
        }
    } else if (name == "t3") {
        for (auto& x : v) x = s * (100 + 2 * rng.student_t3());
    } else if (name == "frametime-1ms") {
        for (auto& x : v) x = std::round(s * (16.4 + 0.6 * rng.normal()));
    } else if (name == "fps-60-30") {
        // A discrete frame rate: the scale is a change of the rates
        // themselves (60 -> 61.2 at +2%), not of how often 30 fps happens.
        for (auto& x : v) x = s * (rng.uniform() < 0.1 ? 30 : 60);
    } else if (name == "boot-modes") {
        const size_t boots = std::max<size_t>(2, (n + 2) / 3);
        // Consecutive runs per boot, as even as possible (the first boots
        // get the extra runs).
        size_t i = 0;
        for (size_t b = 0; b < boots; ++b) {
            const size_t runs = n / boots + (b < n % boots ? 1 : 0);
            if (runs == 0) continue;
            out.boot_ids.push_back(std::string(side) + std::to_string(b));
            out.firsts.push_back(i);
            const double mode = rng.uniform() < 0.5 ? 100 : 104;
            for (size_t r = 0; r < runs; ++r, ++i) {
                v[i] = s * (mode + 0.5 * rng.normal());
                out.boot_of_value.push_back(static_cast<uint32_t>(out.boot_ids.size() - 1));
            }
        }
    } else if (name == "drift") {
        for (size_t i = 0; i < n; ++i)
            v[i] = s * (100 + rng.normal() + 3.0 * static_cast<double>(i) / static_cast<double>(n - 1));
    } else if (name == "constant") {
        for (auto& x : v) x = s * 100;
    } else if (name == "deterministic") {
        for (auto& x : v) x = s * 1000;
    } else if (name == "mixture-D4") {
        for (auto& x : v) x = s * ((rng.uniform() < 0.5 ? 100 : 104) + rng.normal());
    } else if (name == "outlier") {
        for (auto& x : v) x = s * (100 + 2 * rng.normal());
        const size_t at = static_cast<size_t>(rng.uniform() * static_cast<double>(n));
        v[at] = s * 120;
        out.planted = at;
    }
    if (ch.shift != 0)
        for (auto& x : v) x += ch.shift;
}

}  // namespace gfxstat::calibration
