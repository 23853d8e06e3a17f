// SPDX-License-Identifier: MIT
// Where a campaign stands for `gfxstat campaign status` and the design
// part of `campaign analyze`: its state folded from the files, who is
// running it, runs and boots per variant, and the ETA. Read here; the
// status is rendered by report/campaign_status.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "drivers/campaign_plan.h"
#include "drivers/campaign_simulation.h"
#include "drivers/campaign_state.h"

namespace gfxstat::drivers {

struct CampaignStatus {
    CampaignPlan plan;
    CampaignState state;
    long pid = 0;
    std::string phase;
    std::optional<double> eta_s, run_seconds, reboot_seconds;
    size_t reboots_left = 0;
    std::vector<std::vector<std::string>> variant_boots;  // distinct boots per variant with a done run
    std::vector<size_t> variant_done, variant_total;  // runs, warm-ups included
    // Measured steps per variant, and their sum: done with a value, given
    // up, failed. "Measured" counts only runs whose values analyze uses.
    std::vector<MeasuredTally> variant_measured;
    MeasuredTally measured;
    SimulatedBoots simulated;  // the runs' boot ids
};

// Reads the campaign in `dir` (plan, journal, results file). Throws
// InputError.
CampaignStatus campaign_status(const std::string& dir);

}  // namespace gfxstat::drivers
