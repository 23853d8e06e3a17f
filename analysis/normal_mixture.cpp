// SPDX-License-Identifier: MIT
// One normal against a two-component normal mixture with unequal variances
// (mclust's model "V" with G = 2), both by maximum likelihood.
//
// Outline
//   1. Sort the values (so the result cannot depend on their order: every
//      sum below runs over the sorted sample) and standardise them,
//      z = (x - mean) / sd. Everything is fitted on z, where the overall
//      mean is 0 and the overall sd 1, so values like 1e9 + N(0, 1) lose no
//      precision and every tolerance and guard below is scale-free. Results
//      are transformed back at the end (log-likelihood: minus n log sd).
//   2. The likelihood of the mixture is unbounded (a component shrinking
//      onto one observation drives it to infinity) and EM only finds local
//      maxima, so EM runs from many deterministic starts and a fit is
//      rejected as degenerate when a component collapses (see kMinSd,
//      kMinCount). The best surviving log-likelihood wins.
//      Caveat: besides the singularities, normal mixtures have "spurious"
//      local maxima, a component fitted to a tight group of 2-5 points;
//      they are proper maxima, pass the guards, and in small samples often
//      have the highest likelihood (and then win here, as they would for
//      mclust if started there; mclust's single median-split start usually
//      lands elsewhere).
//   3. Starts are hard partitions of the sorted sample, turned into
//      parameters by one M-step: mclust's own start (split at the median,
//      its qclass()), the exact 1-D 2-means split, cuts at every position
//      (n <= 24) or at every 5% quantile plus the cuts isolating two or
//      three extreme values (larger n), and an inner/outer split about the
//      median, which starts the "same mean, different variance"
//      (heavy-tail) solutions that no cut reaches easily.
//   4. EM is accelerated by SQUAREM (Varadhan & Roland 2008, scheme S3), and
//      finished by damped Newton steps once EM steps get small: EM alone
//      crawls along the flat likelihood ridges of overlapping components
//      for thousands of steps. Both fall back to plain EM steps whenever
//      they would lower the likelihood, so it never decreases.
//   5. Starts run in rounds (10, 20, 40, ... EM steps); after each round a
//      run that has come close to a better one is dropped, as it is in the
//      same basin; most starts share a handful of maxima.
//   6. Large samples (n > kFullStartsMax): the starts run on a systematic
//      subsample of the sorted data (kSubsampleSize order statistics, which
//      keep the shape), and the two best distinct maxima found there are
//      refined on the full sample, within a work budget (beyond it the fit
//      is reported as not converged). Above kGroupedRefineMin values the
//      starts stop sooner (kLargeSubsampleCap) and the refinement runs on
//      narrow groups of values.
#include "analysis/normal_mixture.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace gfxstat::analysis {

