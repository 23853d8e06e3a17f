// SPDX-License-Identifier: MIT
// gfxstat_bisect_efficiency: whole bisections, simulated, with `gfxstat
// bisect step`'s rule (analysis/bisect_classify.h) against the fixed
// designs people use, on how often the bisection names the wrong commit
// and how many runs it costs. bench/bisect_efficiency.sh runs it;
// bench/README.md has the latest numbers.
//
//   gfxstat_bisect_efficiency [--reps R] [--seed S] [--threads T] [--commits K]
//                             [--noise lognormal|t3]... [--step PCT]... [--ref-runs R]...
//                             [--sd PCT] [--confidence C] [--threshold PCT]
//
// One bisection: K commits in a line (default 64), the first good, the last
// bad, a step of PCT% (a regression: values grow) at a commit drawn
// uniformly from 1..K-1, every later commit at the bad level. Runs draw
// 100 exp(level + sd e) with sd 1% and e standard normal (`lognormal`) or
// t with 3 degrees of freedom scaled to sd 1 (`t3`, heavy tails). The good
// and the bad reference get R runs each, shared by every design in the
// replicate (so their noise is not what tells the designs apart). The
// search is git bisect's: test the midpoint of what is left, good moves
// the low end, bad the high end; a skip marks the commit and the next test
// is the untested commit nearest the midpoint; when only skipped commits
// are left the bisection is unresolved (git lists the candidates).
//
// The designs, one step each:
//  - gfxstat: bisect_references once (the bisection is refused, as
//    `bisect check` and the first step refuse it, when the references do
//    not differ beyond the threshold), then runs one at a time with
//    bisect_look after each, stop when the call is made and 3 runs are
//    done, skip when still undecided at 50; expected_steps =
//    bisect_expected_steps(K - 1), as the steps file plans it;
//  - by hand: 10 runs, called by whichever reference mean the step's mean
//    is nearer ("ten runs a step and an eyeballed threshold");
//  - planned N: the same nearest-mean call after N runs, N planned from
//    the references as a fixed-n t test at gfxstat's per-step alpha: the
//    smallest n in [2, 50] whose t interval (1 - step_alpha, n - 1 df) at
//    the references' pooled spread would clear the boundary's interval from
//    either level; the fixed-n counterpart of gfxstat's rule at the same
//    budget;
//  - fixed 30: the nearest-mean call after 30 runs.
//
// Per cell (noise, step, reference runs) and design: the share of
// bisections that end at the wrong commit (or, unresolved, with a
// candidate list that misses it) with its Clopper-Pearson 95% interval,
// the unresolved share, runs per bisection (mean, max; the
// references' 2R runs are not counted, they are the same for every design)
// and commits tested. Rates are over the bisections gfxstat's check
// accepted, for every design, so that all are measured on the same
// references; the refused share is a column of its own.
#include <algorithm>
#include <array>
#include <atomic>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "analysis/bisect_classify.h"
#include "analysis/student_t.h"
#include "analysis/xoshiro.h"
#include "tests/calibration/families.h"

using gfxstat::calibration::Rng;
namespace an = gfxstat::analysis;

namespace {

constexpr size_t kMinRuns = 3;    // bisect step's --min-runs default
constexpr size_t kMaxRuns = 50;   // bisect step's --max-runs default
constexpr size_t kByHandRuns = 10;
constexpr size_t kFixedRuns = 30;

enum class Noise { lognormal, t3 };
const char* noise_name(Noise n) { return n == Noise::lognormal ? "lognormal" : "t3"; }

enum Design : size_t { kGfxstat, kByHand, kPlanned, kFixed30, kDesigns };
const char* const kDesignNames[kDesigns] = {"gfxstat", "by hand (10)", "planned N (t)", "fixed 30"};

struct Setup {
    size_t reps = 2000;
    uint64_t seed = 20261202;
    size_t commits = 64;
    double sd = 0.01;
    double confidence = 0.95;
    double threshold = 0.01;
};

struct Cell {
    Noise noise;
    double step;  // relative: 0.03 is 3%
    size_t ref_runs;
};

struct Bisection {
    bool wrong = false, unresolved = false;
    uint32_t runs = 0, steps = 0;
};

struct Replicate {
    bool accepted = false;
    uint32_t planned_n = 0;
    Bisection d[kDesigns];
};

// One run's value at a level (on the log scale).
double draw(Noise noise, double sd, double level, Rng& rng) {
    const double e = noise == Noise::lognormal ? rng.normal() : rng.student_t3() / std::sqrt(3.0);
    return 100 * std::exp(level + sd * e);
}

double mean(const std::vector<double>& x) {
    double s = 0;
    for (double v : x) s += v;
    return x.empty() ? 0 : s / static_cast<double>(x.size());
}

enum class Call { good, bad, skip };
struct StepResult {
    Call call;
    size_t runs;
};

// git bisect over commits 0..K-1 (0 good, K-1 bad), the first bad commit
// being `change`; step(commit_is_bad) tests one commit.
template <class Step>
Bisection bisect(size_t commits, size_t change, Step step) {
    Bisection b;
    size_t lo = 0, hi = commits - 1;
    std::vector<char> skipped(commits, 0);
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        size_t pick = SIZE_MAX;
        for (size_t d = 0; d < hi - lo && pick == SIZE_MAX; ++d) {
            if (mid + d < hi && !skipped[mid + d]) pick = mid + d;
            else if (mid >= lo + 1 + d && !skipped[mid - d]) pick = mid - d;
        }
        if (pick == SIZE_MAX) {
            // git lists lo + 1 .. hi as the candidates: wrong when the
            // first bad commit is not among them.
            b.unresolved = true;
            b.wrong = change <= lo || change > hi;
            return b;
        }
        const StepResult r = step(pick >= change);
        b.runs += static_cast<uint32_t>(r.runs);
        ++b.steps;
        if (r.call == Call::good) lo = pick;
        else if (r.call == Call::bad) hi = pick;
        else skipped[pick] = 1;
    }
    b.wrong = hi != change;
    return b;
}

