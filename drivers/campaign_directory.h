// SPDX-License-Identifier: MIT
// The campaign directory: its files, the check that no other user can
// plant a link in it, and `init`, which lays it out so that a crash leaves
// either a whole campaign or leftovers the next init clears.
// (campaign_files and init_campaign are declared in campaign_runner.h.)
#pragma once

#include <string>

#include "drivers/campaign_runner.h"

namespace gfxstat::drivers {

// fsync of a directory, so that the names made in it are durable.
void fsync_directory(const std::string& dir);

// A campaign runs as root and creates files in DIR and DIR/hooks by name:
// refuses (data::InputError) a DIR or hooks/ that another user owns or
// that group or others can write to, and a hooks/ that is a link.
void check_campaign_directory(const std::string& dir);

}  // namespace gfxstat::drivers
