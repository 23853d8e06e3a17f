// SPDX-License-Identifier: MIT
// gfxstat bisect step's lines: the progress after each run, and the step's
// call as git bisect run's log keeps it.
#include <cstdio>

#include "drivers/git_revisions.h"
#include "report/bisect_report.h"
#include "report/bisect_words.h"
#include "text/text_escape.h"

namespace gfxstat::report {

std::string bisect_run_line(const drivers::BisectRunProgress& pr) {
    const analysis::BisectLook& l = pr.look;
    std::string line = "run " + std::to_string(l.runs) + ": " + signed_percent(l.estimate) + " against good" +
                       bisect_look_interval(l);
    char ev[64];
    std::snprintf(ev, sizeof ev, ", evidence %+.2f of +-%.2f", l.evidence, pr.evidence_needed);
    return line + ev;
}

std::string bisect_step_line(const drivers::BisectStepReport& result) {
    const data::BisectStepRecord& s = result.step;
    std::string line = "step " + std::to_string(result.step_number) + ": " + drivers::short_commit_id(s.commit);
    if (!s.subject.empty()) line += " \"" + text::escape_text(s.subject) + "\"";
    line += ": " + s.call;
    if (!s.values.empty()) {
        const analysis::BisectLook& l = result.look;
        line += ", " + signed_percent(l.estimate) + " against good" + bisect_look_interval(l);
        line += " after " + std::to_string(s.values.size()) + " run" + (s.values.size() == 1 ? "" : "s");
    }
    if (s.call == "skip") line += " (" + text::escape_message(s.reason) + ")";
    return line;
}

}  // namespace gfxstat::report
