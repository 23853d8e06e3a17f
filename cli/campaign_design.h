// SPDX-License-Identifier: MIT
// The design part of `gfxstat campaign analyze`, printed before compare's
// report: how many runs are done, how the variants met the boots, what
// went wrong, whether the analysis is interim, and whether the boots were
// simulated. Plain text for a terminal or mail; markdown (a heading, lists
// and a table) with --format markdown, so that the whole output pastes
// into a merge-request comment.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace gfxstat::cli {

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

// Labels and the name come from the campaign's files: escaped here.
void print_campaign_design(const CampaignDesignFacts& facts, bool markdown, FILE* out);

}  // namespace gfxstat::cli
