// SPDX-License-Identifier: MIT
// The words every `gfxstat bisect` renderer shares: changes against the
// good build as percents with their intervals, and the references and
// error budget in the lines check, step and report print alike.
#pragma once

#include <string>
#include <vector>

#include "analysis/bisect_classify.h"
#include "data/bisect_log.h"
#include "report/signed_percent.h"

namespace gfxstat::report {

// "[-0.5%, +7.1%]"
std::string bisect_interval(double lo, double hi);
// " [-0.5%, +7.1%]": a look's interval, "" where it is unbounded.
std::string bisect_look_interval(const analysis::BisectLook& l);

// The metric, both references and the error budget, one line each; the
// first line has no indent (check and report put their own head before it).
std::vector<std::string> bisect_reference_lines(const data::BisectPlanRecord& plan,
                                                const analysis::BisectReferences& r);

}  // namespace gfxstat::report
