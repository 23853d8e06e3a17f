// SPDX-License-Identifier: MIT
// compare's diagnostics for the short report: each kind of finding said
// once, in one sentence that names the samples and metrics it fired on,
// where the whole report (--full) gives a paragraph per metric and side.
// A four-scene glmark2 file whose candidate warmed up on eight metrics
// gets one line about the warm-up, not eight paragraphs.
#pragma once

#include <string>
#include <vector>

#include "findings/compare_findings.h"

namespace gfxstat::cli {

// The sentences, most consequential first: what makes a verdict
// over-confident or unreachable (a threshold the noise puts out of reach,
// boots confounded with variants), then what the verdict is made of
// (boots, machines), then each sample's own findings (warm-up, drift,
// level change, two modes, outliers, clustering by boot). Raw text: the
// renderer escapes it.
std::vector<std::string> diagnostic_digest(const CompareReport& r);

}  // namespace gfxstat::cli