uint64_t rep_seed(uint64_t base, size_t cell, size_t what, size_t rep) {
    return an::mix64(an::mix64(base ^ an::mix64((cell + 1) * 7919 + what * 104729)) + rep);
}

// The fixed-n counterpart of bisect_references' expected runs: the
// smallest n whose t interval at the per-step alpha clears the boundary's
// interval from either level, at the references' pooled spread.
size_t planned_runs(const an::BisectReferences& r) {
    const double distance = std::fabs(r.bad_level - r.good_level) / 2 - r.boundary_half_width;
    if (!(distance > 0) || !(r.pooled_sd > 0)) return kMaxRuns;
    for (size_t n = 2; n <= kMaxRuns; ++n) {
        const double t = an::t_quantile(1 - r.step_alpha / 2, static_cast<double>(n - 1));
        if (t * r.pooled_sd / std::sqrt(static_cast<double>(n)) < distance) return n;
    }
    return kMaxRuns;
}

Replicate run_replicate(const Setup& s, const Cell& c, size_t ci, size_t rep) {
    Replicate out;
    const double good_level = 0, bad_level = std::log1p(c.step);
    Rng ref_rng(rep_seed(s.seed, ci, 0, rep));
    std::vector<double> good, bad;
    for (size_t i = 0; i < c.ref_runs; ++i) good.push_back(draw(c.noise, s.sd, good_level, ref_rng));
    for (size_t i = 0; i < c.ref_runs; ++i) bad.push_back(draw(c.noise, s.sd, bad_level, ref_rng));
    const size_t change = 1 + static_cast<size_t>(ref_rng.uniform() * static_cast<double>(s.commits - 1));

    an::BisectOptions o;
    o.confidence = s.confidence;
    o.threshold = s.threshold;
    o.expected_steps = an::bisect_expected_steps(s.commits - 1);
    o.max_runs = kMaxRuns;
    const an::BisectReferences refs = an::bisect_references(good, bad, o);
    out.accepted = refs.differ;
    if (!out.accepted) return out;

    const double good_mean = mean(good), bad_mean = mean(bad);
    const auto nearest = [&](size_t n, Rng& rng) {
        return [&, n](bool at_bad) {
            std::vector<double> x;
            for (size_t i = 0; i < n; ++i) x.push_back(draw(c.noise, s.sd, at_bad ? bad_level : good_level, rng));
            const double m = mean(x);
            return StepResult{std::fabs(m - bad_mean) < std::fabs(m - good_mean) ? Call::bad : Call::good, n};
        };
    };

    Rng g_rng(rep_seed(s.seed, ci, 1 + kGfxstat, rep));
    out.d[kGfxstat] = bisect(s.commits, change, [&](bool at_bad) {
        std::vector<double> x;
        an::BisectCall call = an::BisectCall::go_on;
        while (x.size() < kMaxRuns) {
            x.push_back(draw(c.noise, s.sd, at_bad ? bad_level : good_level, g_rng));
            call = an::bisect_look(refs, x).call;
            if (call != an::BisectCall::go_on && x.size() >= kMinRuns) break;
        }
        const Call k = call == an::BisectCall::good ? Call::good : call == an::BisectCall::bad ? Call::bad : Call::skip;
        return StepResult{k, x.size()};
    });
    Rng h_rng(rep_seed(s.seed, ci, 1 + kByHand, rep));
    out.d[kByHand] = bisect(s.commits, change, nearest(kByHandRuns, h_rng));
    out.planned_n = static_cast<uint32_t>(planned_runs(refs));
    Rng p_rng(rep_seed(s.seed, ci, 1 + kPlanned, rep));
    out.d[kPlanned] = bisect(s.commits, change, nearest(out.planned_n, p_rng));
    Rng f_rng(rep_seed(s.seed, ci, 1 + kFixed30, rep));
    out.d[kFixed30] = bisect(s.commits, change, nearest(kFixedRuns, f_rng));
    return out;
}

