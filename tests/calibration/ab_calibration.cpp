// SPDX-License-Identifier: MIT
// gfxstat_ab_calibration: the error rates and run counts of `gfxstat ab`'s
// stop rule (analysis/confidence_sequence.h) by seeded simulation on the
// calibration families (families.h), run as ab runs them: blocks of both
// variants in a random order, one boot, a look after every block, stop at
// the first call or at --max-runs blocks (ab_sim.h says how each family
// becomes a stream of runs in time).
//
//   gfxstat_ab_calibration [--reps R] [--seed S] [--threads T] [--quick]
//                          [--family NAME]... [--max-runs M]... [--markdown]
//                          [--mixture G] [--label TEXT] [--stop sequential|group]
//                          [--check]
//
// Cells: every verdict family x max_runs in {10, 20, 50, 100, 200} in A/A,
// and changes of 1%, 2% and 5% in the family's bad direction at max_runs in
// {20, 50, 100, 200}. --quick: the subset the ctest runs. --check exits 1
// listing every rate that exceeds its bound beyond binomial slack: an exact
// one-sided binomial test of "the rate is at most the bound" at level 0.001
// (the count of errors is at least as large as seen with probability below
// 0.001 if the true rate were the bound). Deterministic for a given seed and
// R, whatever the thread count.
#include <algorithm>
#include <atomic>
#include <boost/math/special_functions/beta.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "analysis/group_sequential.h"
#include "analysis/xoshiro.h"
#include "tests/calibration/ab_sim.h"

using namespace gfxstat::calibration;
namespace an = gfxstat::analysis;

namespace {

constexpr double kAlpha = 0.05;      // ab's default confidence 0.95
constexpr double kThreshold = 0.01;  // gfxstat's default threshold, 1%
constexpr double kMissLevel = 0.001;
constexpr size_t kAaMaxRuns[] = {10, 20, 50, 100, 200};
constexpr size_t kChangeMaxRuns[] = {20, 50, 100, 200};
constexpr double kChanges[] = {0.01, 0.02, 0.05};
double g_mixture = an::kSequentialMixture;  // --mixture
bool g_group = false;  // --stop group: the group-sequential design, looks planned from max runs

struct Cell {
    size_t family = 0;
    size_t max_runs = 0;
    double delta = 0;  // 0: A/A
    size_t reps = 0;
    uint64_t seed = 0;
    // Results.
    size_t regression = 0, improvement = 0, equivalent = 0, inconclusive = 0;
    double runs_mean = 0;
    size_t runs_p90 = 0, runs_max = 0;
};

// P(X >= k) for X ~ Binomial(n, p).
double upper_tail(size_t k, size_t n, double p) {
    if (k == 0) return 1;
    if (k > n) return 0;
    return boost::math::ibeta(static_cast<double>(k), static_cast<double>(n - k + 1), p);
}

bool exceeds(size_t hits, size_t n, double bound) { return upper_tail(hits, n, bound) < kMissLevel; }

void run_cell(Cell& c) {
    const Family& f = families()[c.family];
    const double scale = c.delta == 0 ? 1 : bad_scale(f, c.delta);
    an::SequentialOptions o;
    o.confidence = 1 - kAlpha;
    o.threshold = kThreshold;
    o.mixture = g_mixture;
    o.exact = f.exact;
    if (g_group) o.looks = an::group_looks(c.max_runs);
    std::vector<size_t> used(c.reps);
    double sum = 0;
    for (size_t rep = 0; rep < c.reps; ++rep) {
        Rng rng(an::mix64(c.seed + rep));
        const AbOutcome r = run_ab(f, scale, c.max_runs, o, rng);
        switch (r.call) {
            case AbCall::regression: ++c.regression; break;
            case AbCall::improvement: ++c.improvement; break;
            case AbCall::equivalent: ++c.equivalent; break;
            case AbCall::inconclusive: ++c.inconclusive; break;
        }
        used[rep] = r.blocks;
        sum += static_cast<double>(r.blocks);
    }
    c.runs_mean = c.reps ? sum / static_cast<double>(c.reps) : 0;
    std::sort(used.begin(), used.end());
    if (!used.empty()) {
        c.runs_p90 = used[std::min(used.size() - 1, static_cast<size_t>(std::ceil(0.9 * used.size())) - 1)];
        c.runs_max = used.back();
    }
}

void run_all(std::vector<Cell>& cells, unsigned threads) {
    std::vector<size_t> order(cells.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return cells[a].max_runs > cells[b].max_runs; });
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t k; (k = next.fetch_add(1)) < order.size();) run_cell(cells[order[k]]);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
}

