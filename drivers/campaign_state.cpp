// SPDX-License-Identifier: MIT
#include "drivers/campaign_state.h"

#include <algorithm>

#include "drivers/campaign_simulation.h"

namespace gfxstat::drivers {

std::optional<size_t> CampaignState::current_slot(const CampaignPlan& plan) const {
    for (const auto& slot : plan.slots)
        for (uint64_t k : slot.steps)
            if (!done[k]) return slot.index;
    return std::nullopt;
}

CampaignFold::CampaignFold(const CampaignPlan& plan) : plan_(plan) {
    const size_t n = plan.steps.size();
    s_.done.assign(n, false);
    s_.outcome.assign(n, std::nullopt);
    s_.attempts.assign(n, 0);
    s_.intents.assign(n, 0);
    s_.done_logged.assign(n, false);
    s_.given_up.assign(n, false);
    s_.last_attempt_boot.assign(n, "");
    s_.slot_boots.assign(plan.slots.size(), {});
    s_.deploy_failures.assign(plan.slots.size(), 0);
    s_.reboots_into.assign(plan.slots.size(), 0);
}

// Done is what the results file says: a record is durable before its
// "done" event is written, so a crash between the two loses nothing.
void CampaignFold::add_run(const data::RunRecord& r) {
    const CampaignPlan& plan = plan_;
    CampaignState& s = s_;
    const size_t n = plan.steps.size();
    if (!r.campaign_step) return;
    const uint64_t k = *r.campaign_step;
    if (!simulated_boot_number(r.boot)) s.real_activity = true;
    const bool fits = k < n && plan.variants[plan.steps[k].variant].label == r.variant &&
                      plan.steps[k].warmup == r.warmup;
    if (!fits || s.done[k]) {
        CampaignAnomaly a;
        a.kind = "foreign_run";
        a.step = k;
        a.boot = r.boot;
        a.detail = !fits ? "a run of '" + r.variant + "' with a step number the schedule does not have there"
                         : "a second run for the step (only the first counts)";
        s.anomalies.push_back(a);
        return;
    }
    s.done[k] = true;
    s.outcome[k] = r.exit_class;
    ++s.done_count;
    s.measured_done += !r.warmup && r.exit_class == data::ExitClass::ok;
}

void CampaignFold::add_event(const JournalEvent& e) {
    const CampaignPlan& plan = plan_;
    CampaignState& s = s_;
    const size_t n = plan.steps.size();
    const auto anomaly = [&](const std::string& kind, const std::string& detail) {
        CampaignAnomaly a;
        a.kind = kind;
        a.time = e.time;
        a.slot = e.slot;
        a.step = e.step;
        a.boot = e.boot;
        a.detail = detail;
        s.anomalies.push_back(a);
    };
    const bool slot_ok = e.slot && *e.slot < plan.slots.size();
    const bool step_ok = e.step && *e.step < n;
    if (const auto sim = simulated_boot_number(e.boot)) {
        const auto last = simulated_boot_number(s.last_simulated_boot);
        if (!last || *sim >= *last) s.last_simulated_boot = e.boot;
    } else if (e.type == "boot" || e.type == "reboot" || e.type == "deploy_failed" || e.type == "spent" ||
               e.type == "intent" || e.type == "unexpected_reboot" || e.type == "given_up") {
        s.real_activity = true;
    }
    if (e.type == "simulation") {
        // The simulation starts in simulated boot 0: when that is the boot
        // init ran in, it stands for it (spent with reboot_first, or the
        // first slot's candidate without).
        s.simulated = true;
        if (!s.init_boot.empty() && real_boot_of(e.boot) == s.init_boot) {
            if (s.used_boots.erase(s.init_boot)) s.used_boots.insert(e.boot);
            s.init_boot = e.boot;
        }
    } else if (e.type == "init") {
        s.init_boot = e.boot;
        s.init_time = e.time;
        s.init_t = e.t;
        if (plan.reboot_first && !e.boot.empty()) s.used_boots.insert(e.boot);
    } else if (e.type == "resume") {
        if (e.progress) s.resume_progress.push_back(*e.progress);
        if (pending_reboot_t_ > 0 && !s.waiting_boot.empty() && e.boot != s.waiting_boot) {
            s.reboot_seconds.push_back(e.t - pending_reboot_t_);
            pending_reboot_t_ = 0;
            s.waiting_boot.clear();
        }
    } else if (e.type == "boot" && slot_ok) {
        s.slot_boots[*e.slot].push_back(e.boot);
        s.used_boots.insert(e.boot);
    } else if (e.type == "unexpected_reboot") {
        anomaly(e.type, e.detail);
    } else if (e.type == "deploy_failed" && slot_ok) {
        ++s.deploy_failures[*e.slot];
        if (!e.boot.empty()) s.used_boots.insert(e.boot);
        anomaly(e.type, e.detail);
    } else if (e.type == "reboot") {
        reboot_from_.insert(e.boot);
        reboot_from_since_continue_.insert(e.boot);
        if (slot_ok) ++s.reboots_into[*e.slot];
        pending_reboot_t_ = e.t;
        s.waiting_boot = e.boot;
    } else if (e.type == "reboot_failed") {
        anomaly(e.type, e.detail);
        pending_reboot_t_ = 0;
        s.waiting_boot.clear();
    } else if (e.type == "spent" && !e.boot.empty()) {
        s.used_boots.insert(e.boot);
    } else if (e.type == "intent" && step_ok) {
        ++s.attempts[*e.step];
        ++s.intents[*e.step];
        s.last_attempt_boot[*e.step] = e.boot;
    } else if (e.type == "interrupted") {
        // Stopped by the user's signal (stop --now, a shutdown, Ctrl-C):
        // the step runs again without counting as a run that takes the
        // machine down, and the resume is not one of a crash loop.
        if (step_ok && s.attempts[*e.step]) --s.attempts[*e.step];
        if (!s.resume_progress.empty()) s.resume_progress.pop_back();
    } else if (e.type == "done") {
        if (step_ok) s.done_logged[*e.step] = true;
        if (e.exit_class == "ok") s.consecutive_failures = 0;
        else ++s.consecutive_failures;
        // A step given up is its own anomaly (given_up, just before its
        // "done"), not a failed run as well.
        if (e.exit_class != "ok" && step_ok && !plan.steps[*e.step].warmup && !s.given_up[*e.step])
            anomaly("failed_run", e.detail.empty() ? e.exit_class : e.exit_class + ": " + e.detail);
    } else if (e.type == "given_up") {
        if (step_ok) s.given_up[*e.step] = true;
        anomaly(e.type, e.detail);
    } else if (e.type == "halt") {
        s.halted = true;
        s.halt_reason = e.detail;
        anomaly(e.type, e.detail);
    } else if (e.type == "stop") {
        s.stopped = true;
        s.stop_time = e.time;
    } else if (e.type == "continue") {
        s.halted = s.stopped = false;
        s.halt_reason.clear();
        s.consecutive_failures = 0;
        s.resume_progress.clear();
        reboot_from_since_continue_.clear();
        std::fill(s.deploy_failures.begin(), s.deploy_failures.end(), 0);
    } else if (e.type == "complete") {
        s.complete_logged = true;
    }
    s.reboots = reboot_from_.size();
    s.reboots_since_continue = reboot_from_since_continue_.size();
}

std::vector<MeasuredTally> measured_by_variant(const CampaignPlan& plan, const CampaignState& s) {
    std::vector<MeasuredTally> by(plan.variants.size());
    for (size_t k = 0; k < plan.steps.size(); ++k) {
        const CampaignStep& step = plan.steps[k];
        if (step.warmup) continue;
        MeasuredTally& t = by[step.variant];
        ++t.total;
        if (!s.done[k]) continue;
        if (s.outcome[k] == data::ExitClass::ok) ++t.ok;
        else if (s.given_up[k]) ++t.given_up;
        else ++t.failed;
    }
    return by;
}

void add_interrupted_run_anomalies(const CampaignPlan& plan, CampaignState& s) {
    // A run attempted and not recorded was interrupted (power cut, crash,
    // kill): it was, or will be, run again.
    for (size_t k = 0; k < plan.steps.size(); ++k) {
        const size_t lost = s.attempts[k] - (s.done[k] && s.attempts[k] ? 1 : 0);
        if (s.attempts[k] && lost) {
            CampaignAnomaly a;
            a.kind = "interrupted_run";
            a.step = k;
            a.slot = plan.steps[k].slot;
            a.boot = s.last_attempt_boot[k];
            a.detail = std::to_string(lost) + " attempt" + (lost == 1 ? "" : "s") +
                       " interrupted (the machine went down or gfxstat was killed during the run)";
            s.anomalies.push_back(a);
        }
    }
}

CampaignState fold_campaign(const CampaignPlan& plan, const std::vector<JournalEvent>& journal,
                            const data::ResultsFile& results) {
    CampaignFold fold(plan);
    for (const auto& r : results.runs()) fold.add_run(r);
    for (const auto& e : journal) fold.add_event(e);
    CampaignState s = fold.state();
    add_interrupted_run_anomalies(plan, s);
    return s;
}

}  // namespace gfxstat::drivers