// Clopper-Pearson 95% interval for k of n.
void binomial_interval(size_t k, size_t n, double& lo, double& hi) {
    if (n == 0) {
        lo = 0;
        hi = 1;
        return;
    }
    const double kd = static_cast<double>(k), nd = static_cast<double>(n);
    lo = k == 0 ? 0 : boost::math::ibeta_inv(kd, nd - kd + 1, 0.025);
    hi = k == n ? 1 : boost::math::ibeta_inv(kd + 1, nd - kd, 0.975);
}

struct Summary {
    size_t accepted = 0, wrong = 0, unresolved = 0, runs_max = 0;
    double runs_mean = 0, steps_mean = 0, per_step = 0;  // per_step: runs per commit tested
};

Summary summarise(const std::vector<Replicate>& reps, Design d) {
    Summary s;
    double runs = 0, steps = 0;
    for (const Replicate& r : reps) {
        if (!r.accepted) continue;
        ++s.accepted;
        s.wrong += r.d[d].wrong;
        s.unresolved += r.d[d].unresolved;
        runs += r.d[d].runs;
        steps += r.d[d].steps;
        s.runs_max = std::max<size_t>(s.runs_max, r.d[d].runs);
    }
    if (s.accepted) {
        s.runs_mean = runs / static_cast<double>(s.accepted);
        s.steps_mean = steps / static_cast<double>(s.accepted);
    }
    s.per_step = steps > 0 ? runs / steps : 0;
    return s;
}

