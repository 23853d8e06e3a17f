// SPDX-License-Identifier: MIT
#include "report/campaign_resume.h"

#include "text/plural.h"
#include "text/text_escape.h"

namespace gfxstat::report {

void print_resume_outcome(const std::string& prog, const drivers::ResumeReport& r, const std::string& dir,
                          bool simulated, FILE* out) {
    const char* p = prog.c_str();
    if (r.runs) std::fprintf(out, "%s: %s recorded by this resume\n", p, text::plural(r.runs, "run").c_str());
    std::fprintf(out, "%s: %s\n", p, text::escape_message(r.message).c_str());
    if (simulated && r.outcome == drivers::ResumeOutcome::complete)
        std::fprintf(out, "%s: the boots were simulated: `gfxstat campaign analyze %s` shows the analysis this "
                          "plan gives, but not how boots really differ; run the real campaign from a directory "
                          "of its own\n", p, text::escape_text(dir).c_str());
}

}  // namespace gfxstat::report
