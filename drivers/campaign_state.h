// Where a campaign stands, folded from its plan, its journal and its
// results file: which steps are done (a run with the step's number is in
// the results), how often each was attempted, which boots belong to which
// slot, what went wrong. Pure: `resume` decides from it, `status` prints it.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "data/results_model.h"
#include "drivers/campaign_journal.h"
#include "drivers/campaign_plan.h"

namespace gfxstat::drivers {

struct CampaignAnomaly {
    std::string kind;    // deploy_failed, unexpected_reboot, interrupted_run, given_up, failed_run,
                         // reboot_failed, halt, foreign_run
    std::string time;
    std::optional<uint64_t> slot, step;
    std::string boot;
    std::string detail;
};

struct CampaignState {
    std::vector<bool> done;                         // per step
    std::vector<std::optional<data::ExitClass>> outcome;  // per step, when done
    std::vector<size_t> attempts;                   // intents per step
    std::vector<std::string> last_attempt_boot;     // per step
    std::vector<std::vector<std::string>> slot_boots;  // boots each slot ran in
    std::set<std::string> used_boots;  // bound to a slot, failed a deploy, or init's (reboot_first)
    std::vector<size_t> deploy_failures;            // per slot
    std::vector<size_t> reboots_into;               // per slot
    std::string init_boot, init_time;
    double init_t = 0;
    size_t reboots = 0;
    bool halted = false, stopped = false, complete_logged = false;
    std::string halt_reason, stop_time;
    // Resumes since the last `continue` that found the campaign where it
    // is now (progress equal to progress()): a crash loop when they pile up.
    size_t resumes_here = 0;
    size_t consecutive_failures = 0;   // runs ended not ok, in a row, since the last continue
    std::vector<CampaignAnomaly> anomalies;
    std::vector<double> reboot_seconds;  // from each reboot to the next resume in a new boot
    size_t done_count = 0, measured_done = 0;
    std::string waiting_boot;  // the boot a reboot was issued from, when no boot has followed

    bool complete() const { return done_count == done.size(); }
    // Grows with every run done and every new boot seen: a resume that
    // finds it unchanged from earlier resumes is going round in circles.
    uint64_t progress() const { return done_count + used_boots.size(); }
    // The first slot with a step not done; nullopt when complete.
    std::optional<size_t> current_slot(const CampaignPlan& plan) const;
};

CampaignState fold_campaign(const CampaignPlan& plan, const std::vector<JournalEvent>& journal,
                            const data::ResultsFile& results);

}  // namespace gfxstat::drivers
