// SPDX-License-Identifier: MIT
// The suite table: one row per benchmark (a test, a subtest, a metric), a
// column per variant with its centre and interval, the change against the
// baseline with its interval and (adjusted) p, and a mark for the verdict,
// benchstat-style; a geomean row; per-candidate counts of the verdicts;
// footnotes for the diagnostics. Built once from compare's results
// (build_suite_table) and rendered as text (72 columns), markdown, CSV or
// JSON: the renderers print, they decide nothing.
//
// Marks: + better, - worse (by the metric's direction), ! changed where no
// direction is known, = equivalent within the threshold, ~ no significant
// change (and no equivalence shown), ? no test could tell (no variability,
// boots confounded, one value a side).
#pragma once

#include <cstdio>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "findings/compare_findings.h"

namespace gfxstat::cli {

struct SuiteCell {
    // The candidate's centre (its mean) and the relative half-width of its
    // mean's t interval (NaN with one value).
    double centre = 0, spread = 0;
    // candidate / baseline - 1, in the data's own direction (not turned),
    // with the primary test's interval; NaN when undefined.
    double change = 0, change_lo = 0, change_hi = 0;
    double p = 0;         // adjusted where the suite's family is; NaN when untested
    char mark = '?';
    std::string outcome;  // the verdict's name; "" when the row was not tested on its own
    std::string reason;   // the verdict's reason
    bool renders_differently = false;  // "!" for an improvement its differing images overruled
    std::vector<size_t> notes;  // footnote numbers (1-based)
};

struct SuiteRow {
    std::string name;  // raw (renderers escape)
    std::string unit;  // as recorded
    analysis::Better better = analysis::Better::unknown;
    bool primary = true;
    double baseline = 0, baseline_spread = 0;  // the baseline's centre and spread
    std::vector<std::optional<SuiteCell>> cells;  // one per candidate; nullopt: not measured
    size_t order = 0;  // place among the benchmarks as compared
};

struct SuiteCounts {
    std::string candidate;
    size_t better = 0, worse = 0, changed = 0, equivalent = 0, unchanged = 0, untold = 0;
    // Marked "!" because the candidate's images differ and the timing
    // alone said better (not counted in `changed`).
    size_t renders_differently = 0;
};

struct SuiteTable {
    std::string baseline;
    std::vector<std::string> candidates;
    std::vector<SuiteRow> rows;  // sorted and filtered as the layout says
    size_t benchmarks = 0;       // rows before --only-changed
    size_t hidden = 0;           // rows --only-changed left out
    // The geomean row: centres are geometric means of the rows' centres;
    // the change is the geomean of the ratios with its interval, in the data's
    // direction when every row shares one (`turned` false), else turned so
    // that above 0 is better (`turned` true).
    std::optional<SuiteRow> geomean;
    bool geomean_turned = false;
    std::vector<SuiteCounts> counts;  // per candidate (not when paired by benchmark)
    std::vector<std::string> notes;   // footnote texts, raw; note i is numbered i + 1
    std::string unit;                 // the rows' one unit, or "" when they differ
    // The rows' one direction (all rows, shown or not), unless mixed.
    analysis::Better direction = analysis::Better::unknown;
    bool mixed_directions = false;
};

SuiteTable build_suite_table(const CompareReport& r);

// The mark of a verdict (see above), given alpha = 1 - confidence.
char verdict_mark(const analysis::Verdict& v, double alpha);

// True when compare should print the suite table rather than a report per
// benchmark: asked for (--table), or tested as pairs, or 2+ primary
// benchmarks that measure one kind of thing (one named unit, as the
// geomean's default asks).
bool suite_shape(const CompareReport& r);

void render_suite_text(const CompareReport& r, FILE* out);
void render_suite_markdown(const CompareReport& r, FILE* out);
void render_suite_csv(const CompareReport& r, FILE* out);
// compare's JSON report gets "suite" (the table's rows, marks, counts and
// geomean, as the text shows them) and, when paired by benchmark,
// "paired" (docs/compare-format.md).
void add_suite_json(const CompareReport& r, nlohmann::json& doc);

// A verdict object of compare's JSON for the candidate labelled `label`,
// given what its images say, when the report has image checks
// (docs/compare-format.md): "images" ("equal", "differ", "not_judged"),
// "image_check" (the figures), and "timing_outcome" where differing images
// overruled an improvement (`overruled`). Nothing without image checks.
void add_image_check_json(const CompareReport& r, const std::string& label, bool overruled, nlohmann::json& verdict);

}  // namespace gfxstat::cli
