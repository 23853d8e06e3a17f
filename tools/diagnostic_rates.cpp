// SPDX-License-Identifier: MIT
// Measures how often gfxstat's per-sample sentences fire: on unimodal,
// drift-free families (tools/sample_families.h) every sentence is a false
// alarm; on the bimodal and outlier families the rate is the detection
// rate. It reads the sentences themselves (sample_findings), so it measures
// what a reviewer sees, whatever rule produced them. The tables in
// docs/diagnostics.md come from it.
//
//   gfxstat_diagnostic_rates [--reps R] [--seed S] [--n 3,5,10,...] [--families all|unimodal|signal]
//   gfxstat_diagnostic_rates --mixtures [--reps R] [--seed S]
//
// Prints one markdown table row per family and n: the share of samples
// with a bimodality, outlier, drift (trend or level change) or first-run
// sentence. --mixtures: the power table of docs/diagnostics.md instead,
// how often two normals of sd 1 whose means lie D apart are called bimodal.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/diagnostics.h"
#include "report/diagnostic_words.h"
#include "tools/sample_families.h"

using namespace gfxstat;

int main(int argc, char** argv) {
    int reps = 1000;
    uint64_t seed = 20261201;
    std::vector<size_t> ns = {3, 4, 5, 6, 8, 10, 15, 20, 30, 50};
    std::string which = "all";
    bool mixtures = false;
    for (int i = 1; i < argc && !std::strcmp(argv[i], "--mixtures"); ++i) {
        mixtures = true;
        for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
        --argc;
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--families")) which = argv[i + 1];
        else if (!std::strcmp(argv[i], "--n")) {
            ns.clear();
            for (char* p = argv[i + 1]; *p;) {
                ns.push_back(std::strtoul(p, &p, 10));
                if (*p == ',') ++p;
            }
        } else {
            std::fprintf(stderr, "usage: %s [--reps R] [--seed S] [--n LIST] [--families all|unimodal|signal]\n", argv[0]);
            return 2;
        }
    }
    if (mixtures) {
        std::printf("| D | weights | n = 40 | n = 100 | n = 200 |\n| ---: | --- | ---: | ---: | ---: |\n");
        for (double dd : {3.0, 4.0, 5.0, 6.0})
            for (double w : {0.5, 0.7, 0.8, 0.9}) {
                std::printf("| %g | %g/%g |", dd, w * 100, 100 - w * 100);
                for (size_t n : {40, 100, 200}) {
                    tools::FamilyRng rng(seed + static_cast<uint64_t>(dd * 1000 + w * 100) + n);
                    int found = 0;
                    for (int r = 0; r < reps; ++r) {
                        std::vector<double> x(n);
                        for (double& v : x) v = 100 + (rng.uniform() < w ? 0 : dd) + rng.normal();
                        found += analysis::judge_bimodality(x).bimodal;
                    }
                    std::printf(" %.0f%% |", 100.0 * found / reps);
                }
                std::printf("\n");
                std::fflush(stdout);
            }
        return 0;
    }
    std::vector<tools::Family> families;
    if (which != "signal")
        for (auto f : tools::kUnimodalFamilies) families.push_back(f);
    if (which != "unimodal")
        for (auto f : {tools::Family::bimodal_d4, tools::Family::fps_60_30, tools::Family::fps_60_30_exact,
                       tools::Family::outlier_10sd})
            families.push_back(f);
    std::printf("| family | n | bimodal | outlier | drift | trend | level change | first run |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    for (auto f : families)
        for (size_t n : ns) {
            tools::FamilyRng rng(seed + 1000003 * static_cast<uint64_t>(f) + n);
            int bimodal = 0, outlier = 0, drift = 0, trend = 0, level = 0, first = 0;
            for (int r = 0; r < reps; ++r) {
                const std::vector<double> x = tools::draw(f, n, rng);
                const analysis::SampleDiagnostics d = analysis::diagnose_sample(x, {}, {});
                bool b = false, o = false, t = false, l = false, fr = false;
                for (const std::string& s : cli::sample_findings("s", d, "", 0.95)) {
                    b |= s.find(" is bimodal") != std::string::npos;
                    o |= s.find(" outlier") != std::string::npos;
                    t |= s.find(" drifts ") != std::string::npos;
                    l |= s.find(" changes level ") != std::string::npos;
                    fr |= s.rfind("The first value", 0) == 0;
                }
                bimodal += b, outlier += o, drift += t || l, trend += t, level += l, first += fr;
            }
            const auto pct = [&](int k) { return 100.0 * k / reps; };
            std::printf("| %s | %zu | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n",
                        tools::family_name(f).c_str(), n, pct(bimodal), pct(outlier), pct(drift), pct(trend),
                        pct(level), pct(first));
            std::fflush(stdout);
        }
    return 0;
}
