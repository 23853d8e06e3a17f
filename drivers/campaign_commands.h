// SPDX-License-Identifier: MIT
// The plan's own commands, run by resume: before_reboot, the reboot
// command and expect.command, each with its output kept in DIR/hooks; the
// check that a boot runs a slot's variants; a variant's setup as the shell
// line run_loop runs before each run.
#pragma once

#include <string>

#include "drivers/campaign_plan.h"
#include "drivers/campaign_runner.h"

namespace gfxstat::drivers {

// A plan's command, its output kept in `log`; "" when it succeeded, else
// why (the command, how it ended, the last line it printed, the log).
std::string run_plan_command(const PlanCommand& c, const std::string& log, double timeout_s);

// A setup command as a --prepare line (run_loop runs hooks with sh -c).
std::string shell_line(const PlanCommand& c);

// `uname -r`; "" when unknown.
std::string kernel_release();

// Whether this boot runs the slot's variant(s): "" yes, else why not.
// expect.command's output goes to DIR/hooks/expect-TAG-V.log.
std::string check_expect(const CampaignPlan& plan, const CampaignSlot& slot, const CampaignFiles& files,
                         const std::string& tag);

}  // namespace gfxstat::drivers
