// SPDX-License-Identifier: MIT
#include "report/campaign_init.h"

#include "text/plural.h"
#include "text/text_escape.h"

namespace gfxstat::report {

using text::escape_text;
using text::plural;

void print_campaign_laid_out(const drivers::CampaignPlan& plan, const std::string& dir, const std::string& plan_path,
                             FILE* out) {
    const std::string shown_dir = escape_text(dir);
    // One command per line, to copy; short enough for a 72-column reply.
    std::fprintf(out, "campaign %s: %s, %s (%zu per variant),\n  %s (%zu measured), %s\n", shown_dir.c_str(),
                 plural(plan.variants.size(), "variant").c_str(), plural(plan.slots.size(), "boot slot").c_str(),
                 plan.boots_per_variant, plural(plan.steps.size(), "run").c_str(), plan.measured_steps(),
                 plural(plan.planned_reboots(), "reboot").c_str());
    std::fprintf(out, "next: resume at every boot, start, then follow it:\n"
                      "  gfxstat campaign install-service %s --enable\n"
                      "  gfxstat campaign resume %s\n"
                      "  gfxstat campaign status %s\n"
                      "try it first, without rebooting, in a directory of its own:\n"
                      "  gfxstat campaign init %s -d TRY_DIR\n"
                      "  gfxstat campaign resume TRY_DIR --simulate-reboots\n",
                 shown_dir.c_str(), shown_dir.c_str(), shown_dir.c_str(), escape_text(plan_path).c_str());
}

}  // namespace gfxstat::report
