// SPDX-License-Identifier: MIT
// What `gfxstat bisect` prints: check's verdict on the references (text or
// JSON), a step's progress and result lines, and report's table of steps
// with the first bad commit (text, markdown or JSON). Renderers only: the
// numbers come from drivers/bisect_references.h, drivers/bisect_step.h and
// findings/bisect_findings.h.
#pragma once

#include <string>

#include "analysis/bisect_classify.h"
#include "drivers/bisect_references.h"
#include "drivers/bisect_step.h"
#include "findings/bisect_findings.h"

namespace gfxstat::report {

// gfxstat bisect check: whether there is something to bisect, and how
// many runs a step should take.
std::string bisect_check_text(const drivers::PreparedBisection& p, const analysis::BisectReferences& r);
std::string bisect_check_json(const drivers::PreparedBisection& p, const analysis::BisectReferences& r);

// gfxstat bisect step: the line rewritten in place on a terminal after
// each run ("run 4: +3.2% against good [...], evidence +1.20 of +-2.94").
std::string bisect_run_line(const drivers::BisectRunProgress& pr);
// The step's result for git bisect run's log: "step 3: 1a2b3c4d5e6f "subject": bad, ...".
std::string bisect_step_line(const drivers::BisectStepReport& result);

// gfxstat bisect report.
std::string bisect_report_text(const findings::BisectFindings& f, bool markdown);
std::string bisect_report_json(const findings::BisectFindings& f);

}  // namespace gfxstat::report
