// SPDX-License-Identifier: MIT
// What `gfxstat campaign install-service` writes, every check made before
// a byte is: the campaign (its boots must be real), the paths the unit
// names (drivers/campaign_service.h: root's alone), the unit's name (given
// or made from the directory) and its path (never another campaign's).
#pragma once

#include <string>

namespace gfxstat::drivers {

struct CampaignUnit {
    std::string name;     // NAME.service
    std::string path;     // in the canonical unit directory
    std::string text;     // the unit
    std::string warning;  // an older unit of this campaign still there (older_unit_warning), or ""
};

// The unit for the campaign in `dir`, run by the gfxstat at `exe`, to go
// to `unit_dir`; `name` is --name ("": the default name). Throws
// InputError with the sentence that says what is wrong (names in it
// escaped for a terminal).
CampaignUnit campaign_unit(const std::string& dir, const std::string& exe, const std::string& unit_dir,
                           const std::string& name);

}  // namespace gfxstat::drivers
