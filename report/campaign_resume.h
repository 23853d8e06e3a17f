// SPDX-License-Identifier: MIT
// What `gfxstat campaign resume` says when this boot's share is done: the
// runs it recorded, where the campaign stands (drivers/campaign_runner.h's
// message), and after a simulated campaign that its boots were not real.
#pragma once

#include <cstdio>
#include <string>

#include "drivers/campaign_runner.h"

namespace gfxstat::report {

// `dir` as the user gave it: escaped here; `simulated`: --simulate-reboots.
void print_resume_outcome(const std::string& prog, const drivers::ResumeReport& r, const std::string& dir,
                          bool simulated, FILE* out);

}  // namespace gfxstat::report
