// SPDX-License-Identifier: MIT
// gfxstat tune show: the pre-measure check as a table (what, state,
// advice) with what it looked for and did not find and a count of what
// may add noise, or as JSON for machines.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "drivers/machine_check.h"

namespace gfxstat::report {

// Lines at most `width` columns: the three-column table when it fits,
// else an entry per finding (what and state on a line, the advice on the
// lines below it), each wrapped at the width; nothing is cut. Then
// "not found here: ..." when `missing` is not empty, and the count.
std::string tune_show_text(const std::vector<drivers::MachineFinding>& findings,
                           const std::vector<drivers::MissingSource>& missing, size_t width);
// The findings only, as they always were: what was not found is text's.
std::string tune_show_json(const std::vector<drivers::MachineFinding>& findings);

}  // namespace gfxstat::report
