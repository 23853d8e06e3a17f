// SPDX-License-Identifier: MIT
// Diagnostics in words and in JSON, shared by compare, summary and show:
// one sentence per finding that a reviewer understands, with what to do
// about it, and the numbers behind it for machines
// (docs/diagnostics.md).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "analysis/comparison.h"
#include "analysis/diagnostics.h"
#include "findings/advice_vocabulary.h"

namespace gfxstat::cli {

struct RecordedSeries;  // findings/recorded_context.h

// Sentences about one sample, naming it `who` ("baseline 'before'",
// "sample 'x.txt'"); `unit` may be empty. Nothing when nothing fired.
// Outliers are listed when any are reported (OutlierReport::reported), at
// most `max_listed`. `dropped`: what --drop-outliers left out before the
// diagnostics ran, as (position in the original run order, value), in
// increasing position; the sentences then number values by their place in
// the original run, and say that the outliers were dropped, not kept.
// `words`: how the advice names the knobs (a campaign's plan members).
// `recorded`: what the sample's runs recorded about the machine, in run
// order (findings/recorded_context.h): a drift or a change of level over
// the values is then explained by what moved with it; when it holds
// nothing (imported runs), the sentence says nothing was recorded to tell.
// Without it (column files) the sentence names what to look for.
std::vector<std::string> sample_findings(const std::string& who, const analysis::SampleDiagnostics& d,
                                         const std::string& unit, double confidence, size_t max_listed = 5,
                                         const std::vector<std::pair<size_t, double>>* dropped = nullptr,
                                         const AdviceVocabulary& words = AdviceVocabulary{},
                                         const RecordedSeries* recorded = nullptr);

// The place (0-based) in the original run order of value `index` of the
// sample left after dropping `dropped` (original positions, increasing).
size_t original_position(size_t index, const std::vector<std::pair<size_t, double>>* dropped);

// Sentences about a pair: bimodality with the other sample's mode weights,
// boot clustering and confounding (besides each sample's own findings).
std::vector<std::string> comparison_findings(const std::string& baseline, const std::string& candidate,
                                             const analysis::TwoSampleComparison& c, const std::string& unit,
                                             double confidence, const AdviceVocabulary& words = AdviceVocabulary{});

// The "diagnostics" object of one sample, and the "clustering" object of a
// comparison. Outliers are listed up to `max_listed`.
// `dropped` (--drop-outliers): positions are given in the original run
// order, as the sentences give them.
nlohmann::json diagnostics_json(const analysis::SampleDiagnostics& d, size_t max_listed = 100,
                                const std::vector<std::pair<size_t, double>>* dropped = nullptr);
nlohmann::json clustering_json(const analysis::TwoSampleComparison& c);

// The tests of the boot (or machine) means in those objects. The t test:
// "test" ("paired" or "welch"), "t", "df", "difference", "defined", and
// "p" and "ci" (null when undefined: the means all equal, no p, no
// interval). The equivalence test `e` beside `t`: "margin", "equivalent",
// and "p" and "ci" (null when `t` is undefined).
nlohmann::json means_test_json(const analysis::TTest& t, bool paired);
nlohmann::json means_equivalence_json(const analysis::Equivalence& e, const analysis::TTest& t);

// `text` broken at spaces into lines of at most `width` columns, the first
// indented by `first_indent`, the rest by `indent`.
std::vector<std::string> wrap_words(const std::string& text, size_t width, size_t first_indent, size_t indent);

// How a report names a sample: "baseline 'before'", or "baseline" when
// the label is the role itself.
std::string role_name(const std::string& role, const std::string& label);

// printf into a string (the reports' sentences and fields), however long.
std::string fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));

// "1.5 us", "12.25" (6 significant digits; the unit when there is one).
std::string with_unit(double v, const std::string& unit);

}  // namespace gfxstat::cli
