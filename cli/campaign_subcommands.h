// SPDX-License-Identifier: MIT
// The subcommands of `gfxstat campaign` (cli/campaign_command.cpp
// dispatches): each takes its own argv, its argv[0] the subcommand's name,
// and returns the exit status.
#pragma once

#include <optional>
#include <string>

#include "drivers/campaign_status.h"

namespace CLI {
class App;
}

namespace gfxstat::cli {

inline constexpr const char* kCampaignProg = "gfxstat campaign";

int campaign_init_main(int argc, char** argv);
int campaign_resume_main(int argc, char** argv);
int campaign_status_main(int argc, char** argv);
int campaign_stop_main(int argc, char** argv);
int campaign_install_service_main(int argc, char** argv);

// DIR, the campaign directory: the one positional of resume, status, stop
// and install-service, declared once.
void add_campaign_dir(CLI::App& app, std::string& dir);

// The status of the campaign in `dir` (drivers::campaign_status), for
// status and analyze; when it cannot be read, prints "gfxstat campaign
// SUBCOMMAND: why" and returns nothing (the subcommand then exits 2).
std::optional<drivers::CampaignStatus> read_campaign_status(const char* subcommand, const std::string& dir);

}  // namespace gfxstat::cli
