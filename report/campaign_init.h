// SPDX-License-Identifier: MIT
// What `gfxstat campaign init` says once the campaign is laid out: the
// plan in numbers, then the commands to go on with, one a line to copy.
#pragma once

#include <cstdio>
#include <string>

#include "drivers/campaign_plan.h"

namespace gfxstat::report {

// `dir` and `plan_path` as the user gave them: escaped here.
void print_campaign_laid_out(const drivers::CampaignPlan& plan, const std::string& dir, const std::string& plan_path,
                             FILE* out);

}  // namespace gfxstat::report