namespace {

constexpr double kLog2Pi = 1.83787706640934548356;

// Degeneracy guards, in standardised units (overall sd = 1).
// - kMinSd: a component whose sd falls below 1e-3 of the overall sd is
//   collapsing onto a single value (or onto a run of tied values), where
//   the likelihood is unbounded; its "maximum" is an artefact, not a mode.
//   mclust rejects the same situation when a variance becomes numerically
//   singular; 1e-3 rejects it early (EM would otherwise iterate towards
//   sd = 0 at a geometric rate), while still allowing a tight cluster next
//   to far outliers (e.g. N(100, 1) plus 200 and 350: sd ratio 0.009).
// - kMinCount: a component carrying less than 1.5 observations' worth of
//   weight is fitted to essentially one point, so its variance is not
//   estimable; such fits sit next to the singularity even while the sd is
//   still above kMinSd. Two points (weight * n = 2) are the least that
//   defines a mean and a spread; 1.5 is half-way.
constexpr double kMinSd = 1e-3;
constexpr double kMinCount = 1.5;
// Variance floor for a start only (a start group of tied values has
// variance 0, where EM cannot begin); 100x the kMinSd variance, so the
// start itself is never rejected by the guard.
constexpr double kStartVarFloor = 1e-4;

// Convergence: the log-likelihood at the start of a cycle has stopped
// rising (relative change below kLoglikRelTol) and an EM step from there
// moves no standardised parameter by more than kParamTol. The likelihood
// criterion alone stops too early on the flat likelihoods of overlapping
// components, where the parameters still drift while the likelihood no
// longer moves; with the Newton end game both are reached in a few steps.
// kMaxIterations caps the passes over the data per start (EM steps,
// extrapolations and Newton steps alike); a capped run still counts, as
// not converged.
constexpr double kLoglikRelTol = 1e-13;
constexpr double kParamTol = 1e-9;
constexpr int kMaxIterations = 5000;
// Newton steps are tried once an EM step moves no parameter by more than
// this (standardised units): near a maximum, or on a flat ridge.
constexpr double kNewtonZone = 1e-3;

// Large samples: above kFullStartsMax values, the starts run on a
// subsample of kSubsampleSize order statistics; the kRefineCount best
// distinct maxima found there get kRefineScreenSteps EM steps on all data,
// and the best of them continues to convergence or until it has used
// kRefineBudget point-steps (n * steps; 40 steps at n = 1e5, about 0.1 s:
// only unimodal samples, whose two-normal likelihood is a flat ridge, get
// near it, and there the remaining gain in log-likelihood is far below
// anything BIC can resolve).
constexpr size_t kFullStartsMax = 2000;
constexpr size_t kSubsampleSize = 2000;
constexpr size_t kRefineCount = 2;
constexpr int kSubsampleCap = 400;  // passes per start on the subsample
constexpr int kRefineScreenSteps = 4;
constexpr double kRefineBudget = 4e6;
// Above kGroupedRefineMin values (beyond every reference sample and every
// calibrated size), the refinement runs on groups of consecutive sorted
// values spanning at most kGroupWidth standardised units, each as its mean
// with its count: at n = 1e6 a normal sample makes about 10,000 groups, so
// that the refinement runs to convergence (within kRefineBudget group-steps)
// instead of stopping after 12 passes over a million values. Replacing a
// group by its mean lowers each component's fitted variance by at most
// kGroupWidth^2 / 12 (8e-8 of the sample's variance, 1e-4 of the variance of
// a component with sd 0.03 of the sample's); the final log-likelihood is
// the values' own, at the fitted parameters. docs/diagnostics.md measures
// how often a verdict changes.
constexpr size_t kGroupedRefineMin = 100000;
constexpr double kGroupWidth = 1e-3;
// Above kGroupedRefineMin values the refinement runs to convergence anyway,
// so the starts on the subsample only need to tell the basins apart: each
// runs at most kLargeSubsampleCap passes (the screening rounds of 10, 20
// and 40 steps) instead of kSubsampleCap. On unimodal samples, whose starts
// all crawl along the flat ridge to the cap, this was 0.1 s of a 0.17 s fit
// at n = 10^6; docs/diagnostics.md measures how often a verdict changes.
constexpr int kLargeSubsampleCap = 40;

// Screening of starts (see fit_from_starts): rounds of kScreenSteps EM
// steps, doubling; runs closer than kMergeTol (standardised units, largest
// parameter difference) are merged.
constexpr int kScreenSteps = 10;
constexpr double kMergeTol = 5e-2;

struct Params {
    double w[2], mu[2], var[2];
};

bool valid(const Params& p) {
    for (int k = 0; k < 2; ++k) {
        if (!(p.w[k] > 0 && p.w[k] < 1) || !std::isfinite(p.mu[k]) ||
            !(p.var[k] > 0) || !std::isfinite(p.var[k]))
            return false;
    }
    return true;
}

bool degenerate(const Params& p, double n) {
    for (int k = 0; k < 2; ++k) {
        if (p.var[k] < kMinSd * kMinSd || p.w[k] * n < kMinCount)
            return true;
    }
    return false;
}

// The data EM runs on: standardised values, each once, or (very large
// samples, see group_values) the means of narrow groups of sorted values,
// each standing for `count` values. `n` is the number of values.
struct Points {
    std::span<const double> z;
    std::span<const double> count;  // empty: every value once
    double n = 0;
};

Points each_once(std::span<const double> z) { return {z, {}, static_cast<double>(z.size())}; }

// One EM iteration: the E-step at `p` (returning the log-likelihood of `p`)
// and the M-step into `next`. Responsibilities use the log-sum-exp form:
// with l_k = log(w_k phi_k(z)), the larger one is factored out, so neither
// underflows even for points many sds from a component; the log-likelihood
// term is l_big + log(1 + e), e = exp(l_small - l_big) in (0, 1], and the
// logs of 32 such factors (each in (1, 2]) are taken at once, as the log of
// their product, which halves the cost of a step. Means and variances are
// accumulated about the previous means, which are close to the new ones,
// so the variance formula E[d^2] - E[d]^2 does not cancel.
// Grouped points weigh every term by their count (and take the log of each
// factor on its own). Returns false when the M-step is not a valid
// parameter set.
template <bool Grouped>
bool em_step_on(const Points& d, const Params& p, double& loglik, Params& next) {
    const std::span<const double> z = d.z;
    const double c0 = std::log(p.w[0]) - 0.5 * (kLog2Pi + std::log(p.var[0]));
    const double c1 = std::log(p.w[1]) - 0.5 * (kLog2Pi + std::log(p.var[1]));
    const double h0 = 0.5 / p.var[0], h1 = 0.5 / p.var[1];
    const double m0 = p.mu[0], m1 = p.mu[1];
    double ll = 0, prod = 1, s0 = 0, s1 = 0, d0s = 0, d1s = 0, q0 = 0, q1 = 0;
    const size_t n = z.size();
    for (size_t i = 0; i < n; ++i) {
        const double d0 = z[i] - m0, d1 = z[i] - m1;
        const double l0 = c0 - h0 * d0 * d0, l1 = c1 - h1 * d1 * d1;
        const double e = std::exp(-std::fabs(l0 - l1));
        const double big = 1 / (1 + e), small = e * big;
        const bool first = l0 >= l1;
        double r0 = first ? big : small, r1 = first ? small : big;
        if constexpr (Grouped) {
            const double c = d.count[i];
            ll += c * ((first ? l0 : l1) + std::log1p(e));
            r0 *= c, r1 *= c;
        } else {
            ll += first ? l0 : l1;
            prod *= 1 + e;
            if (i % 32 == 31) ll += std::log(prod), prod = 1;
        }
        s0 += r0, s1 += r1;
        d0s += r0 * d0, d1s += r1 * d1;
        q0 += r0 * d0 * d0, q1 += r1 * d1 * d1;
    }
    loglik = ll + std::log(prod);
    if (!(s0 > 0) || !(s1 > 0)) return false;
    const double total = s0 + s1;
    const double e0 = d0s / s0, e1 = d1s / s1;
    next.w[0] = s0 / total, next.w[1] = s1 / total;
    next.mu[0] = m0 + e0, next.mu[1] = m1 + e1;
    next.var[0] = q0 / s0 - e0 * e0, next.var[1] = q1 / s1 - e1 * e1;
    return valid(next) && std::isfinite(loglik);
}

bool em_step(const Points& d, const Params& p, double& loglik, Params& next) {
    return d.count.empty() ? em_step_on<false>(d, p, loglik, next) : em_step_on<true>(d, p, loglik, next);
}

// Largest change between two parameter sets, in standardised units (the
// weights as they are, the means and sds in overall sds).
double max_change(const Params& a, const Params& b) {
    double m = 0;
    for (int k = 0; k < 2; ++k) {
        m = std::max({m, std::fabs(a.w[k] - b.w[k]), std::fabs(a.mu[k] - b.mu[k]),
                      std::fabs(std::sqrt(a.var[k]) - std::sqrt(b.var[k]))});
    }
    return m;
}

// Parameters as a vector for the SQUAREM extrapolation. The weight enters
// once (w1 = 1 - w0 is implied).
constexpr int kDim = 5;
void to_vec(const Params& p, double* v) {
    v[0] = p.w[0], v[1] = p.mu[0], v[2] = p.mu[1], v[3] = p.var[0], v[4] = p.var[1];
}
Params from_vec(const double* v) {
    Params p;
    p.w[0] = v[0], p.w[1] = 1 - v[0];
    p.mu[0] = v[1], p.mu[1] = v[2];
    p.var[0] = v[3], p.var[1] = v[4];
    return p;
}

// Newton's method on the log-likelihood, for the end game. EM converges
// linearly, and very slowly where the components overlap (the likelihood
// is then a long flat ridge: hundreds of steps even with SQUAREM), while
// Newton converges quadratically once near a maximum. In the parameters
// theta = (w0, mu0, mu1, var0, var1), with a_k = w_k phi_k(z), f = a0 + a1,
// r_k = a_k / f and G_k = grad log a_k, the gradient of log f is
// g = sum_k r_k G_k and its Hessian
//   sum_k r_k (hess log a_k + G_k G_k') - g g'.
// Grouped points weigh each value's terms by their count.
template <bool Grouped>
void gradient_hessian_on(const Points& data, const Params& p, double* g, double (*h)[kDim]) {
    const double w0 = p.w[0], w1 = p.w[1], v0 = p.var[0], v1 = p.var[1];
    const double c0 = std::log(w0) - 0.5 * std::log(v0), c1 = std::log(w1) - 0.5 * std::log(v1);
    for (int a = 0; a < kDim; ++a) {
        g[a] = 0;
        for (int b = 0; b < kDim; ++b) h[a][b] = 0;
    }
    for (size_t i = 0; i < data.z.size(); ++i) {
        const double x = data.z[i], c = Grouped ? data.count[i] : 1.0;
        const double d0 = x - p.mu[0], d1 = x - p.mu[1];
        const double l0 = c0 - 0.5 * d0 * d0 / v0, l1 = c1 - 0.5 * d1 * d1 / v1;
        const double e = std::exp(-std::fabs(l0 - l1));
        const double big = 1 / (1 + e), small = e * big;
        const double r0 = l0 >= l1 ? big : small, r1 = l0 >= l1 ? small : big;
        const double G0[kDim] = {1 / w0, d0 / v0, 0, (d0 * d0 / v0 - 1) / (2 * v0), 0};
        const double G1[kDim] = {-1 / w1, 0, d1 / v1, 0, (d1 * d1 / v1 - 1) / (2 * v1)};
        double gi[kDim];
        for (int a = 0; a < kDim; ++a) gi[a] = r0 * G0[a] + r1 * G1[a];
        for (int a = 0; a < kDim; ++a) {
            g[a] += c * gi[a];
            for (int b = 0; b <= a; ++b) h[a][b] += c * (r0 * G0[a] * G0[b] + r1 * G1[a] * G1[b] - gi[a] * gi[b]);
        }
        // The second derivatives of log a_k themselves.
        h[0][0] -= c * (r0 / (w0 * w0) + r1 / (w1 * w1));
        h[1][1] -= c * r0 / v0;
        h[2][2] -= c * r1 / v1;
        h[3][1] -= c * r0 * d0 / (v0 * v0);
        h[4][2] -= c * r1 * d1 / (v1 * v1);
        h[3][3] += c * r0 * (0.5 - d0 * d0 / v0) / (v0 * v0);
        h[4][4] += c * r1 * (0.5 - d1 * d1 / v1) / (v1 * v1);
    }
}

void gradient_hessian(const Points& d, const Params& p, double* g, double (*h)[kDim]) {
    if (d.count.empty()) gradient_hessian_on<false>(d, p, g, h);
    else gradient_hessian_on<true>(d, p, g, h);
}

// The damped Newton (Levenberg-Marquardt) step: solves
// (-H + lambda diag(|H|)) step = g by Cholesky; false when that matrix is
// not positive definite (then the caller raises lambda). With lambda = 0
// this is Newton's step, with large lambda a short, scaled gradient step,
// which also makes progress where H is indefinite (away from a maximum).
bool damped_newton(const double* g, const double (*h)[kDim], double lambda, double* step) {
    double l[kDim][kDim] = {};
    for (int a = 0; a < kDim; ++a) {
        for (int b = 0; b <= a; ++b) {
            double sum = -h[a][b] + (a == b ? lambda * std::fabs(h[a][a]) : 0);
            for (int k = 0; k < b; ++k) sum -= l[a][k] * l[b][k];
            if (a == b) {
                if (!(sum > 0)) return false;
                l[a][a] = std::sqrt(sum);
            } else {
                l[a][b] = sum / l[b][b];
            }
        }
    }
    double y[kDim];
    for (int a = 0; a < kDim; ++a) {
        double sum = g[a];
        for (int k = 0; k < a; ++k) sum -= l[a][k] * y[k];
        y[a] = sum / l[a][a];
    }
    for (int a = kDim - 1; a >= 0; --a) {
        double sum = y[a];
        for (int k = a + 1; k < kDim; ++k) sum -= l[k][a] * step[k];
        step[a] = sum / l[a][a];
    }
    for (int a = 0; a < kDim; ++a)
        if (!std::isfinite(step[a])) return false;
    return true;
}

enum class Status { running, converged, capped, degenerate };

// An EM run that can be advanced in instalments (screening, then refining).
struct EmRun {
    Params next{};    // where the next cycle starts
    Params at{};      // the last cycle start, whose log-likelihood is known
    double loglik = -std::numeric_limits<double>::infinity();  // at `at`
    double step_max = 1;  // SQUAREM's bound on |alpha|
    double lambda = 0;    // Newton damping
    int iterations = 0;   // passes over the data (EM, extrapolation, Newton)
    Status status = Status::running;
};

// Advances `r` until it converges, degenerates, or has done `until` passes
// in all (then it is left running, or capped at kMaxIterations). Each cycle
// starts with an EM step from t0; if that step is small, a damped Newton
// step is tried (below); otherwise, or if it fails, a SQUAREM cycle: t1 = EM(t0), t2 = EM(t1); r = t1 - t0,
// v = t2 - t1 - r, alpha = -|r|/|v| clamped to [-step_max, -1];
// t' = t0 - 2 alpha r + alpha^2 v (alpha = -1 gives t' = t2); then one EM
// step from t' (stabilisation). The cycle is kept only if t' is a valid
// parameter set whose likelihood is at least that of t1; otherwise it
// continues from t2, a plain EM result. Thus the log-likelihood at the
// start of each cycle never decreases. step_max starts at 1 (plain EM) and
// grows 4-fold while extrapolations at the bound succeed, shrinking again
// when one fails (the SQUAREM package's defaults): a start first follows
// the plain EM path, which keeps it in the basin plain EM would reach.
void advance(const Points& z, EmRun& run, int until) {
    const double n = z.n;
    until = std::min(until, kMaxIterations);
    while (run.status == Status::running) {
        if (run.iterations >= until) {
            if (until == kMaxIterations) run.status = Status::capped;
            return;
        }
        const Params t0 = run.next;
        double ll0, ll1;
        Params t1, t2;
        ++run.iterations;
        if (!em_step(z, t0, ll0, t1) || degenerate(t1, n)) {
            run.status = Status::degenerate;
            return;
        }
        const bool ll_still = ll0 - run.loglik <= kLoglikRelTol * std::fabs(ll0);
        run.at = t0, run.loglik = ll0;
        if (ll_still && max_change(t0, t1) <= kParamTol) {
            run.status = Status::converged;
            return;
        }
        // Close to a maximum or on a flat ridge (a small EM step), try a
        // damped Newton step; keep it (with the EM step from it, which
        // costs nothing extra) if its likelihood is at least that of t0,
        // else raise the damping and retry, a few times.
        if (max_change(t0, t1) < kNewtonZone) {
            double g[kDim], h[kDim][kDim], a[kDim], d[kDim];
            ++run.iterations;
            gradient_hessian(z, t0, g, h);
            to_vec(t0, a);
            bool accepted = false;
            for (int tries = 0; tries < 4 && !accepted; ++tries) {
                if (damped_newton(g, h, run.lambda, d)) {
                    double e[kDim];
                    for (int i = 0; i < kDim; ++i) e[i] = a[i] + d[i];
                    const Params tn = from_vec(e);
                    double lln;
                    Params tn1;
                    if (valid(tn)) {
                        ++run.iterations;
                        accepted = em_step(z, tn, lln, tn1) && lln >= ll0 && !degenerate(tn1, n);
                        if (accepted) run.next = tn1;
                    }
                }
                run.lambda = accepted ? (run.lambda < 1e-6 ? 0 : run.lambda / 4)
                                      : (run.lambda == 0 ? 1e-3 : 4 * run.lambda);
            }
            if (accepted) continue;
        }
        ++run.iterations;
        if (!em_step(z, t1, ll1, t2) || degenerate(t2, n)) {
            run.status = Status::degenerate;
            return;
        }
        double a[kDim], b[kDim], c[kDim], r[kDim], v[kDim];
        to_vec(t0, a), to_vec(t1, b), to_vec(t2, c);
        double rr = 0, vv = 0;
        for (int i = 0; i < kDim; ++i) {
            r[i] = b[i] - a[i];
            v[i] = c[i] - b[i] - r[i];
            rr += r[i] * r[i], vv += v[i] * v[i];
        }
        run.next = t2;
        if (vv > 0) {
            const double len = std::sqrt(rr / vv);
            const bool at_bound = len >= run.step_max;
            const double alpha = -std::clamp(len, 1.0, run.step_max);
            double e[kDim];
            for (int i = 0; i < kDim; ++i) e[i] = a[i] - 2 * alpha * r[i] + alpha * alpha * v[i];
            const Params tp = from_vec(e);
            double llp;
            Params t3;
            bool accepted = false;
            if (valid(tp)) {
                ++run.iterations;
                accepted = em_step(z, tp, llp, t3) && llp >= ll1 && !degenerate(t3, n);
                if (accepted) run.next = t3;
            }
            if (!accepted) run.step_max = std::max(1.0, run.step_max / 4);
            else if (at_bound) run.step_max *= 4;
        }
    }
}

// Groups of consecutive sorted values whose span is at most kGroupWidth:
// their means (computed about the group's first value) and counts.
void group_values(std::span<const double> z, std::vector<double>& mean, std::vector<double>& count) {
    for (size_t a = 0; a < z.size();) {
        size_t b = a + 1;
        double sum = 0;
        while (b < z.size() && z[b] - z[a] <= kGroupWidth) sum += z[b++] - z[a];
        const double k = static_cast<double>(b - a);
        mean.push_back(z[a] + sum / k);
        count.push_back(k);
        a = b;
    }
}

bool usable(const EmRun& r) { return r.status == Status::converged || r.status == Status::capped; }

// Parameters from a hard partition (one M-step with 0/1 responsibilities);
// in_second(i) says whether z[i] belongs to the second group.
template <class Pred>
bool start_from_partition(std::span<const double> z, Pred in_second, Params& p) {
    double cnt[2] = {0, 0}, sum[2] = {0, 0};
    for (size_t i = 0; i < z.size(); ++i) {
        const int k = in_second(i) ? 1 : 0;
        cnt[k] += 1, sum[k] += z[i];
    }
    if (cnt[0] < 1 || cnt[1] < 1) return false;
    const double mu[2] = {sum[0] / cnt[0], sum[1] / cnt[1]};
    double ss[2] = {0, 0};
    for (size_t i = 0; i < z.size(); ++i) {
        const int k = in_second(i) ? 1 : 0;
        ss[k] += (z[i] - mu[k]) * (z[i] - mu[k]);
    }
    const double n = cnt[0] + cnt[1];
    for (int k = 0; k < 2; ++k) {
        p.w[k] = cnt[k] / n;
        p.mu[k] = mu[k];
        p.var[k] = std::max(ss[k] / cnt[k], kStartVarFloor);
    }
    return valid(p);
}

// All starting points for a sorted, standardised sample.
std::vector<Params> starts(std::span<const double> z) {
    const size_t n = z.size();
    std::vector<size_t> cuts;  // z[0, c) against z[c, n)
    // mclust's qclass(x, 2): x < median (R's type-7 quantile) against
    // x >= median; ties at the median go to the upper group.
    const double med = n % 2 ? z[n / 2] : 0.5 * (z[n / 2 - 1] + z[n / 2]);
    cuts.push_back(static_cast<size_t>(std::lower_bound(z.begin(), z.end(), med) - z.begin()));
    // The optimal 1-D 2-means split: the cut minimising the within-group sum
    // of squares, from prefix sums (z is centred and scaled, so they are
    // well conditioned).
    {
        double total = 0;
        for (double x : z) total += x;
        double left = 0, best = -1;
        size_t best_c = n / 2;
        for (size_t c = 1; c < n; ++c) {
            left += z[c - 1];
            const double nl = static_cast<double>(c), nr = static_cast<double>(n - c);
            const double right = total - left;
            // Between-group sum of squares; maximising it minimises the within.
            const double between = left * left / nl + right * right / nr;
            if (between > best) best = between, best_c = c;
        }
        cuts.push_back(best_c);
    }
    if (n <= 24) {
        for (size_t c = 2; c + 2 <= n; ++c) cuts.push_back(c);
    } else {
        for (size_t c : {size_t{2}, size_t{3}, n - 3, n - 2}) cuts.push_back(c);
        for (size_t j = 1; j < 20; ++j) cuts.push_back(n * j / 20);
    }
    std::vector<Params> out;
    std::vector<size_t> seen;
    for (size_t c : cuts) {
        if (c == 0 || c >= n || std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
        seen.push_back(c);
        Params p;
        if (start_from_partition(z, [c](size_t i) { return i >= c; }, p)) out.push_back(p);
    }
    // Inner half against outer half: |z - median| below or above its median.
    {
        std::vector<double> dev(n);
        for (size_t i = 0; i < n; ++i) dev[i] = std::fabs(z[i] - med);
        std::vector<double> tmp = dev;
        std::nth_element(tmp.begin(), tmp.begin() + static_cast<std::ptrdiff_t>(n / 2), tmp.end());
        const double mad = tmp[n / 2];
        Params p;
        if (start_from_partition(z, [&](size_t i) { return dev[i] >= mad; }, p))
            out.push_back(p);
    }
    return out;
}

// EM from every start, in rounds: all live runs advance to kScreenSteps EM
// steps, then to twice that, and so on; after each round, a run that has
// come within kMergeTol of a run with a higher likelihood is dropped (same
// basin, for all practical purposes). Most starts share a handful of
// maxima, so this runs few of them to convergence. A run stops after `cap`
// passes (counted as capped, not converged). Returns the finished,
// non-degenerate runs, best log-likelihood first (ties keep the earlier
// start, so the result is deterministic).
std::vector<EmRun> fit_from_starts(std::span<const double> values, const std::vector<Params>& from, int cap) {
    const Points z = each_once(values);
    std::vector<EmRun> live, done;
    for (const Params& s : from) {
        EmRun r;
        r.next = s;
        live.push_back(r);
    }
    const auto better = [](const EmRun& a, const EmRun& b) { return a.loglik > b.loglik; };
    for (int until = kScreenSteps; !live.empty(); until = std::min(2 * until, cap)) {
        std::vector<EmRun> running;
        for (EmRun& r : live) {
            advance(z, r, until);
            if (r.status == Status::running && r.iterations >= cap) r.status = Status::capped;
            if (r.status == Status::running) running.push_back(r);
            else if (usable(r)) done.push_back(r);
        }
        std::stable_sort(running.begin(), running.end(), better);
        live.clear();
        for (const EmRun& r : running) {
            bool dup = false;
            for (const EmRun& k : live) dup = dup || max_change(k.next, r.next) < kMergeTol;
            for (const EmRun& k : done) dup = dup || (k.loglik >= r.loglik && max_change(k.at, r.next) < kMergeTol);
            if (!dup) live.push_back(r);
        }
    }
    std::stable_sort(done.begin(), done.end(), better);
    return done;
}

}  // namespace

NormalMixtureFit fit_normal_mixture(std::span<const double> values) {
    NormalMixtureFit fit;
    const size_t n = values.size();
    fit.n = n;
    // Non-finite values: nothing is fitted (and sorting NaNs would be
    // undefined behaviour).
    if (n == 0 || !std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); }))
        return fit;
    std::vector<double> x(values.begin(), values.end());
    // (The diagnostics hand over sorted values: checking costs one pass.)
    if (!std::is_sorted(x.begin(), x.end())) std::sort(x.begin(), x.end());
    const double dn = static_cast<double>(n);

    // Mean and MLE sd: long-double two-pass with the correction term, so
    // an offset of 1e9 with unit spread keeps full precision.
    long double sum = 0;
    for (double v : x) sum += v;
    const double mean = static_cast<double>(sum / n);
    long double ss = 0, corr = 0;
    for (double v : x) {
        const long double d = static_cast<long double>(v) - mean;
        ss += d * d, corr += d;
    }
    const long double var_ld = (ss - corr * corr / n) / n;
    const double sd = var_ld > 0 ? static_cast<double>(std::sqrt(var_ld)) : 0.0;

    if (!(sd > 0) || !std::isfinite(sd)) {
        // A constant sample: the normal likelihood is unbounded (sd -> 0),
        // so the one-normal log-likelihood is +infinity and its BIC
        // -infinity; no mixture is fitted.
        fit.loglik_one = std::numeric_limits<double>::infinity();
        fit.bic_one = -std::numeric_limits<double>::infinity();
        return fit;
    }
    const double log_sd = std::log(sd);
    fit.loglik_one = -0.5 * dn * (kLog2Pi + 1) - dn * log_sd;
    fit.bic_one = -2 * fit.loglik_one + 2 * std::log(dn);

    // Five parameters need at least four distinct values: with three or
    // fewer, every two-component fit either puts a component on a single
    // value (unbounded likelihood) or is not identifiable.
    size_t distinct = 1;
    for (size_t i = 1; i < n && distinct < 4; ++i) distinct += x[i] != x[i - 1];
    if (distinct < 4) return fit;

    std::vector<double> z(n);
    for (size_t i = 0; i < n; ++i) z[i] = (x[i] - mean) / sd;

    EmRun best;
    // Very large samples are refined on narrow groups of values (below).
    std::vector<double> group_mean, group_count;
    if (n > kGroupedRefineMin) group_values(z, group_mean, group_count);
    const Points all = group_mean.empty() ? each_once(z) : Points{group_mean, group_count, dn};
    if (n <= kFullStartsMax) {
        const std::vector<EmRun> done = fit_from_starts(z, starts(z), kMaxIterations);
        if (done.empty()) return fit;
        best = done.front();
    } else {
        // Starts on m order statistics at the mid-points of n/m blocks, then
        // the best distinct maxima found there refined on all data.
        const size_t m = kSubsampleSize;
        std::vector<double> sub(m);
        for (size_t j = 0; j < m; ++j) sub[j] = z[(2 * j + 1) * n / (2 * m)];
        std::vector<EmRun> refine;
        const int cap = n > kGroupedRefineMin ? kLargeSubsampleCap : kSubsampleCap;
        for (const EmRun& r : fit_from_starts(sub, starts(sub), cap)) {
            bool dup = false;
            for (const EmRun& q : refine) dup = dup || max_change(q.next, r.at) < kMergeTol;
            if (dup) continue;
            EmRun fresh;
            fresh.next = r.at;
            advance(all, fresh, kRefineScreenSteps);
            if (fresh.status != Status::degenerate) refine.push_back(fresh);
            if (refine.size() == kRefineCount) break;
        }
        if (refine.empty()) return fit;
        best = *std::max_element(refine.begin(), refine.end(),
                                 [](const EmRun& a, const EmRun& b) { return a.loglik < b.loglik; });
        const double points = static_cast<double>(all.z.size());
        const double budget = std::clamp(kRefineBudget / points, 3.0 * kRefineScreenSteps, double(kMaxIterations));
        advance(all, best, static_cast<int>(budget));
        if (best.status == Status::running) best.status = Status::capped;
        if (!usable(best)) return fit;
        if (!group_mean.empty()) {
            // The log-likelihood reported is the values' own, at the
            // parameters fitted to the groups (one more pass).
            Params unused;
            ++best.iterations;
            if (!em_step(each_once(z), best.at, best.loglik, unused)) return fit;
        }
    }

    // Back to the original units, components ordered by mean (then sd).
    std::array<NormalComponent, 2> c;
    for (int k = 0; k < 2; ++k) {
        c[k].weight = best.at.w[k];
        c[k].mean = mean + sd * best.at.mu[k];
        c[k].sd = sd * std::sqrt(best.at.var[k]);
    }
    if (c[1].mean < c[0].mean || (c[1].mean == c[0].mean && c[1].sd < c[0].sd))
        std::swap(c[0], c[1]);
    fit.two_fitted = true;
    fit.components = c;
    fit.loglik_two = best.loglik - dn * log_sd;
    fit.bic_two = -2 * fit.loglik_two + 5 * std::log(dn);
    fit.ashman_d = std::sqrt(2.0) * std::fabs(c[0].mean - c[1].mean) /
                   std::sqrt(c[0].sd * c[0].sd + c[1].sd * c[1].sd);
    fit.iterations = best.iterations;
    fit.converged = best.status == Status::converged;
    return fit;
}

}  // namespace gfxstat::analysis
