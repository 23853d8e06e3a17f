// SPDX-License-Identifier: MIT
#include "report/ministat_usage.h"

namespace gfxstat::report {

void print_ministat_usage(FILE* out, const char* prog) {
    std::fprintf(out,
                 "Usage: %s [-C column] [-c confidence] [-d delimiter(s)] [-Anqs] [-w width] "
                 "[--metric NAME]... [--variant LABEL]... [--filter EXPR] [--store URL] [file [file ...]]\n",
                 prog);
    std::fprintf(out, "\tconfidence = any level in (0, 100); default 95\n");
    std::fprintf(out, "\t-A : print statistics only. suppress the graph.\n");
    std::fprintf(out, "\t-C : column number to extract (starts and defaults to 1)\n");
    std::fprintf(out, "\t-d : delimiter(s) string, default to \" \\t\"\n");
    std::fprintf(out, "\t-n : print summary statistics only, no graph/test\n");
    std::fprintf(out, "\t-q : same as -A\n");
    std::fprintf(out, "\t-s : print avg/median/stddev bars on separate lines\n");
    std::fprintf(out,
                 "\t-w : width of graph/test output (default 74 or terminal width)\n");
    std::fprintf(out, "\tfiles may be gfxstat results files: one data set per variant\n");
    std::fprintf(out, "\tLABEL=file names its data set; file:N reads its column N\n");
    std::fprintf(out,
                 "\t--metric : the metric to take from results files (repeatable; none: a report per metric)\n");
    std::fprintf(out, "\t--variant : a variant to take from results files (repeatable)\n");
    std::fprintf(out, "\t--filter : the observations of results files to report on (docs/filter-language.md)\n");
    std::fprintf(out, "\t--store : the results store that store:SELECTION files read (docs/store.md)\n");
    std::fprintf(out, "\t--help : this text, on standard output\n");
}

}  // namespace gfxstat::report
