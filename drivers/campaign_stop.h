// SPDX-License-Identifier: MIT
// `gfxstat campaign stop`: a stop recorded in the campaign's journal (the
// running resume stops after its current run; later resumes do nothing
// until `resume --continue`), and with --now the running resume
// interrupted (its run runs again after --continue).
#pragma once

#include <string>

namespace gfxstat::drivers {

struct CampaignStopped {
    long pid = 0;           // the running resume, 0 when there is none
    int signal_errno = 0;   // with interrupt: why it could not be signalled, 0 when it was
};

// Throws InputError when `dir` is no campaign, and what the journal's
// writer throws when the stop cannot be recorded.
CampaignStopped stop_campaign(const std::string& dir, bool interrupt);

}  // namespace gfxstat::drivers
