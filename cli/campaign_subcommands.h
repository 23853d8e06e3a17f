// SPDX-License-Identifier: MIT
// The subcommands of `gfxstat campaign` (cli/campaign_command.cpp
// dispatches): each takes its own argv, its argv[0] the subcommand's name,
// and returns the exit status.
#pragma once

namespace gfxstat::cli {

inline constexpr const char* kCampaignProg = "gfxstat campaign";

int campaign_init_main(int argc, char** argv);
int campaign_resume_main(int argc, char** argv);
int campaign_status_main(int argc, char** argv);
int campaign_stop_main(int argc, char** argv);
int campaign_install_service_main(int argc, char** argv);

}  // namespace gfxstat::cli
