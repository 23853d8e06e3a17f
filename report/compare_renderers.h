// SPDX-License-Identifier: MIT
// compare's renderers of its model (findings/compare_findings.h): the
// ministat-style text for mail, markdown for a merge request, the JSON of
// docs/compare-format.md, and --brief's one line per comparison; with the
// words for the design a comparison saw, which several of them print.
#pragma once

#include <cstdio>
#include <string>

#include "findings/compare_findings.h"

namespace gfxstat::cli {

// The design comparison k of m saw, in words: "blocked, 14 blocks (gfxstat
// ab, random order, sequential: t-mixture confidence sequence at 95%)",
// "interleaved in 6 shared boots (paired by boot)", or "two independent
// samples", "1 new boot against 12 stored boots, none shared (...)";
// and its kind: "blocked", "interleaved", "stored_boots", "independent".
std::string design_words(const MetricReport& m, size_t k);
const char* design_kind(const MetricReport& m, size_t k);

// The whole report (--full): every test, effect size and diagnostic.
void render_text(const CompareReport& report, FILE* out);
// The default text: header, the primary metric's histogram, a table per
// group of metrics, a sentence per diagnostic (report/compare_short.cpp).
void render_short_text(const CompareReport& report, FILE* out);
void render_markdown(const CompareReport& report, FILE* out);
void render_json(const CompareReport& report, FILE* out);
// --brief: one line per metric and candidate (report/compare_brief.cpp).
void render_brief_text(const CompareReport& report, FILE* out);
void render_brief_markdown(const CompareReport& report, FILE* out);

}  // namespace gfxstat::cli
