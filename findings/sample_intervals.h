// SPDX-License-Identifier: MIT
// The intervals the renderers draw and tabulate for each sample of
// compare's report, computed once here so that report/ and plot/ compute
// no statistic: the mean with its t interval (the suite table's centre and
// spread), the median's distribution-free interval, and each boot's mean
// with its t interval (the pictures), all at the report's confidence and
// over the values as analysed (after --drop-outliers).
#pragma once

#include "findings/compare_findings.h"

namespace gfxstat::findings {

// Fills every sample's `intervals` (ReportSample::intervals) of every
// metric of `report`, at report.confidence. Run once the samples are final
// (after the analysis, which drops outliers).
void describe_samples(cli::CompareReport& report);

}  // namespace gfxstat::findings