bool in_quick(const Family& f, size_t m, double delta) {
    static const char* const names[] = {"normal", "lognormal-0.5", "t3", "latency-1us", "fps-60-30",
                                        "boot-modes", "drift", "constant"};
    bool family = false;
    for (const char* n : names) family |= std::string(n) == f.name;
    if (!family) return false;
    if (delta == 0) return m == 20 || m == 200;
    return delta == 0.02 && m == 100;
}

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "gfxstat_ab_calibration: %s\n"
                 "usage: gfxstat_ab_calibration [--reps R] [--seed S] [--threads T] [--quick] [--markdown] "
                 "[--family NAME]... [--max-runs M]... [--label TEXT] [--stop sequential|group] [--check]\n",
                 why);
    std::exit(2);
}

unsigned long long number(const char* s, const char* what) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s, &end, 10);
    if (!*s || *end || s[0] == '-') usage((std::string(what) + " must be a non-negative integer").c_str());
    return v;
}

double rate(size_t k, size_t n) { return n ? static_cast<double>(k) / static_cast<double>(n) : 0; }

// "0.0123" with a mark: "*" above the bound (not significant), "MISS" beyond slack.
std::string rate_with_bar(size_t k, size_t n, double bound) {
    char buf[48];
    const double r = rate(k, n);
    const char* mark = exceeds(k, n, bound) ? " MISS" : (r > bound ? " *" : "");
    std::snprintf(buf, sizeof buf, "%.4f%s", r, mark);
    return buf;
}

std::string plain_rate(size_t k, size_t n) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", rate(k, n));
    return buf;
}

