// SPDX-License-Identifier: MIT
// What `gfxstat compare` found, ready to render: per metric, the baseline
// and candidate samples, every statistic of each comparison, and its
// verdict. Rendered as text (ministat-style, for mail), markdown (for a
// merge-request comment) or JSON (docs/compare-format.md).
#pragma once

#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analysis/comparison.h"
#include "analysis/geomean.h"
#include "analysis/location_interval.h"
#include "analysis/paired_suite.h"
#include "analysis/verdict.h"
#include "data/blocked_pairs.h"
#include "data/results_model.h"
#include "data/results_select.h"
#include "data/sample.h"
#include "findings/advice_vocabulary.h"
#include "findings/image_checks.h"
#include "findings/recorded_context.h"
#include "findings/throttle_note.h"
#include "findings/volatile_context.h"

namespace gfxstat::cli {

// A sample's intervals, at the report's confidence over the values as
// analysed (findings/sample_intervals.h), for the renderers to show.
struct SampleIntervals {
    double mean = std::numeric_limits<double>::quiet_NaN();
    // The t interval's half-width over |mean|: NaN with one value or a mean of 0.
    double mean_spread = std::numeric_limits<double>::quiet_NaN();
    analysis::LocationInterval median;  // distribution-free
    // One per boot of the layout, in its order: n 0 for a boot left without
    // a value analysed; empty when the boots are not known value by value.
    struct BootMean {
        size_t n = 0;
        analysis::LocationInterval mean;  // t interval, its part below 0 cut for positive values
    };
    std::vector<BootMean> boot_means;
};

struct ReportSample {
    std::string label;
    data::Sample sample;
    data::SelectionCounts counts;  // results files: runs left out
    bool from_results = false;
    data::BootLayout layout;       // results files with boot ids
    // --drop-outliers: what was left out (position in run order, value).
    std::vector<std::pair<size_t, double>> dropped;
    bool drop_refused = false;  // --drop-outliers dropped nothing: the MAD is 0
    // The values in run order, as analysed (after --drop-outliers), kept
    // only when CompareReport::keep_run_order: the analysis sorts `sample`
    // in place, and a report that lists raw values with their boots
    // (--kcidb) needs them as they ran.
    std::vector<double> run_order;
    // What the runs recorded about the machine as they went (load average,
    // temperatures, clocks), for the drift sentences; empty for column files.
    RecordedSeries recorded;
    SampleIntervals intervals;  // filled once the analysis is done
};

// A candidate compared with its baseline within one blocked design (a
// `gfxstat ab` results file): the design record and the block pairs.
struct DesignUse {
    data::DesignRecord design;
    data::BlockedPairs pairs;
};

struct MetricReport {
    std::string metric;  // "" for column files
    std::string unit;
    analysis::Better better = analysis::Better::unknown;
    ReportSample baseline;
    std::vector<ReportSample> candidates;
    // Primary metrics form the multiplicity family and decide --gate;
    // secondary ones are reported with unadjusted p-values and never gate.
    bool primary = true;
    std::string secondary_why;  // for a secondary metric: why
    bool exact = false;         // deterministic: compared exactly
    std::optional<bool> declared_primary;  // the metric's declaration
    std::vector<analysis::TwoSampleComparison> comparisons;  // one per candidate
    std::vector<analysis::Verdict> verdicts;                 // one per candidate
    // Per candidate: whether its p was adjusted with the family's others.
    std::vector<bool> adjusted;
    // Per candidate (empty when none has one): the blocked design its runs
    // and the baseline's come from.
    std::vector<std::optional<DesignUse>> designs;
    bool design_role = false;  // primary/secondary was set by a sequential design
    // Per candidate (empty when no candidate's images differ): true when
    // its images differ from the baseline's and its timing alone said
    // improvement. Its verdict's outcome is then `changed` (a candidate
    // that renders differently is never an improvement), its reason says
    // so, and the reports read "renders differently" (findings/compare_images.h).
    std::vector<bool> image_overruled;
    bool overruled(size_t k) const { return k < image_overruled.size() && image_overruled[k]; }
    const DesignUse* design(size_t k) const { return k < designs.size() && designs[k] ? &*designs[k] : nullptr; }
};

// The geometric mean of the oriented ratios of means of one candidate over
// a set of metrics (analysis/geomean.h); only defined ones are kept.
struct GeomeanReport {
    std::string candidate;
    std::vector<std::string> metrics;
    analysis::Geomean geomean;
};

// A suite whose benchmarks gave one value a side (per-test averages pasted
// in a mail, one figure per IGT subtest): no benchmark can be tested on
// its own, so the benchmarks are the pairs (findings/compare_suite.h). One per
// candidate, over the benchmarks measured for both it and the baseline.
struct PairedSuiteReport {
    std::string candidate;
    std::vector<std::string> benchmarks;  // metric titles, in the order of the pairs
    std::vector<double> baseline_values, candidate_values;  // each benchmark's mean
    std::vector<analysis::Better> directions;               // each benchmark's
    analysis::PairedSuite suite;
    analysis::Verdict verdict;
    // The candidate's images differ and the suite's verdict by timing alone
    // was improvement: it is `changed` now (as MetricReport::image_overruled).
    bool image_overruled = false;
};

// How the rows of a suite table are laid out (report/suite_table.h).
struct SuiteLayout {
    std::string sort = "input";  // input, change, name or p
    bool only_changed = false;   // rows whose verdict is a change (or, paired: whose ratio is beyond the threshold)
    bool table = false;          // --table: a suite table whatever the shape
};

struct CompareReport {
    double confidence = 0.95;
    double threshold = 0.01;
    std::string adjustment = "holm";  // or "benjamini-hochberg"
    int resamples = 9999;
    uint64_t seed = 12345;
    int width = 72;  // --width: text lines at most this wide
    bool drop_outliers = false;
    bool keep_run_order = false;  // fill each ReportSample's run_order before analysing
    std::vector<MetricReport> metrics;
    size_t family_size = 0;  // comparisons whose p-values were adjusted together
    std::vector<GeomeanReport> geomeans;
    // Why there is no geomean, or what it leaves out ("" when nothing to say).
    std::vector<std::string> geomean_notes;
    // Runs the GPU clock sampler saw throttled, when any compared run was.
    std::optional<ThrottleReport> throttle;
    // How the diagnostics' advice names the knobs (campaign analyze: the plan's).
    AdviceVocabulary advice;
    // The suite was tested as pairs, one per benchmark (every benchmark gave
    // one value a side): `paired` holds the analysis and `metrics` the
    // benchmarks, without comparisons of their own.
    bool paired_by_benchmark = false;
    std::vector<PairedSuiteReport> paired;
    SuiteLayout suite;
    // The data a filter or a projection left out, and keys it pooled
    // (data/projection.h), for a note.
    std::vector<std::string> selection_notes;
    // Candidates that ran under systematically other load, heat or clocks
    // than the baseline (findings/volatile_context.h): a finding beside
    // the verdicts.
    std::vector<findings::VolatileShift> context_shifts;
    // The frame checksums of the variants compared (findings/image_checks.h),
    // when some compared variant of a results file has checking runs:
    // comparisons[k] is candidate k of the first metric (candidates share
    // their order across metrics). Absent without any image_check record.
    std::optional<findings::ImageChecks> images;
    // --allow-image-change: a candidate whose images differ does not fail
    // --gate for it (findings/compare_gate.h).
    bool allow_image_change = false;
    // The image comparison of the candidate labelled `label`; null when none.
    const findings::ImageComparison* image_comparison(const std::string& label) const;
};

// "Holm-adjusted p", "BH-adjusted p", "p" (a family of one) or
// "unadjusted p" (a secondary metric), for candidate k of m; "anytime-valid
// p" for a sequential design's confidence sequence.
std::string p_label(const CompareReport& r, const MetricReport& m, size_t k);

// The metric's name as shown ("value" for column files), shared by the
// renderers.
std::string metric_title(const MetricReport& m);

}  // namespace gfxstat::cli
