// SPDX-License-Identifier: MIT
#include "drivers/campaign_unit.h"

#include "data/input_error.h"
#include "drivers/campaign_runner.h"
#include "drivers/campaign_service.h"
#include "text/text_escape.h"

namespace gfxstat::drivers {

CampaignUnit campaign_unit(const std::string& dir, const std::string& exe, const std::string& unit_dir,
                           const std::string& name) {
    const CampaignPlan plan = load_campaign_plan(dir);
    // Its resume at a real boot would be refused: boots do not mix.
    if (read_campaign_state(dir, plan).simulated)
        throw data::input_error(dir, 0, "this campaign's boots are simulated (resume --simulate-reboots), and a "
                                        "unit would resume it at real boots; lay the plan out again in a "
                                        "directory of its own for the real campaign");
    const UnitPaths paths = checked_unit_paths(dir, exe, unit_dir);
    const std::string& adir = paths.campaign_dir;
    CampaignUnit u;
    u.name = name;
    if (name.empty()) {
        const auto derived = default_campaign_unit_name(adir);
        if (!derived)
            throw data::InputError(text::escape_text(adir) +
                                   ": a unit named after this directory would be longer than systemd takes (255 "
                                   "bytes); give one with --name NAME.service");
        u.name = *derived;
    } else if (name.find('/') != std::string::npos || name.size() < 9 ||
               name.compare(name.size() - 8, 8, ".service") != 0) {
        throw data::InputError("--name wants NAME.service, not '" + text::escape_text(name) + "'");
    }
    u.text = campaign_unit_text(plan.name, adir, paths.exe);
    u.path = paths.unit_dir + "/" + u.name;
    if (const std::string why = unit_path_taken(u.path, adir); !why.empty()) throw data::InputError(why);
    u.warning = older_unit_warning(paths.unit_dir, plan.name, u.name, adir);
    return u;
}

}  // namespace gfxstat::drivers
