// SPDX-License-Identifier: MIT
// The design part of `gfxstat campaign analyze` (findings/campaign_design.h),
// printed before compare's report. Plain text for a terminal or mail;
// markdown (a heading, lists and a table) with --format markdown, so that
// the whole output pastes into a merge-request comment.
#pragma once

#include <cstdio>

#include "findings/campaign_design.h"

namespace gfxstat::report {

// Labels and the name come from the campaign's files: escaped here.
void print_campaign_design(const findings::CampaignDesignFacts& facts, bool markdown, FILE* out);

}  // namespace gfxstat::report
