// SPDX-License-Identifier: MIT
// The words of the image checks (findings/image_checks.h): the verdict of
// a candidate's frames against its baseline's, and the notes beside it
// (unstable frames, frames only one side drew, checking runs left out),
// as compare, ab and report will say them (docs/image-checks.md).
//
// The *_words and *_notes functions return sentences that hold variant
// names unescaped: the caller escapes them for its target (escape_text,
// escape_markdown, XML) as it escapes diagnostic_words' sentences.
// image_check_lines is the terminal's form, escaped and wrapped.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "findings/compare_findings.h"
#include "findings/image_checks.h"

namespace gfxstat::report {

// The candidate's image verdict: "renders differently: 3 of 120 frames
// (first: 42)", "images equal: 120 frames", "not judged: main has 1
// checking run (needs 2)", "nondeterministic: no frame of main is stable
// over its 3 checking runs", ... Not escaped.
std::string image_verdict_words(const findings::ImageComparison& c);

// What one variant's checking runs say beside the verdict: "frames
// unstable in patched: 1 (first: 1)", "checking runs of patched that did
// not end ok: 2 (left out)". Nothing when there is nothing to say. Not
// escaped.
std::vector<std::string> image_variant_notes(const findings::VariantFrames& v);

// The frames of a comparison that were not compared because one side
// drew them and the other did not: "frames stable in main only: 2
// (first: 119), not compared". Not escaped.
std::vector<std::string> image_comparison_notes(const findings::ImageComparison& c);

// Everything above for a terminal, escaped, wrapped to `width` columns:
// per candidate "patched vs main: <verdict>", its notes below it indented
// by 2, continuation lines by 4; the baseline's notes once, first.
std::vector<std::string> image_check_lines(const findings::ImageChecks& checks, size_t width = 72);

// A metric's verdict for candidate k as a report's verdict column says
// it: "renders differently" where the candidate's differing images
// overruled an improvement (MetricReport::image_overruled), else
// analysis::outcome_words. Not escaped (it holds no name).
std::string verdict_outcome_words(const cli::MetricReport& m, size_t k);
// The same for a suite tested as pairs.
std::string verdict_outcome_words(const cli::PairedSuiteReport& p);

// The image checks of a comparison as compare's text prints them under
// its table (image_check_lines, after a blank line); nothing when no
// compared variant has checking runs.
void print_image_checks(const cli::CompareReport& r, FILE* out);

// The images member of a verdict in compare's JSON: "equal", "differ" or
// "not_judged".
const char* image_outcome_name(findings::ImageOutcome o);
// Why a comparison was not judged, as JSON names it: "too_few_runs",
// "no_frames", "nondeterministic", "mixed_methods", "methods_differ",
// "nothing_in_common"; "" when it was judged.
const char* not_judged_name(findings::NotJudged why);

}  // namespace gfxstat::report
