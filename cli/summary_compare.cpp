// SPDX-License-Identifier: MIT
// compare from summary statistics: the settings compare's options give,
// the comparisons (findings/summary_comparison.h) and their report in
// text, markdown (report/summary_comparison_text.h) or JSON
// (report/summary_comparison_json.h).
#include "cli/summary_compare.h"

#include <stdexcept>

#include "cli/compare_command.h"
#include "data/input_error.h"
#include "report/summary_comparison_json.h"
#include "report/summary_comparison_text.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

SummaryCompareSettings summary_compare_settings(const CompareSettings& s) {
    SummaryCompareSettings o;
    o.confidence = s.confidence;
    o.threshold = s.threshold_pct / 100;
    o.better = s.lower ? analysis::Better::lower : s.higher ? analysis::Better::higher : analysis::Better::unknown;
    o.format = s.format;
    o.width = s.width;
    o.gate = s.gate;
    o.strict = s.strict;
    o.fdr = s.fdr;
    o.baseline = s.choices.baseline;
    o.program = s.program;
    return o;
}

int compare_summaries(const std::vector<std::string>& files, const SummaryCompareSettings& s, FILE* out) {
    const char* prog = s.program.c_str();
    if (files.empty()) {
        std::fprintf(stderr, "%s: --summaries needs at least one file of summary statistics\n", prog);
        return 2;
    }
    if (s.format != "text" && s.format != "markdown" && s.format != "json") {
        std::fprintf(stderr, "%s: --format %s: with --summaries, text, markdown or json\n", prog,
                     escape_text(s.format).c_str());
        return 2;
    }
    try {
        const findings::SummaryComparisons r = findings::compare_summary_files(files, s);
        if (s.format == "json") std::fprintf(out, "%s\n", report::summary_comparisons_json(r).c_str());
        else if (s.format == "markdown") report::print_summary_comparisons_markdown(r, out);
        else report::print_summary_comparisons_text(r, out);
        return findings::summary_comparisons_status(r);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    } catch (const std::invalid_argument& e) {  // a statistic refused its arguments (a confidence out of range)
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    }
}

}  // namespace gfxstat::cli
