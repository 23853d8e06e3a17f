// SPDX-License-Identifier: MIT
// gfxstat_ab_efficiency: how many runs `gfxstat ab`'s stop rules (the
// confidence sequence, and the group-sequential design of --stop group)
// need against fixed designs with the same power and alpha, on the
// calibration families (tests/calibration/ab_sim.h says how each becomes a
// stream of runs in time). bench/ab_efficiency.sh runs it; bench/README.md
// has the latest numbers.
//
//   gfxstat_ab_efficiency [--reps R] [--seed S] [--threads T] [--delta D]
//                         [--max-runs M]... [--family NAME]... [--mixture G]
//                         [--wide-mixture G] [--wide-weight W]
//                         [--stop sequential|group|both] [--markdown]
//
// --mixture, --wide-mixture and --wide-weight set the stop rule's prior
// (analysis/confidence_sequence.h), to measure candidates beside the
// default rule.
//
// For each family and max_runs M: the sequential design's power P at a
// change of D (default 2%) in the bad direction (a regression called within
// M blocks) and its runs per variant (mean over every experiment, p90, max);
// then the smallest N a side at which a fixed design reaches power P, found
// by simulation with the same replicate seeds at every N (so the power
// estimates rise smoothly with N) and bisection:
//
//  - Welch: N runs of the baseline, then N of the candidate, Welch's t at
//    alpha 0.05 two-sided (gfxstat compare's headline test on clean data);
//  - paired: N blocks as ab runs them, a one-sample t of the log ratios.
//
// Beside them, what users do today: hyperfine's default (10 runs a side, one
// command after the other) and the Phoronix Test Suite's dynamic run count
// (3 runs, more while the relative sd is >= 3.5%, up to 12, 15 while it is
// "making progress"), each followed by Welch's t at 0.05; their A/A false
// alarm rates, power and runs.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "analysis/group_sequential.h"
#include "analysis/xoshiro.h"
#include "tests/calibration/ab_sim.h"

using namespace gfxstat::calibration;
namespace an = gfxstat::analysis;

namespace {

constexpr double kAlpha = 0.05;
constexpr double kThreshold = 0.01;
constexpr size_t kFixedLimit = 4096;  // the largest fixed N searched
constexpr double kMatchFloor = 0.2;   // below this sequential power, no matching
constexpr size_t kHyperfineRuns = 10;
constexpr double kPtsThreshold = 3.5;
constexpr size_t kPtsScheduled = 3;
// The goal: the sequential design's mean runs at most this fraction of the
// fixed Welch design's N at the same power.
constexpr double kGoalRatio = 0.70;

// The stop rules: the confidence sequence (a look after every block) and
// the group-sequential design (looks planned from max runs).
enum class Rule { sequential, group };
const char* rule_name(Rule r) { return r == Rule::group ? "group" : "sequential"; }

struct SeqStats {
    Rule rule = Rule::sequential;
    size_t m = 0;
    double power = 0, runs_mean = 0, runs_correct = 0, aa_changed = 0, aa_regression = 0, aa_runs_mean = 0;
    size_t runs_p90 = 0, runs_max = 0;
    // The fixed designs at the same power: 0 = not matched (power below the
    // floor), kFixedLimit + 1 = not reached by kFixedLimit.
    size_t welch_n = 0, paired_n = 0;
    double welch_aa = 0;  // A/A false alarm (either way) of Welch at welch_n
};

struct FamilyResult {
    size_t family = 0;
    std::vector<SeqStats> seq;
    double hf_aa = 0, hf_aa_reg = 0, hf_power = 0;
    double pts_aa = 0, pts_aa_reg = 0, pts_power = 0, pts_runs_mean = 0, pts_runs_mean_aa = 0;
    size_t pts_runs_max = 0;
};

struct Setup {
    size_t reps = 2000;
    uint64_t seed = 20261201;
    double delta = 0.02;
    double mixture = an::kSequentialMixture;
    double wide_mixture = an::kSequentialWideMixture;
    double wide_weight = an::kSequentialWideWeight;
    std::vector<size_t> max_runs = {50, 100, 200};
    std::vector<Rule> rules = {Rule::sequential, Rule::group};
};

uint64_t rep_seed(uint64_t base, size_t fi, size_t what, size_t rep) {
    return an::mix64(an::mix64(base ^ an::mix64((fi + 1) * 7919 + what * 104729)) + rep);
}

// Power (or A/A rate of either call) of a fixed design at n, with the same
// replicate seeds at every n.
template <class Design>
double fixed_rate(const Setup& s, size_t fi, size_t what, double scale, size_t n, bool either, Design design) {
    const Family& f = families()[fi];
    size_t hits = 0;
    for (size_t rep = 0; rep < s.reps; ++rep) {
        Rng rng(rep_seed(s.seed, fi, what, rep));
        const int v = design(f, scale, n, kAlpha, rng);
        hits += either ? v != 0 : v > 0;
    }
    return static_cast<double>(hits) / static_cast<double>(s.reps);
}

// Smallest n in [2, kFixedLimit] with power >= target (kFixedLimit + 1 if none).
template <class Design>
size_t match(const Setup& s, size_t fi, size_t what, double scale, double target, Design design) {
    size_t lo = 1, hi = 2;  // power(lo) < target is assumed for lo = 1 (no test)
    while (fixed_rate(s, fi, what, scale, hi, false, design) < target) {
        lo = hi;
        if (hi >= kFixedLimit) return kFixedLimit + 1;
        hi = std::min(kFixedLimit, hi * 2);
    }
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (fixed_rate(s, fi, what, scale, mid, false, design) >= target) hi = mid;
        else lo = mid;
    }
    return hi;
}

