// SPDX-License-Identifier: MIT
// compare's gate: the exit status a CI job reads, decided on the findings
// alone, so that every command that compares (compare, ab, campaign
// analyze) gates alike.
#pragma once

#include "findings/compare_findings.h"

namespace gfxstat::findings {

// 0 when the gate is off or nothing regressed; 1 a primary metric (or a
// suite tested as pairs) regressed beyond the threshold, or a candidate's
// images differ from the baseline's and report.allow_image_change is not
// set (--gate); 3 a
// primary comparison is inconclusive (--gate --strict), unless its design
// could not judge it (analysis::Verdict::not_judged: a sentence, never a
// failed gate). Secondary metrics are reported, never gate.
int gate_status(const cli::CompareReport& report, bool gate, bool strict);

}  // namespace gfxstat::findings
