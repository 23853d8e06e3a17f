// SPDX-License-Identifier: MIT
// gfxstat tune show: the pre-measure check as a table (what, state,
// advice) with a count of what may add noise, or as JSON for machines.
#pragma once

#include <string>
#include <vector>

#include "drivers/machine_check.h"

namespace gfxstat::report {

std::string tune_show_text(const std::vector<drivers::MachineFinding>& findings);
std::string tune_show_json(const std::vector<drivers::MachineFinding>& findings);

}  // namespace gfxstat::report