FamilyResult run_family(const Setup& s, size_t fi) {
    const Family& f = families()[fi];
    const double scale = bad_scale(f, s.delta);
    FamilyResult out;
    out.family = fi;
    an::SequentialOptions o;
    o.confidence = 1 - kAlpha;
    o.threshold = kThreshold;
    o.mixture = s.mixture;
    o.wide_mixture = s.wide_mixture;
    o.wide_weight = s.wide_weight;
    o.exact = f.exact;
    for (Rule rule : s.rules) for (size_t m : s.max_runs) {
        SeqStats st;
        st.rule = rule;
        st.m = m;
        o.looks = rule == Rule::group ? an::group_looks(m) : std::vector<size_t>{};
        std::vector<size_t> used(s.reps);
        size_t power = 0, aa_changed = 0, aa_reg = 0;
        double sum = 0, aa_sum = 0, correct_sum = 0;
        for (size_t rep = 0; rep < s.reps; ++rep) {
            Rng rng(rep_seed(s.seed, fi, 1000 + m, rep));
            const AbOutcome r = run_ab(f, scale, m, o, rng);
            power += r.call == AbCall::regression;
            if (r.call == AbCall::regression) correct_sum += static_cast<double>(r.blocks);
            used[rep] = r.blocks;
            sum += static_cast<double>(r.blocks);
            Rng rng0(rep_seed(s.seed, fi, 2000 + m, rep));
            const AbOutcome z = run_ab(f, 1, m, o, rng0);
            aa_changed += z.call == AbCall::regression || z.call == AbCall::improvement;
            aa_reg += z.call == AbCall::regression;
            aa_sum += static_cast<double>(z.blocks);
        }
        const double R = static_cast<double>(s.reps);
        st.power = power / R;
        st.aa_changed = aa_changed / R;
        st.aa_regression = aa_reg / R;
        st.runs_mean = sum / R;
        st.runs_correct = power ? correct_sum / static_cast<double>(power) : 0;
        st.aa_runs_mean = aa_sum / R;
        std::sort(used.begin(), used.end());
        st.runs_p90 = used[std::min(used.size() - 1, static_cast<size_t>(std::ceil(0.9 * R)) - 1)];
        st.runs_max = used.back();
        if (st.power >= kMatchFloor) {
            st.welch_n = match(s, fi, 10, scale, st.power, welch_fixed);
            st.paired_n = match(s, fi, 11, scale, st.power, paired_fixed);
            if (st.welch_n <= kFixedLimit) st.welch_aa = fixed_rate(s, fi, 12, 1, st.welch_n, true, welch_fixed);
        }
        out.seq.push_back(st);
    }
    // hyperfine's default.
    out.hf_power = fixed_rate(s, fi, 20, scale, kHyperfineRuns, false, welch_fixed);
    out.hf_aa = fixed_rate(s, fi, 21, 1, kHyperfineRuns, true, welch_fixed);
    out.hf_aa_reg = fixed_rate(s, fi, 21, 1, kHyperfineRuns, false, welch_fixed);
    // The Phoronix Test Suite's dynamic run count.
    size_t pw = 0, aa = 0, aa_reg = 0, runs_max = 0;
    double runs = 0, runs_aa = 0;
    for (size_t rep = 0; rep < s.reps; ++rep) {
        Rng rng(rep_seed(s.seed, fi, 30, rep));
        const PtsOutcome p = pts_fixed(f, scale, kPtsThreshold, kPtsScheduled, kAlpha, rng);
        pw += p.verdict > 0;
        runs += 0.5 * static_cast<double>(p.runs_baseline + p.runs_candidate);
        runs_max = std::max({runs_max, p.runs_baseline, p.runs_candidate});
        Rng rng0(rep_seed(s.seed, fi, 31, rep));
        const PtsOutcome z = pts_fixed(f, 1, kPtsThreshold, kPtsScheduled, kAlpha, rng0);
        aa += z.verdict != 0;
        aa_reg += z.verdict > 0;
        runs_aa += 0.5 * static_cast<double>(z.runs_baseline + z.runs_candidate);
    }
    const double R = static_cast<double>(s.reps);
    out.pts_power = pw / R;
    out.pts_aa = aa / R;
    out.pts_aa_reg = aa_reg / R;
    out.pts_runs_mean = runs / R;
    out.pts_runs_mean_aa = runs_aa / R;
    out.pts_runs_max = runs_max;
    return out;
}

