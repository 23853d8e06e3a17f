// SPDX-License-Identifier: MIT
// The design part of `gfxstat campaign analyze`, printed before compare's
// report (report/campaign_design.h): how many runs are done, how the
// variants met the boots, what went wrong, whether the analysis is
// interim, and whether the boots were simulated.
#pragma once

#include <string>
#include <vector>

#include "drivers/campaign_status.h"

namespace gfxstat::findings {

struct CampaignDesignFacts {
    std::string name;
    size_t runs_done = 0, runs_total = 0;
    size_t boots_per_variant = 0, runs_per_boot = 0, warmup_runs = 0;
    bool reboot_variants = false;  // variants in separate boots, else interleaved
    struct Variant {
        std::string label;
        size_t boots = 0;  // distinct boots with a measured ok run
    };
    std::vector<Variant> variants;
    size_t deploy_failed = 0, unexpected_reboots = 0, interrupted_runs = 0, failed_runs = 0;
    bool complete = false;
    std::string simulated_note;  // drivers::simulated_boots_note; "" for real boots
};

// The facts of the campaign as it stands.
CampaignDesignFacts campaign_design_facts(const drivers::CampaignStatus& status);

}  // namespace gfxstat::findings
