// SPDX-License-Identifier: MIT
// compare's image checks: the checking runs (data/image_check.h) of the
// variants compare selected, judged by findings/image_checks.h, and their
// verdict applied to the timings' verdicts. A candidate whose images
// differ from the baseline's is never an improvement: each of its verdicts
// that its timing alone would call an improvement becomes `changed`, its
// reason says that its images differ, and the reports read "renders
// differently" (docs/image-checks.md). Files without image_check records
// leave the report as it was.
#pragma once

#include <vector>

#include "data/results_model.h"
#include "findings/compare_findings.h"

namespace gfxstat::findings {

// The checking runs of each input file, in input order, read before the
// files are filtered or projected (which keep runs only).
std::vector<std::vector<data::ImageCheck>> input_image_checks(const std::vector<data::ResultsFile>& files);

// Fills report.images from `checks` (one list per input file) for the
// report's baseline and candidates: with several files, file i holds the
// i-th variant compared (the baseline first); with one file, the checks
// are grouped by their variant, named as compare labels it. Nothing when
// no selected variant has a checking run. Then overrules the improvements
// of candidates whose images differ (MetricReport::image_overruled).
void apply_image_checks(cli::CompareReport& report, const std::vector<std::vector<data::ImageCheck>>& checks);

// The overruling alone, for a report whose `images` is set: every
// verdict (and a paired suite's) of a candidate whose images differ that
// says improvement becomes `changed`, with the reason saying why.
void overrule_improvements(cli::CompareReport& report);

}  // namespace gfxstat::findings
