// SPDX-License-Identifier: MIT
#pragma once
namespace gfxstat::cli {
// gfxstat campaign init|resume|status|stop|install-service|analyze:
// reboot-aware A/B campaigns (docs/campaign.md).
int campaign_main(int argc, char** argv);
}  // namespace gfxstat::cli
