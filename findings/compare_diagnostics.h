// SPDX-License-Identifier: MIT
// compare's per-sample diagnostics, handed to a show overview
// (findings/show_overview.h) so that gfxstat report, which shows both,
// diagnoses each sample once.
#pragma once

#include "findings/compare.h"
#include "findings/show_overview.h"

namespace gfxstat::findings {

// The diagnostics compare made of a sample that show would diagnose alike:
// the same metric, unit and variant, the same values in the same run order
// (so nothing filtered or dropped: `found` kept its run order) and the same
// boots, diagnosed at show's confidence and threshold (the defaults). Any
// other sample is left to show (nullptr). The lookup reads `found`, which
// must outlive it.
KnownDiagnostics compare_diagnostics(const CompareFindings& found);

}  // namespace gfxstat::findings