void write_intro(FILE* out, const std::vector<Cell>& cells, size_t reps, uint64_t seed, const std::string& label,
                 const std::string& date, double seconds, unsigned threads) {
    double max_reg = 0, max_changed = 0;
    size_t cells_aa = 0, above_reg = 0, above_changed = 0, misses = 0;
    for (const Cell& c : cells) {
        if (c.delta != 0) continue;
        ++cells_aa;
        max_reg = std::max(max_reg, rate(c.regression, c.reps));
        max_changed = std::max(max_changed, rate(c.regression + c.improvement, c.reps));
        above_reg += rate(c.regression, c.reps) > kAlpha / 2;
        above_changed += rate(c.regression + c.improvement, c.reps) > kAlpha;
        misses += exceeds(c.regression, c.reps, kAlpha / 2) + exceeds(c.regression + c.improvement, c.reps, kAlpha);
    }
    if (g_group) {
        // A second part of the page (make ab-calibration appends it): the
        // same cells under the group-sequential design.
        std::fprintf(out,
                     "\n# `gfxstat ab --stop group`: the group-sequential design\n\n"
                     "Generated by `make ab-calibration` (tests/calibration/ab_calibration.cpp --stop group): "
                     "%zu replicates a cell, seed %llu, %s, %s, %.0f s on %u threads. Do not edit by hand.\n\n"
                     "The same families, cells and bounds as above, under the rule of "
                     "analysis/group_sequential.h: looks planned from max runs (the first at block 4, then "
                     "equally spaced, 10 at most), each a one-sample t interval of the block differences at "
                     "one nominal level (a Pocock boundary) that makes the chance of any false \"changed\" over "
                     "all the looks alpha for normal differences. The boundary spends all of alpha, so the A/A "
                     "false-\"changed\" rates sit at the bound for normal differences, not below it as the "
                     "confidence sequence's do; a family whose differences are far from normal can exceed it.\n\n",
                     reps, static_cast<unsigned long long>(seed), label.c_str(), date.c_str(), seconds, threads);
    } else {
        std::fprintf(out,
                     "# `gfxstat ab`: error rates and runs of the stop rule\n\n"
                     "Generated by `make ab-calibration` (tests/calibration/ab_calibration.cpp): %zu replicates "
                     "a cell, seed %llu, %s, %s, %.0f s on %u threads. Do not edit by hand.\n\n",
                     reps, static_cast<unsigned long long>(seed), label.c_str(), date.c_str(), seconds, threads);
        std::fprintf(out,
                     "## The method and what it assumes\n\n"
                     "`gfxstat ab` runs the variants in blocks (each block runs every variant once, in a seeded "
                     "random order) and after every block looks at the per-block differences of the primary "
                     "metric: log ratios ln(candidate / baseline) when every value is positive, plain "
                     "differences otherwise. The look is a confidence sequence for the mean difference, the "
                     "t-mixture of Lai (1976): the scale has the invariant prior 1/sigma and the standardised "
                     "effect a prior of two normals, 0.95 N(0, g) + 0.05 N(0, 100) (g = %.2g; the defaults are "
                     "`kSequentialMixture`, `kSequentialWideMixture`, `kSequentialWideWeight`: the wide part "
                     "decides changes of many spreads early), so that the mixture's Bayes factor "
                     "against \"the mean is mu\" is a nonnegative martingale under that mu and, by Ville's "
                     "inequality, the interval { mu : B_n(mu) < 1/alpha } holds at every look at once with "
                     "probability 1 - alpha. The experiment stops at the first look whose interval fits inside "
                     "the +-threshold band (equivalent) or excludes 0 (changed), or after `--max-runs` blocks "
                     "(inconclusive). With k candidates against one baseline each comparison uses confidence "
                     "1 - alpha/k (Bonferroni); this page simulates the two-variant case.\n\n"
                     "What the guarantee needs, and where the simulation stands in:\n\n"
                     "- **Independent, identically distributed block differences.** The blocks of one "
                     "experiment run in one boot; a drift of the machine that is shared by a block's two runs "
                     "cancels in their difference (the random order within a block turns what is left into "
                     "noise). A change of state between blocks that hits one variant and not the other (a "
                     "build that warms a cache the other evicts) is outside the model.\n"
                     "- **Normal differences.** The coverage is exact for normal differences of any variance; "
                     "for the other shapes (skewed, heavy-tailed, quantised, discrete) it is measured here.\n"
                     "- **One boot.** A mode drawn at boot (`boot-modes`) is shared by both variants of an "
                     "experiment and cancels: ab's verdict is about this boot. Whether the change holds across "
                     "boots is a question for a campaign over several boots.\n\n"
                     "Bounds: in A/A (no change) a false regression at most alpha/2 = %.3f and a false "
                     "\"changed\" (either way) at most alpha = %.2f, at every `--max-runs`; an \"equivalent\" "
                     "call in A/A is right, not an error. Under a real change in the bad direction, a call in "
                     "the wrong direction at most alpha/2 and an \"equivalent\" call at most alpha (the interval "
                     "then misses the truth) for the 2%% and 5%% changes; the 1%% change sits exactly at the "
                     "threshold, where neither call is right, so its rates are information only. A rate above "
                     "its bound is marked `*`; `MISS` when an exact one-sided binomial test rejects \"the rate "
                     "is at most the bound\" at level %.3g (the ctest `ab_calibration` fails on a MISS).\n\n",
                     g_mixture, kAlpha / 2, kAlpha, kMissLevel);
    }
    std::fprintf(out,
                 "## Summary\n\n"
                 "Over the %zu A/A cells: the largest false-regression rate is %.4f (bound %.3f; %zu cells "
                 "above it, by chance or not), the largest false-\"changed\" rate %.4f (bound %.2f; %zu cells "
                 "above); %zu rates miss their bound beyond the binomial slack.\n\n",
                 cells_aa, max_reg, kAlpha / 2, above_reg, max_changed, kAlpha, above_changed, misses);
}

// Ties: the fps-60-30 family's frame rates (60, or 30 with probability
// 0.1) for the baseline, and a candidate that drops to 30 fps with
// probability `share` (0.2: a mean of 54 fps against 57, ln ratio -6.7%).
// No bound is checked: this measures a known weakness (write_reading).
struct TieCell {
    double share = 0;
    size_t max_runs = 0;
    size_t reps = 0;
    size_t regression = 0, improvement = 0, equivalent = 0, inconclusive = 0;
};