std::string n_text(size_t n) {
    if (n == 0) return "-";
    if (n > kFixedLimit) return "> " + std::to_string(kFixedLimit);
    return std::to_string(n);
}

std::string ratio_text(double mean, size_t n) {
    if (n == 0 || n > kFixedLimit) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", mean / static_cast<double>(n));
    return buf;
}

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "gfxstat_ab_efficiency: %s\n"
                 "usage: gfxstat_ab_efficiency [--reps R] [--seed S] [--threads T] [--delta D] [--max-runs M]... "
                 "[--family NAME]... [--stop sequential|group|both] [--markdown]\n",
                 why);
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    Setup s;
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<size_t> fams;
    std::vector<size_t> ms;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage((a + " needs a value").c_str());
            return argv[++i];
        };
        if (a == "--reps") s.reps = std::strtoull(value(), nullptr, 10);
        else if (a == "--seed") s.seed = std::strtoull(value(), nullptr, 10);
        else if (a == "--threads") threads = std::max(1u, static_cast<unsigned>(std::strtoul(value(), nullptr, 10)));
        else if (a == "--delta") s.delta = std::strtod(value(), nullptr);
        else if (a == "--mixture") s.mixture = std::strtod(value(), nullptr);
        else if (a == "--wide-mixture") s.wide_mixture = std::strtod(value(), nullptr);
        else if (a == "--wide-weight") s.wide_weight = std::strtod(value(), nullptr);
        else if (a == "--stop") {
            const std::string r = value();
            if (r == "sequential") s.rules = {Rule::sequential};
            else if (r == "group") s.rules = {Rule::group};
            else if (r == "both") s.rules = {Rule::sequential, Rule::group};
            else usage("--stop takes sequential, group or both");
        } else if (a == "--max-runs") ms.push_back(std::strtoull(value(), nullptr, 10));
        else if (a == "--family") {
            const std::string name = value();
            const Family* f = find_family(name);
            if (!f || !f->verdicts) usage(("no verdict family " + name).c_str());
            fams.push_back(static_cast<size_t>(f - families().data()));
        } else if (a == "--markdown") {
            // tables are markdown in any case
        } else usage(("unknown argument " + a).c_str());
    }
    if (s.reps < 10) usage("--reps must be at least 10");
    if (!(s.delta > 0 && s.delta < 1)) usage("--delta must be in (0, 1)");
    if (!(s.mixture > 0)) usage("--mixture must be > 0");
    if (!(s.wide_mixture > 0)) usage("--wide-mixture must be > 0");
    if (!(s.wide_weight >= 0 && s.wide_weight < 1)) usage("--wide-weight must be in [0, 1)");
    if (!ms.empty()) s.max_runs = ms;
    if (fams.empty()) fams = ab_families();

    std::vector<FamilyResult> results(fams.size());
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t k; (k = next.fetch_add(1)) < fams.size();) results[k] = run_family(s, fams[k]);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();

    std::printf("gfxstat_ab_efficiency: change %g%% in the bad direction, alpha %.2f, threshold %g%%, "
                "mixture %g (wide part %g, weight %g), %zu replicates, seed %llu\n\n",
                100 * s.delta, kAlpha, 100 * kThreshold, s.mixture, s.wide_mixture, s.wide_weight, s.reps, static_cast<unsigned long long>(s.seed));
    std::printf("### The sequential design against fixed N at the same power\n\n"
                "Runs are per variant. runs mean: over every experiment (what the design costs); correct: over "
                "those that called the regression. ratio = sequential runs mean / fixed N (goal <= %.2f; "
                "\"max not\": the sequential maximum is above N). Welch: N then N, not interleaved; paired: N interleaved blocks. "
                "\"-\": the sequential power is below %.1f at this max runs, nothing to match.\n\n",
                kGoalRatio, kMatchFloor);
    std::printf("| family | rule | max runs | power | runs mean | correct | p90 | max | Welch N | ratio | Welch A/A at N | "
                "paired N | ratio | goal (Welch) |\n"
                "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (const FamilyResult& r : results) {
        for (const SeqStats& st : r.seq) {
            std::string goal = "-";
            if (st.welch_n > 0 && st.welch_n <= kFixedLimit) {
                const bool mean_ok = st.runs_mean <= kGoalRatio * static_cast<double>(st.welch_n);
                const bool max_ok = st.runs_max <= st.welch_n;
                goal = mean_ok ? (max_ok ? "met" : "met, max not") : "missed";
            } else if (st.welch_n > kFixedLimit) {
                goal = "met";
            }
            char aa[16] = "-";
            if (st.welch_n > 0 && st.welch_n <= kFixedLimit) std::snprintf(aa, sizeof aa, "%.3f", st.welch_aa);
            std::printf("| %s | %s | %zu | %.3f | %.1f | %.1f | %zu | %zu | %s | %s | %s | %s | %s | %s |\n",
                        families()[r.family].name, rule_name(st.rule), st.m, st.power, st.runs_mean, st.runs_correct, st.runs_p90,
                        st.runs_max,
                        n_text(st.welch_n).c_str(), ratio_text(st.runs_mean, st.welch_n).c_str(), aa,
                        n_text(st.paired_n).c_str(), ratio_text(st.runs_mean, st.paired_n).c_str(), goal.c_str());
        }
    }
    std::printf("\n### Side by side: ab, hyperfine's default, the Phoronix rule\n\n"
                "A/A: false alarm rate (either direction; the false-regression part in brackets); power: "
                "the regression found at %g%%; runs per variant (mean; PTS: mean at %g%% / in A/A, max).\n\n",
                100 * s.delta, 100 * s.delta);
    std::printf("| family | ab rule | ab max runs | ab A/A | ab power | ab runs (change / A/A) | hyperfine A/A | "
                "hyperfine power | hyperfine runs | PTS A/A | PTS power | PTS runs |\n"
                "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (const FamilyResult& r : results) {
        for (const SeqStats& st : r.seq) {
            std::printf("| %s | %s | %zu | %.3f (%.3f) | %.3f | %.1f / %.1f | %.3f (%.3f) | %.3f | %zu | %.3f (%.3f) | "
                        "%.3f | %.1f / %.1f, %zu |\n",
                        families()[r.family].name, rule_name(st.rule), st.m, st.aa_changed, st.aa_regression, st.power, st.runs_mean,
                        st.aa_runs_mean, r.hf_aa, r.hf_aa_reg, r.hf_power, kHyperfineRuns, r.pts_aa, r.pts_aa_reg,
                        r.pts_power, r.pts_runs_mean, r.pts_runs_mean_aa, r.pts_runs_max);
        }
    }
    std::printf("\n");
    return 0;
}
