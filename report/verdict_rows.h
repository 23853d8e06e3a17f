// SPDX-License-Identifier: MIT
// compare's verdicts flattened: one row per comparison that has a verdict
// of its own (a metric against one candidate; a suite tested as pairs, one
// row per candidate), with what CI reports carry: the names, the centres,
// the change in words and numbers, the adjusted p, and whether the row
// trips the gate. JUnit, OpenMetrics and KCIDB (report/ci/ci_exports.h)
// render these rows, so a CI report fails exactly where the exit status
// says the gate did.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "analysis/comparison.h"
#include "analysis/verdict.h"
#include "findings/compare_findings.h"
#include "text/readable_units.h"

namespace gfxstat::cli {

struct GateSettings {
    bool gate = false;    // --gate: a regression beyond the threshold fails
    bool strict = false;  // --strict: an inconclusive primary comparison fails too
};

struct VerdictRow {
    std::string metric;  // the benchmark as compare names it ("value" for column files), or "suite"
    std::string group;   // what a JUnit testsuite gathers: the metric's name up to its last '/', else "gfxstat"
    std::string unit;
    analysis::Better better = analysis::Better::unknown;
    std::string baseline, candidate;  // labels
    bool primary = true;              // secondary rows never gate
    bool paired_suite = false;        // the suite tested as pairs (metric "suite")
    double baseline_centre = 0, candidate_centre = 0;  // means (the suite's geometric means when paired)
    size_t baseline_n = 0, candidate_n = 0;             // values (benchmarks when paired)
    double relative_change = 0;                         // the primary test's estimate; NaN when undefined
    std::optional<std::array<double, 2>> relative_ci;   // its interval, when defined
    std::optional<double> p;                            // the primary p as adjusted; none when undefined
    std::string p_label;                                // "Holm-adjusted p", "p", ...
    analysis::Verdict verdict;
    std::string change_words;  // "+5.07% [+1.23%, +8.91%]" (raw text: escape for the medium)
    std::string line;          // the one-line verdict (raw): "gl_manhattan, patch vs base: regression, ..."
    // The candidate's images differ and its timing alone said improvement:
    // the verdict (`changed`) reads "renders differently" (findings/compare_images.h).
    bool renders_differently = false;
    bool fails = false;               // this row makes --gate fail (exit 1)
    bool inconclusive_fails = false;  // this row makes --gate --strict fail (exit 3)
    // Each side's values (runs, in run order) and boots; null when paired.
    const ReportSample* baseline_side = nullptr;
    const ReportSample* candidate_side = nullptr;
};

std::vector<VerdictRow> verdict_rows(const CompareReport& r, const GateSettings& gate);

// The image checks of the report as CI reports carry them: one per
// candidate, with the verdict in words ("renders differently: 3 of 120
// frames (first: 42)") and whether it trips --gate: images that differ,
// unless --allow-image-change (findings/compare_gate.h), so that a report
// fails exactly where the exit status does.
struct ImageCheckRow {
    const findings::ImageComparison* comparison = nullptr;
    std::string words;   // image_verdict_words (raw)
    std::string line;    // "images, patched vs main: renders differently: ..." (raw)
    bool fails = false;    // it makes --gate fail (exit 1)
    bool allowed = false;  // the images differ and --allow-image-change was given
};
std::vector<ImageCheckRow> image_check_rows(const CompareReport& r, const GateSettings& gate);

// The change of comparison c in the report's words: "+5.07% [+1.23%,
// +8.91%]", "+3 ms (exact)", "+0% (no CI)" (shared with --brief).
std::string change_cell(const analysis::TwoSampleComparison& c, const analysis::Verdict& v,
                        const text::DisplayUnit& du);

}  // namespace gfxstat::cli