void run_tie_cell(TieCell& c, uint64_t seed) {
    an::SequentialOptions o;
    o.confidence = 1 - kAlpha;
    o.threshold = kThreshold;
    o.mixture = g_mixture;
    if (g_group) o.looks = an::group_looks(c.max_runs);
    for (size_t rep = 0; rep < c.reps; ++rep) {
        Rng rng(an::mix64(an::mix64(seed ^ 0x71e5) + rep));
        std::vector<double> b, v;
        AbCall call = AbCall::inconclusive;
        for (size_t i = 0; i < c.max_runs; ++i) {
            // The order within a block does not matter for independent runs.
            b.push_back(rng.uniform() < 0.1 ? 30 : 60);
            v.push_back(rng.uniform() < c.share ? 30 : 60);
            if (b.size() < 2) continue;
            const auto look = an::sequential_look(b, v, o);
            if (look.call == an::SequentialCall::go_on) continue;
            call = look.call == an::SequentialCall::equivalent
                       ? AbCall::equivalent
                       : (look.relative_change < 0 ? AbCall::regression : AbCall::improvement);
            break;
        }
        switch (call) {
            case AbCall::regression: ++c.regression; break;
            case AbCall::improvement: ++c.improvement; break;
            case AbCall::equivalent: ++c.equivalent; break;
            case AbCall::inconclusive: ++c.inconclusive; break;
        }
    }
}

void write_ties(FILE* out, const std::vector<TieCell>& ties) {
    std::fprintf(out,
                 "## Ties: a discrete metric whose change keeps most values equal\n\n"
                 "Not a calibration family: the baseline is `fps-60-30`'s frame rates (60, or 30 with "
                 "probability 0.1); the candidate drops to 30 fps with probability 0.1 (A/A) or 0.2 (mean "
                 "54 fps against 57, a mean log ratio of -6.7%%), so that most blocks give a zero "
                 "difference. Identical differences of a metric that is not declared exact are no "
                 "evidence (SequentialOptions::exact): the rule goes on until the differences vary. "
                 "Calling them a zero-width interval instead decided \"equivalent\" at block 6 whenever "
                 "the first six blocks tied (0.74^6 = 16%% against the 0.2 candidate). The bounds are "
                 "checked with --check: A/A (0.1) false regression <= alpha/2 and false changed <= alpha; "
                 "0.2: \"equivalent\" <= alpha and improvement <= alpha/2.\n\n"
                 "| candidate 30 fps share | max runs | regression | improvement | equivalent | inconclusive |\n"
                 "| ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (const TieCell& t : ties)
        std::fprintf(out, "| %.1f | %zu | %s | %s | %s | %s |\n", t.share, t.max_runs,
                     plain_rate(t.regression, t.reps).c_str(), plain_rate(t.improvement, t.reps).c_str(),
                     plain_rate(t.equivalent, t.reps).c_str(), plain_rate(t.inconclusive, t.reps).c_str());
    std::fprintf(out, "\n");
}

void write_reading(FILE* out) {
    std::fprintf(out,
                 "## Reading the tables\n\n"
                 "- **No call before the 4th block.** At alpha 0.05 the two-part mixture cannot reach 1/alpha "
                 "with 3 differences or fewer (0.95 (1 + n/2)^((n - 1)/2) + 0.05 (1 + 100 n)^((n - 1)/2) "
                 "<= 20), so the interval is unbounded until then: `constant` and `deterministic` are "
                 "decided at block 4, and no experiment stops earlier (without the wide part: block 6).\n"
                 "- **Noisy families end inconclusive.** With a coefficient of variation of 5%% or more per run "
                 "(`lognormal-0.2`, `lognormal-0.5`, `ex-gaussian`, `latency-1us`) a block difference has a "
                 "spread of 7%% or more, and neither \"inside +-1%%\" nor \"excludes 0\" for a 2%% change is "
                 "often reachable in 200 blocks: the rule says \"not enough data\", which is not an error.\n"
                 "- **Identical differences decide only exact metrics.** `constant` and `deterministic` are "
                 "declared exact: the same difference in every block is the change itself, decided at block "
                 "4. In `fps-60-30` (not exact) most blocks give the same frame rate twice, a zero "
                 "difference that says nothing about the spread; such looks go on until the differences "
                 "vary (SequentialOptions::exact), and the discrete 30/60 jumps then make the other blocks' "
                 "differences +-ln 2, which the t-mixture treats as noise: power at 2%% stays low. The last "
                 "table checks the bounds on such ties. The 1%% rows of `constant` and `deterministic` sit "
                 "at the band's edge: a ratio of exactly 1.01 or 0.99 lands inside the open band or on it "
                 "by the last bit of ln.\n"
                 "- **Drift cancels.** `drift` (+3%% over the planned time line, shared by both variants) "
                 "keeps its A/A rates within the bounds because the two runs of a block are adjacent in time; "
                 "a design that runs all of A and then all of B does not (bench/README.md, "
                 "`ab_efficiency.sh`: hyperfine's 10 + 10 runs call a false regression in most A/A "
                 "experiments of that family).\n"
                 "- **Efficiency** against fixed designs with the same power and alpha, hyperfine's default "
                 "and the Phoronix Test Suite's dynamic run count: bench/README.md (`make bench`, "
                 "`bench/ab_efficiency.sh`).\n\n");
}

void write_tables(FILE* out, const std::vector<Cell>& cells) {
    std::fprintf(out,
                 "## A/A: no change\n\n"
                 "Runs are per variant (blocks). false regression: a \"changed\" call in the family's bad "
                 "direction; false changed: either direction.\n\n"
                 "| family | max runs | false regression (<= %.3f) | false changed (<= %.2f) | equivalent | "
                 "inconclusive | runs mean | runs p90 | runs max |\n"
                 "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
                 kAlpha / 2, kAlpha);
    for (const Cell& c : cells) {
        if (c.delta != 0) continue;
        std::fprintf(out, "| %s | %zu | %s | %s | %s | %s | %.1f | %zu | %zu |\n", families()[c.family].name,
                     c.max_runs, rate_with_bar(c.regression, c.reps, kAlpha / 2).c_str(),
                     rate_with_bar(c.regression + c.improvement, c.reps, kAlpha).c_str(),
                     plain_rate(c.equivalent, c.reps).c_str(), plain_rate(c.inconclusive, c.reps).c_str(),
                     c.runs_mean, c.runs_p90, c.runs_max);
    }
    std::fprintf(out,
                 "\n## A change in the bad direction\n\n"
                 "A scale of 1 + delta (lower is better) or 1 - delta (higher is better) on every candidate "
                 "run. power: the regression called; wrong way: an improvement called; equivalent: the "
                 "interval inside +-1%%. At 1%% the change is at the threshold itself (information only).\n\n"
                 "| family | change | max runs | power | wrong way (<= %.3f) | equivalent (<= %.2f at 2%%, 5%%) | "
                 "inconclusive | runs mean | runs p90 |\n"
                 "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
                 kAlpha / 2, kAlpha);
    for (const Cell& c : cells) {
        if (c.delta == 0) continue;
        const bool at_threshold = c.delta <= kThreshold;
        std::fprintf(out, "| %s | %g%% | %zu | %s | %s | %s | %s | %.1f | %zu |\n", families()[c.family].name,
                     100 * c.delta, c.max_runs, plain_rate(c.regression, c.reps).c_str(),
                     at_threshold ? plain_rate(c.improvement, c.reps).c_str()
                                  : rate_with_bar(c.improvement, c.reps, kAlpha / 2).c_str(),
                     at_threshold ? plain_rate(c.equivalent, c.reps).c_str()
                                  : rate_with_bar(c.equivalent, c.reps, kAlpha).c_str(),
                     plain_rate(c.inconclusive, c.reps).c_str(), c.runs_mean, c.runs_p90);
    }
    std::fprintf(out, "\n");
}

}  // namespace

