// SPDX-License-Identifier: MIT
#include "drivers/campaign_stop.h"

#include <cerrno>
#include <csignal>

#include "drivers/campaign_journal.h"
#include "drivers/campaign_runner.h"
#include "drivers/environment_probe.h"

namespace gfxstat::drivers {

CampaignStopped stop_campaign(const std::string& dir, bool interrupt) {
    load_campaign_plan(dir);
    {
        JournalWriter journal(campaign_files(dir).journal);
        JournalEvent e;
        e.type = "stop";
        e.boot = current_boot_id();
        journal.append(e);
    }
    CampaignStopped s;
    s.pid = running_resume_pid(dir);
    if (s.pid > 0 && interrupt && kill(static_cast<pid_t>(s.pid), SIGTERM) != 0) s.signal_errno = errno;
    return s;
}

}  // namespace gfxstat::drivers
