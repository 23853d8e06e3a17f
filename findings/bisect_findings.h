// SPDX-License-Identifier: MIT
// What `gfxstat bisect report` shows, computed once: the steps file read,
// the references' analysis, each step's look against them, and the first
// bad commit the steps show. The renderers (report/bisect_report.h) only
// word it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bisect_classify.h"
#include "data/bisect_log.h"
#include "drivers/bisect_step.h"

namespace gfxstat::findings {

struct BisectStepView {
    const data::BisectStepRecord* step;
    analysis::BisectLook look;
};

struct BisectFindings {
    data::BisectLog log;
    analysis::BisectReferences refs;
    std::vector<BisectStepView> views;  // one per step, pointing into log.steps
    std::optional<drivers::FirstBad> first;
    size_t tested = 0;                  // steps that made a call (not skipped)
    bool over_budget = false;           // more steps than the error budget was made for

    BisectFindings() = default;
    // views point into log: a copy would point into the original.
    BisectFindings(const BisectFindings&) = delete;
    BisectFindings& operator=(const BisectFindings&) = delete;

    // The subject a step recorded for `commit`, "" when none did.
    std::string subject_of(const std::string& commit) const;
};

// Throws data::InputError for a steps file that cannot be read or a step
// that cannot be looked at, and std::invalid_argument for references that
// cannot be analysed.
void read_bisect_findings(const std::string& path, BisectFindings& out);

}  // namespace gfxstat::findings
