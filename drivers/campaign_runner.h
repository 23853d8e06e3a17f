// SPDX-License-Identifier: MIT
// gfxstat campaign's state machine (docs/campaign.md). `init` lays out the
// campaign directory; `resume` is what runs at every boot: it finds from
// the journal and the results where the campaign stands, checks that the
// boot is the one the next slot needs (a new boot, with the variant's
// kernel really running), runs what this boot owes one step at a time —
// each announced in the journal before it starts, and done only once its
// record is durable in the results — and then reboots into the next slot
// or finishes. Any crash, power cut or kill -9 leaves a state the next
// resume continues from: an interrupted run is run again (a capped number
// of times), a recorded run never is.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "drivers/campaign_plan.h"
#include "drivers/campaign_state.h"
#include "drivers/run_parsers.h"

namespace gfxstat::drivers {

struct CampaignFiles {
    std::string dir, plan, journal, results, lock, hooks;
};
CampaignFiles campaign_files(const std::string& dir);

// Creates DIR (which must not exist, or be empty) with plan.json, an empty
// results file and the journal's init event. Throws data::InputError.
void init_campaign(const std::string& dir, const CampaignPlan& plan);

// Reads DIR/plan.json. Throws data::InputError.
CampaignPlan load_campaign_plan(const std::string& dir);

// The journal and the results folded (read-only, no lock).
CampaignState read_campaign_state(const std::string& dir, const CampaignPlan& plan);

enum class ResumeOutcome {
    rebooting,    // the reboot command returned: the machine is going down; exit 0
    complete,     // every step is done; exit 0
    stopped,      // `campaign stop` asked for it; exit 0
    halted,       // needs attention (message); exit 1
    interrupted,  // SIGTERM/SIGINT during a run (it is re-run next time); exit 130
    busy,         // another resume holds the lock; exit 1
};

struct ResumeReport {
    ResumeOutcome outcome = ResumeOutcome::complete;
    std::string message;
    size_t runs = 0;  // runs recorded by this resume
};

struct ResumeOptions {
    bool continue_after_halt = false;   // --continue: clear a halt or a stop first
    std::vector<std::string> command;   // the workload (drivers/workload_setup)
    const OutputParser* parser = nullptr;
    std::map<std::string, std::string> tags;  // the workload's
    std::optional<data::WorkloadRecord> workload;  // recorded with each run (RunPlan::workload)
    std::function<void(const std::string&)> say;  // one line of progress
    // --simulate-reboots: where the campaign would reboot, it goes on in a
    // simulated boot instead (drivers/campaign_simulation.h); neither
    // before_reboot nor the reboot command runs.
    bool simulate_reboots = false;
};

ResumeReport resume_campaign(const std::string& dir, const CampaignPlan& plan, const ResumeOptions& options);

// For SIGINT/SIGTERM handlers: stops the running step (it is not recorded,
// and runs again at the next resume). Async-signal-safe.
void interrupt_campaign(int signal);

// The pid of the resume holding DIR's lock, or 0 when none does.
long running_resume_pid(const std::string& dir);

// The state machine's view for `status`: "not started", "running",
// "waiting for the reboot into slot N", "halted", "stopped", "complete".
std::string campaign_phase(const CampaignPlan& plan, const CampaignState& state, bool resume_running);

}  // namespace gfxstat::drivers
