// SPDX-License-Identifier: MIT
// `gfxstat campaign status`: where a campaign stands (drivers/
// campaign_status.h), as lines for a terminal or as JSON for machines
// (docs/campaign.md, "Status").
#pragma once

#include <cstdio>
#include <string>

#include "drivers/campaign_status.h"

namespace gfxstat::report {

// The plan's name and labels, halt reasons and anomalies' details come
// from the campaign's files: escaped here. `dir` as the user gave it.
void print_campaign_status(const drivers::CampaignStatus& status, const std::string& dir, FILE* out);

// The JSON document, indented, without a final newline.
std::string campaign_status_json(const drivers::CampaignStatus& status);

}  // namespace gfxstat::report