std::string pct(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%", 100 * x);
    return buf;
}

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr,
                 "gfxstat_bisect_efficiency: %s\n"
                 "usage: gfxstat_bisect_efficiency [--reps R] [--seed S] [--threads T] [--commits K] "
                 "[--noise lognormal|t3]... [--step PCT]... [--ref-runs R]... [--sd PCT] [--confidence C] "
                 "[--threshold PCT]\n",
                 why.c_str());
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    Setup s;
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<Noise> noises;
    std::vector<double> steps;
    std::vector<size_t> ref_runs;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage(a + " needs a value");
            return argv[++i];
        };
        if (a == "--reps") s.reps = std::strtoull(value(), nullptr, 10);
        else if (a == "--seed") s.seed = std::strtoull(value(), nullptr, 10);
        else if (a == "--threads") threads = std::max(1u, static_cast<unsigned>(std::strtoul(value(), nullptr, 10)));
        else if (a == "--commits") s.commits = std::strtoull(value(), nullptr, 10);
        else if (a == "--sd") s.sd = std::strtod(value(), nullptr) / 100;
        else if (a == "--confidence") s.confidence = std::strtod(value(), nullptr);
        else if (a == "--threshold") s.threshold = std::strtod(value(), nullptr) / 100;
        else if (a == "--step") steps.push_back(std::strtod(value(), nullptr) / 100);
        else if (a == "--ref-runs") ref_runs.push_back(std::strtoull(value(), nullptr, 10));
        else if (a == "--noise") {
            const std::string n = value();
            if (n == "lognormal") noises.push_back(Noise::lognormal);
            else if (n == "t3") noises.push_back(Noise::t3);
            else usage("no noise family " + n + " (lognormal, t3)");
        } else usage("unknown argument " + a);
    }
    if (s.reps < 10) usage("--reps must be at least 10");
    if (s.commits < 3) usage("--commits must be at least 3");
    if (!(s.sd > 0)) usage("--sd must be > 0");
    if (!(s.confidence > 0 && s.confidence < 1)) usage("--confidence must be in (0, 1)");
    if (!(s.threshold >= 0)) usage("--threshold must be >= 0");
    for (double st : steps)
        if (!(st > 0 && st < 1)) usage("--step must be in (0, 100)");
    for (size_t r : ref_runs)
        if (r < 2) usage("--ref-runs must be at least 2");
    if (noises.empty()) noises = {Noise::lognormal, Noise::t3};
    if (steps.empty()) steps = {0.03, 0.02};
    if (ref_runs.empty()) ref_runs = {10, 30};

    std::vector<Cell> cells;
    for (Noise n : noises)
        for (double st : steps)
            for (size_t r : ref_runs) cells.push_back({n, st, r});

    // Work items are single replicates, so that the result does not depend
    // on the threads.
    std::vector<std::vector<Replicate>> results(cells.size(), std::vector<Replicate>(s.reps));
    std::atomic<size_t> next{0};
    const size_t total = cells.size() * s.reps;
    const auto work = [&] {
        for (size_t k; (k = next.fetch_add(1)) < total;)
            results[k / s.reps][k % s.reps] = run_replicate(s, cells[k / s.reps], k / s.reps, k % s.reps);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();

    const double budget = 1 - s.confidence;
    const size_t expected = an::bisect_expected_steps(s.commits - 1);
    std::printf("gfxstat_bisect_efficiency: %zu commits, %zu expected steps, noise sd %g%%, confidence %g "
                "(budget %s for the whole bisection, %s a step), threshold %g%%, %zu bisections a cell, seed %llu\n\n",
                s.commits, expected, 100 * s.sd, s.confidence, pct(budget).c_str(),
                pct(budget / static_cast<double>(expected + 1)).c_str(), 100 * s.threshold, s.reps,
                static_cast<unsigned long long>(s.seed));
    std::printf("### Per design\n\n"
                "refused: bisections gfxstat's check refused (the references do not differ beyond the threshold "
                "beyond doubt); every other column is over the accepted ones, for every design. wrong: ended at "
                "a commit that is not the first bad one, or unresolved with candidates that miss it "
                "(Clopper-Pearson 95%%); unresolved: only skipped commits left. Runs per bisection exclude the references' runs.\n\n");
    std::printf("| noise | step | ref runs | refused | design | runs a step | wrong (95%% CI) | unresolved | "
                "runs mean | runs max | steps mean |\n"
                "| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: |\n");
    std::vector<std::array<Summary, kDesigns>> sums(cells.size());
    for (size_t ci = 0; ci < cells.size(); ++ci) {
        const Cell& c = cells[ci];
        size_t accepted = 0;
        for (const Replicate& r : results[ci]) accepted += r.accepted;
        const double refused = 1 - static_cast<double>(accepted) / static_cast<double>(s.reps);
        for (size_t d = 0; d < kDesigns; ++d) {
            const Summary sm = summarise(results[ci], static_cast<Design>(d));
            sums[ci][d] = sm;
            double lo = 0, hi = 1;
            binomial_interval(sm.wrong, sm.accepted, lo, hi);
            const double n = sm.accepted ? static_cast<double>(sm.accepted) : 1;
            std::printf("| %s | %g%% | %zu | %s | %s | %.1f | %s [%s, %s] | %s | %.1f | %zu | %.2f |\n",
                        noise_name(c.noise), 100 * c.step, c.ref_runs, pct(refused).c_str(), kDesignNames[d],
                        sm.per_step, pct(sm.wrong / n).c_str(), pct(lo).c_str(), pct(hi).c_str(),
                        pct(sm.unresolved / n).c_str(), sm.runs_mean, sm.runs_max, sm.steps_mean);
        }
    }
    std::printf("\n### gfxstat against the others\n\n"
                "runs ratio: gfxstat's mean runs per bisection / the design's. goal: gfxstat wrong <= the budget "
                "(%s) and its mean runs <= fixed 30's.\n\n",
                pct(budget).c_str());
    std::printf("| noise | step | ref runs | vs by hand | vs planned N | vs fixed 30 | wrong: gfxstat | by hand | "
                "planned N | fixed 30 | goal |\n"
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (size_t ci = 0; ci < cells.size(); ++ci) {
        const Cell& c = cells[ci];
        const auto& sm = sums[ci];
        const auto rate = [&](size_t d) { return sm[d].accepted ? double(sm[d].wrong) / double(sm[d].accepted) : 0; };
        const auto ratio = [&](size_t d) {
            char buf[32] = "-";
            if (sm[d].runs_mean > 0) std::snprintf(buf, sizeof buf, "%.2f", sm[kGfxstat].runs_mean / sm[d].runs_mean);
            return std::string(buf);
        };
        std::string goal;
        if (sm[kGfxstat].accepted == 0) goal = "nothing accepted";
        else if (rate(kGfxstat) > budget) goal = "wrong > budget";
        else if (sm[kGfxstat].runs_mean > sm[kFixed30].runs_mean) goal = "runs > fixed 30";
        else goal = "met";
        std::printf("| %s | %g%% | %zu | %s | %s | %s | %s | %s | %s | %s | %s |\n", noise_name(c.noise), 100 * c.step,
                    c.ref_runs, ratio(kByHand).c_str(), ratio(kPlanned).c_str(), ratio(kFixed30).c_str(),
                    pct(rate(kGfxstat)).c_str(), pct(rate(kByHand)).c_str(), pct(rate(kPlanned)).c_str(),
                    pct(rate(kFixed30)).c_str(), goal.c_str());
    }
    std::printf("\n");
    return 0;
}
