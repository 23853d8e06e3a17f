// SPDX-License-Identifier: MIT
#include "tests/calibration/ab_sim.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/t_tests.h"

namespace gfxstat::calibration {

using analysis::Better;

std::vector<size_t> ab_families() {
    std::vector<size_t> out;
    const auto& fams = families();
    for (size_t i = 0; i < fams.size(); ++i)
        if (fams[i].verdicts) out.push_back(i);
    return out;
}

double bad_scale(const Family& f, double delta) { return f.better == Better::higher ? 1 - delta : 1 + delta; }

RunStream::RunStream(const Family& f, size_t slots, Rng& rng) : f_(f), rng_(rng), slots_(slots) {
    const std::string name = f.name;
    if (name == "boot-modes") {
        kind_ = Kind::boot;
        mode_ = rng_.uniform() < 0.5 ? 100 : 104;
    } else if (name == "drift") {
        kind_ = Kind::drift;
    } else {
        kind_ = Kind::iid;
    }
}

double RunStream::value(double scale, size_t slot) {
    switch (kind_) {
        case Kind::boot: return scale * (mode_ + 0.5 * rng_.normal());
        case Kind::drift: {
            const double t = slots_ > 1 ? static_cast<double>(slot) / static_cast<double>(slots_ - 1) : 0;
            return scale * (100 + rng_.normal() + 3.0 * t);
        }
        case Kind::iid: break;
    }
    Change ch;
    ch.scale = scale;
    generate(f_, 1, ch, "x", rng_, scratch_);
    return scratch_.values[0];
}

namespace {

// +1 when the candidate is worse than the baseline by the sign of `diff`
// (candidate - baseline, or its log ratio), -1 when better.
int worse_sign(const Family& f, double diff) {
    const int up = diff > 0 ? 1 : (diff < 0 ? -1 : 0);
    return f.better == Better::higher ? -up : up;
}

int decide(const Family& f, const analysis::TTest& t, double alpha) {
    if (!(t.p <= alpha)) return 0;
    return worse_sign(f, t.difference);
}

analysis::TTest welch(const std::vector<double>& a, const std::vector<double>& b, double alpha) {
    const auto m = analysis::two_sample_moments(analysis::ScaledValues{std::span<const double>(a), 0},
                                                analysis::ScaledValues{std::span<const double>(b), 0});
    return analysis::welch_t_test(m, 1 - alpha);
}

}  // namespace

AbOutcome run_ab(const Family& f, double scale, size_t max_runs, const analysis::SequentialOptions& o, Rng& rng) {
    RunStream stream(f, 2 * max_runs, rng);
    std::vector<double> base, cand;
    base.reserve(max_runs);
    cand.reserve(max_runs);
    AbOutcome out;
    for (size_t i = 0; i < max_runs; ++i) {
        const bool baseline_first = rng.uniform() < 0.5;
        const size_t sb = 2 * i + (baseline_first ? 0 : 1), sc = 2 * i + (baseline_first ? 1 : 0);
        // Draw in time order, so that the stream is the machine's history.
        if (baseline_first) {
            base.push_back(stream.value(1, sb));
            cand.push_back(stream.value(scale, sc));
        } else {
            cand.push_back(stream.value(scale, sc));
            base.push_back(stream.value(1, sb));
        }
        out.blocks = i + 1;
        if (base.size() < 2) continue;
        const auto look = analysis::sequential_look(base, cand, o);
        if (look.call == analysis::SequentialCall::go_on) continue;
        if (look.call == analysis::SequentialCall::equivalent) out.call = AbCall::equivalent;
        else out.call = worse_sign(f, look.relative_change) > 0 ? AbCall::regression : AbCall::improvement;
        return out;
    }
    out.call = AbCall::inconclusive;
    return out;
}

int welch_fixed(const Family& f, double scale, size_t n, double alpha, Rng& rng) {
    RunStream stream(f, 2 * n, rng);
    std::vector<double> a(n), b(n);
    for (size_t i = 0; i < n; ++i) a[i] = stream.value(1, i);
    for (size_t i = 0; i < n; ++i) b[i] = stream.value(scale, n + i);
    return decide(f, welch(a, b, alpha), alpha);
}

int paired_fixed(const Family& f, double scale, size_t n, double alpha, Rng& rng) {
    RunStream stream(f, 2 * n, rng);
    std::vector<double> d(n);
    for (size_t i = 0; i < n; ++i) {
        const bool baseline_first = rng.uniform() < 0.5;
        double b, c;
        if (baseline_first) {
            b = stream.value(1, 2 * i);
            c = stream.value(scale, 2 * i + 1);
        } else {
            c = stream.value(scale, 2 * i);
            b = stream.value(1, 2 * i + 1);
        }
        d[i] = std::log(c) - std::log(b);
    }
    return decide(f, analysis::one_sample_t_test(d, 1 - alpha), alpha);
}

namespace {

double relative_sd_percent(const std::vector<double>& v) {
    const double n = static_cast<double>(v.size());
    if (v.size() < 2) return 0;
    double m = 0;
    for (double x : v) m += x;
    m /= n;
    double ss = 0;
    for (double x : v) ss += (x - m) * (x - m);
    return m != 0 ? std::sqrt(ss / (n - 1)) / m * 100 : 0;
}

bool outside_three_sigma(const std::vector<double>& v) {
    const double n = static_cast<double>(v.size());
    double m = 0;
    for (double x : v) m += x;
    m /= n;
    double ss = 0;
    for (double x : v) ss += (x - m) * (x - m);
    const double sd = std::sqrt(ss / n);  // population sd, as PTS's three_sigma_limits
    for (double x : v)
        if (x < m - 3 * sd || x > m + 3 * sd) return true;
    return false;
}

// One variant's runs under the dynamic run count, from slot `first` on.
void pts_side(RunStream& stream, double scale, size_t first, double threshold, size_t scheduled,
              std::vector<double>& v) {
    v.clear();
    for (size_t i = 0; i < scheduled; ++i) v.push_back(stream.value(scale, first + v.size()));
    std::vector<double> noisy_sds;  // the relative sd at each noisy check
    const size_t max_runs = 4 * scheduled;
    for (;;) {
        const double sd = relative_sd_percent(v);
        bool more = false;
        if (sd >= threshold || outside_three_sigma(v)) {
            noisy_sds.push_back(sd);
            if (v.size() < max_runs) more = true;
            else if (v.size() < max_runs + scheduled)
                more = std::fabs(noisy_sds.front() - noisy_sds.back()) < noisy_sds.front() / 2;
        }
        if (!more) break;
        v.push_back(stream.value(scale, first + v.size()));
    }
}

}  // namespace

PtsOutcome pts_fixed(const Family& f, double scale, double threshold_percent, size_t scheduled, double alpha,
                     Rng& rng) {
    // The time line: the baseline's runs, then the candidate's; the drift
    // spans the most both could use.
    const size_t most = 5 * scheduled;
    RunStream stream(f, 2 * most, rng);
    std::vector<double> a, b;
    pts_side(stream, 1, 0, threshold_percent, scheduled, a);
    pts_side(stream, scale, a.size(), threshold_percent, scheduled, b);
    PtsOutcome out;
    out.runs_baseline = a.size();
    out.runs_candidate = b.size();
    out.verdict = decide(f, welch(a, b, alpha), alpha);
    return out;
}

}  // namespace gfxstat::calibration