int main(int argc, char** argv) {
    size_t reps = 0;
    uint64_t seed = 20261201;
    bool quick = false, markdown = false, check = false;
    std::string label = "gfxstat";
    std::vector<std::string> only_families;
    std::vector<size_t> only_m;
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&](const char* what) {
            if (i + 1 >= argc) usage((a + " needs " + what).c_str());
            return argv[++i];
        };
        if (a == "--reps") reps = number(value("a count"), "--reps");
        else if (a == "--seed") seed = number(value("a number"), "--seed");
        else if (a == "--threads")
            threads = static_cast<unsigned>(std::max(1ULL, number(value("a count"), "--threads")));
        else if (a == "--label") label = value("text");
        else if (a == "--mixture") {
            g_mixture = std::strtod(value("a number"), nullptr);
            if (!(g_mixture > 0)) usage("--mixture must be > 0");
        }
        else if (a == "--family") {
            only_families.push_back(value("a family name"));
            const Family* f = find_family(only_families.back());
            if (!f || !f->verdicts) usage(("no verdict family " + only_families.back()).c_str());
        } else if (a == "--max-runs") only_m.push_back(number(value("a count"), "--max-runs"));
        else if (a == "--quick") quick = true;
        else if (a == "--stop") {
            const std::string r = value("sequential or group");
            if (r != "sequential" && r != "group") usage("--stop takes sequential or group");
            g_group = r == "group";
        }
        else if (a == "--markdown") markdown = true;
        else if (a == "--check") check = true;
        else usage(("unknown argument " + a).c_str());
    }
    const char* sanitized = std::getenv("GFXSTAT_SANITIZED");
    const bool slow = sanitized && *sanitized && std::strcmp(sanitized, "0") != 0;
    if (reps == 0) reps = quick ? (slow ? 60 : 400) : 2000;

    std::vector<Cell> cells;
    const auto add = [&](size_t fi, size_t m, double delta, size_t ci) {
        const Family& f = families()[fi];
        if (quick && !in_quick(f, m, delta)) return;
        if (!only_families.empty() &&
            std::find(only_families.begin(), only_families.end(), f.name) == only_families.end())
            return;
        if (!only_m.empty() && std::find(only_m.begin(), only_m.end(), m) == only_m.end()) return;
        Cell c;
        c.family = fi;
        c.max_runs = m;
        c.delta = delta;
        c.reps = reps;
        c.seed = an::mix64(seed ^ an::mix64((fi + 1) * 1000003 + m * 101 + ci * 7 + 0xab));
        cells.push_back(c);
    };
    for (size_t fi : ab_families()) {
        for (size_t m : kAaMaxRuns) add(fi, m, 0, 0);
        for (size_t di = 0; di < std::size(kChanges); ++di)
            for (size_t m : kChangeMaxRuns) add(fi, m, kChanges[di], di + 1);
    }
    // Table order: family, then A/A by max runs, then each change by max runs.
    const auto t0 = std::chrono::steady_clock::now();
    run_all(cells, threads);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));

    if (markdown) {
        write_intro(stdout, cells, reps, seed, label, date, seconds, threads);
        if (!g_group) write_reading(stdout);
    }
    else
        std::printf("gfxstat_ab_calibration: %zu cells, %zu replicates each, seed %llu, %.1f s\n\n", cells.size(),
                    reps, static_cast<unsigned long long>(seed), seconds);
    write_tables(stdout, cells);
    std::vector<TieCell> ties;
    if (!quick && only_families.empty()) {
        for (double share : {0.1, 0.2})
            for (size_t m : {20, 200}) {
                TieCell t;
                t.share = share;
                t.max_runs = m;
                t.reps = reps;
                ties.push_back(t);
            }
        for (size_t i = 0; i < ties.size(); ++i) run_tie_cell(ties[i], seed + i);
        write_ties(stdout, ties);
    }

    if (check) {
        size_t missed = 0;
        const auto miss = [&](const Cell& c, const char* what, size_t k, double bound) {
            if (!exceeds(k, c.reps, bound)) return;
            ++missed;
            std::fprintf(stderr, "MISS %s max_runs=%zu change=%g%%: %s %.4f (%zu of %zu) above %.3f\n",
                         families()[c.family].name, c.max_runs, 100 * c.delta, what, rate(k, c.reps), k, c.reps,
                         bound);
        };
        for (const Cell& c : cells) {
            if (c.delta == 0) {
                miss(c, "false regression", c.regression, kAlpha / 2);
                miss(c, "false changed", c.regression + c.improvement, kAlpha);
            } else if (c.delta > kThreshold) {
                miss(c, "wrong-way call", c.improvement, kAlpha / 2);
                miss(c, "equivalent under a real change", c.equivalent, kAlpha);
            }
        }
        for (const TieCell& t : ties) {
            const auto tie_miss = [&](const char* what, size_t k, double bound) {
                if (!exceeds(k, t.reps, bound)) return;
                ++missed;
                std::fprintf(stderr, "MISS ties share=%g max_runs=%zu: %s %.4f above %.3f\n", t.share, t.max_runs,
                             what, rate(k, t.reps), bound);
            };
            if (t.share <= 0.1) {
                tie_miss("false regression", t.regression, kAlpha / 2);
                tie_miss("false changed", t.regression + t.improvement, kAlpha);
            } else {
                tie_miss("equivalent under a real change", t.equivalent, kAlpha);
                tie_miss("wrong-way call", t.improvement, kAlpha / 2);
            }
        }
        std::fprintf(stderr, "%zu cells measured, %zu rates beyond their bounds (exact binomial, level %g)\n",
                     cells.size(), missed, kMissLevel);
        return missed ? 1 : 0;
    }
    return 0;
}
