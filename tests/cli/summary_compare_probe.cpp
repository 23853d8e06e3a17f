// A temporary stand-in for `gfxstat compare --summaries` until compare's
// command line calls compare_summaries (cli/summary_compare.h): the same
// options, parsed by hand, so that tests/cli/summary_compare_cli_test.py
// can run end to end. Not installed; removed once compare has the flag.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/summary_compare.h"

int main(int argc, char** argv) {
    gfxstat::cli::SummaryCompareSettings s;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s: %s needs a value\n", s.program.c_str(), a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--summaries") continue;
        else if (a == "--format") s.format = value();
        else if (a == "--width") s.width = std::atoi(value().c_str());
        else if (a == "--confidence") s.confidence = std::strtod(value().c_str(), nullptr);
        else if (a == "--threshold") s.threshold = std::strtod(value().c_str(), nullptr) / 100;
        else if (a == "--baseline") s.baseline = value();
        else if (a == "--lower-is-better") s.better = gfxstat::analysis::Better::lower;
        else if (a == "--higher-is-better") s.better = gfxstat::analysis::Better::higher;
        else if (a == "--gate") s.gate = true;
        else if (a == "--strict") s.strict = true;
        else if (a == "--fdr") s.fdr = true;
        else if (a.size() > 1 && a[0] == '-' && a != "-") {
            std::fprintf(stderr, "%s: unknown option '%s'\n", s.program.c_str(), a.c_str());
            return 2;
        } else files.push_back(a);
    }
    return gfxstat::cli::compare_summaries(files, s, stdout);
}
