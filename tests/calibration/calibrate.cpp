// SPDX-License-Identifier: MIT
// gfxstat_calibration: how often each verdict and diagnostic sentence of
// `gfxstat compare` is wrong, by seeded simulation, at the run counts
// kernel and Mesa developers use (3 to 10 a side) and beyond.
//
//   gfxstat_calibration [--reps R] [--suite-reps R] [--seed S] [--threads T] [--quick]
//                       [--samples | --suites | --stored-boots] [--family NAME]... [--n N]...
//                       [--markdown] [--label TEXT] [--check]
//
// Three parts: the two-sample cells (n runs a side), the suite cells (k
// benchmarks measured once a side, tested as pairs: suite_sim.h), each with
// its own replicate count, and the stored-boots cells (one new boot against
// stored history: stored_boots_sim.h, R replicates); --samples, --suites or
// --stored-boots keeps one part. --family
// (a family or a suite noise) and --n (runs a side, or benchmarks in a
// suite) keep only those cells (to look into one miss).
// Prints the table as text (or as markdown for docs/calibration.md);
// --check exits 1 listing every cell that misses its bar. Deterministic for
// a given seed and R, whatever the thread count.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>

#include "tests/calibration/bars.h"
#include "tests/calibration/cells.h"
#include "tests/calibration/markdown.h"
#include "tests/calibration/stored_boots_sim.h"
#include "tests/calibration/suite_bars.h"
#include "tests/calibration/suite_markdown.h"

using namespace gfxstat::calibration;

namespace {

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "gfxstat_calibration: %s\n"
                 "usage: gfxstat_calibration [--reps R] [--suite-reps R] [--seed S] [--threads T] [--quick] "
                 "[--samples | --suites | --stored-boots] [--markdown] [--family NAME]... [--n N]... [--label TEXT] [--check]\n",
                 why);
    std::exit(2);
}

unsigned long long number(const char* s, const char* what) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s, &end, 10);
    if (!*s || *end || s[0] == '-') usage((std::string(what) + " must be a non-negative integer").c_str());
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    RunInfo info;
    size_t reps = 0, suite_reps = 0;  // 0: the default for the mode
    bool quick = false, markdown = false, check = false, samples_only = false, suites_only = false, stored_only = false;
    std::vector<std::string> only_families;
    std::vector<size_t> only_n;
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&](const char* what) {
            if (i + 1 >= argc) usage((a + " needs " + what).c_str());
            return argv[++i];
        };
        if (a == "--reps") reps = number(value("a count"), "--reps");
        else if (a == "--suite-reps") suite_reps = number(value("a count"), "--suite-reps");
        else if (a == "--seed") info.seed = number(value("a number"), "--seed");
        else if (a == "--threads") threads = static_cast<unsigned>(std::max(1ULL, number(value("a count"), "--threads")));
        else if (a == "--label") info.label = value("text");
        else if (a == "--family") {
            only_families.push_back(value("a family name"));
            if (!find_family(only_families.back()) && !find_suite_noise(only_families.back()))
                usage(("no family " + only_families.back()).c_str());
        } else if (a == "--n") only_n.push_back(number(value("a size"), "--n"));
        else if (a == "--quick") quick = true;
        else if (a == "--markdown") markdown = true;
        else if (a == "--check") check = true;
        else if (a == "--samples") samples_only = true;
        else if (a == "--suites") suites_only = true;
        else if (a == "--stored-boots") stored_only = true;
        else usage(("unknown argument " + a).c_str());
    }
    // Under AddressSanitizer (tests/CMakeLists.txt sets GFXSTAT_SANITIZED)
    // everything runs about ten times slower: fewer replicates, and the
    // bars' binomial slack widens to match.
    const char* sanitized = std::getenv("GFXSTAT_SANITIZED");
    const bool slow = sanitized && *sanitized && std::strcmp(sanitized, "0") != 0;
    if (samples_only + suites_only + stored_only > 1)
        usage("--samples, --suites and --stored-boots each keep one part: give one");
    const bool samples = !suites_only && !stored_only, suites = !samples_only && !stored_only,
               stored = !samples_only && !suites_only && only_families.empty() && only_n.empty();
    if (reps == 0) reps = quick ? (slow ? 40 : 300) : 2000;
    // A suite replicate costs a few microseconds: many more of them. The
    // default suite run takes well under a minute on one core at -O2.
    if (suite_reps == 0) suite_reps = quick ? (slow ? 1000 : 4000) : 12000;
    info.reps = reps;
    info.quick = quick;
    const auto kept = [&](const std::string& name, size_t n) {
        return (only_families.empty() ||
                std::find(only_families.begin(), only_families.end(), name) != only_families.end()) &&
               (only_n.empty() || std::find(only_n.begin(), only_n.end(), n) != only_n.end());
    };

    const auto t0 = std::chrono::steady_clock::now();
    std::vector<CellSpec> specs;
    if (samples)
        for (const CellSpec& c : table_cells(info.seed, reps, quick))
            if (kept(families()[c.family].name, c.n)) specs.push_back(c);
    const std::vector<CellResult> results = run_cells(specs, threads);
    const auto t1 = std::chrono::steady_clock::now();
    info.seconds = std::chrono::duration<double>(t1 - t0).count();

    RunInfo suite_info = info;
    suite_info.reps = suite_reps;
    std::vector<SuiteCellSpec> suite_specs;
    if (suites)
        for (const SuiteCellSpec& c : suite_cells(info.seed, suite_reps, quick))
            if (kept(suite_noises()[c.noise].name, c.k)) suite_specs.push_back(c);
    const std::vector<SuiteCellResult> suite_results = run_suite_cells(suite_specs, threads);
    const auto t2 = std::chrono::steady_clock::now();
    suite_info.seconds = std::chrono::duration<double>(t2 - t1).count();

    // One new boot against stored history: R replicates a cell, as the
    // two-sample part (each costs about what one of its cells' does).
    RunInfo stored_info = info;
    const std::vector<StoredCellResult> stored_results =
        stored ? run_stored_cells(stored_cells(info.seed, reps, quick), threads) : std::vector<StoredCellResult>{};
    stored_info.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t2).count();

    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    info.date = suite_info.date = stored_info.date = date;
    if (suites) info.suite_reps = suite_reps;

    if (samples) {
        if (markdown) write_markdown(stdout, results, info);
        else write_text(stdout, results, info);
    }
    if (suites) {
        if (markdown) write_suite_markdown(stdout, suite_results, suite_info);
        else write_suite_text(stdout, suite_results, suite_info);
    }
    if (stored) {
        if (markdown) write_stored_markdown(stdout, stored_results, stored_info);
        else write_stored_text(stdout, stored_results, stored_info);
    }

    if (check) {
        std::vector<Miss> m = misses(results);
        for (Miss& x : suite_misses(suite_results)) m.push_back(std::move(x));
        for (Miss& x : stored_misses(stored_results)) m.push_back(std::move(x));
        for (const Miss& x : m) std::fprintf(stderr, "MISS %s: %s\n", x.cell.c_str(), x.what.c_str());
        const size_t cells = results.size() + suite_results.size() + stored_results.size();
        std::fprintf(stderr, "%zu cell%s measured, %zu bar%s missed (seed %llu, R = %zu, suites R = %zu)\n", cells,
                     cells == 1 ? "" : "s", m.size(), m.size() == 1 ? "" : "s",
                     static_cast<unsigned long long>(info.seed), reps, suite_reps);
        return m.empty() ? 0 : 1;
    }
    return 0;
}
