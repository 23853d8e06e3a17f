// SPDX-License-Identifier: MIT
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
    // Attempts per step that count against max_run_attempts: intents,
    // less those stopped by the user's signal (stop --now, a shutdown).
    std::vector<size_t> attempts;
    std::vector<size_t> intents;                    // every intent per step
    std::vector<bool> done_logged;                  // a "done" event per step
    // Per step: given up after max_run_attempts interrupted attempts (the
    // journal's given_up): recorded as a failed run, never measured.
    std::vector<bool> given_up;
    std::vector<std::string> last_attempt_boot;     // per step
    std::vector<std::vector<std::string>> slot_boots;  // boots each slot ran in
    std::set<std::string> used_boots;  // bound to a slot, failed a deploy, or init's (reboot_first)
    std::vector<size_t> deploy_failures;            // per slot, since the last continue
    std::vector<size_t> reboots_into;               // per slot
    std::string init_boot, init_time;
    double init_t = 0;
    // Reboots issued, counted once per boot they were issued from (a reboot
    // issued again from the same boot, because the first was cut short, is
    // the same reboot); in all, and since the last continue (for max_reboots).
    size_t reboots = 0, reboots_since_continue = 0;
    bool halted = false, stopped = false, complete_logged = false;
    std::string halt_reason, stop_time;
    // Resumes since the last `continue` that found the campaign where it
    // is now (the same progress): a crash loop when they pile up.
    size_t resumes_at(uint64_t progress) const {
        size_t n = 0;
        for (uint64_t p : resume_progress) n += p == progress;
        return n;
    }
    std::vector<uint64_t> resume_progress;  // of each resume since the last continue
    size_t consecutive_failures = 0;   // runs ended not ok, in a row, since the last continue
    std::vector<CampaignAnomaly> anomalies;
    std::vector<double> reboot_seconds;  // from each reboot to the next resume in a new boot
    // Steps done (any outcome), and measured steps done whose run ended
    // ok: the runs whose values analyze counts. A measured step that failed
    // or was given up is done (it is not run again) but not measured.
    size_t done_count = 0, measured_done = 0;
    std::string waiting_boot;  // the boot a reboot was issued from, when no boot has followed
    // Simulated reboots (drivers/campaign_simulation.h): the journal's
    // `simulation` event was seen; the boot of the last event in the
    // simulated boot of the highest number; whether anything happened in a
    // real boot (a slot bound, a reboot, a run). A campaign is one or the
    // other, never both.
    bool simulated = false;
    std::string last_simulated_boot;
    bool real_activity = false;

    bool complete() const { return done_count == done.size(); }
    // Grows with every run done and every new boot seen: a resume that
    // finds it unchanged from earlier resumes is going round in circles.
    uint64_t progress() const { return done_count + used_boots.size(); }
    // The first slot with a step not done; nullopt when complete.
    std::optional<size_t> current_slot(const CampaignPlan& plan) const;
};

// A variant's measured (not warm-up) steps: planned, done with a value
// (ended ok), given up (interrupted max_run_attempts times), and done
// otherwise not ok (fail, timeout, crash, invalid, skip).
struct MeasuredTally {
    size_t total = 0, ok = 0, given_up = 0, failed = 0;
    MeasuredTally& operator+=(const MeasuredTally& o) {
        total += o.total, ok += o.ok, given_up += o.given_up, failed += o.failed;
        return *this;
    }
};
// One per variant of the plan, in its order.
std::vector<MeasuredTally> measured_by_variant(const CampaignPlan& plan, const CampaignState& s);

// The fold one record and one event at a time, in any order of the two
// streams (each stream in file order): resume keeps one and feeds it what
// it appends, so that a step costs the same at the end of a long campaign
// as at its start.
class CampaignFold {
public:
    explicit CampaignFold(const CampaignPlan& plan);
    void add_run(const data::RunRecord& run);
    void add_event(const JournalEvent& event);
    // Without the interrupted_run anomalies (add_interrupted_run_anomalies).
    const CampaignState& state() const { return s_; }

private:
    const CampaignPlan& plan_;
    CampaignState s_;
    double pending_reboot_t_ = 0;
    std::set<std::string> reboot_from_, reboot_from_since_continue_;
};

// Steps attempted more often than recorded: one anomaly each. A pass over
// every step, for status and analyze rather than for each step of resume.
void add_interrupted_run_anomalies(const CampaignPlan& plan, CampaignState& s);

// The whole fold, anomalies included.
CampaignState fold_campaign(const CampaignPlan& plan, const std::vector<JournalEvent>& journal,
                            const data::ResultsFile& results);

}  // namespace gfxstat::drivers
