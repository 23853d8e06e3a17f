// SPDX-License-Identifier: MIT
#include "drivers/campaign_status.h"

#include <algorithm>

#include "data/results_reader.h"
#include "drivers/campaign_runner.h"
#include "drivers/environment_probe.h"

namespace gfxstat::drivers {

CampaignStatus campaign_status(const std::string& dir) {
    CampaignStatus s;
    s.plan = load_campaign_plan(dir);
    const auto files = campaign_files(dir);
    const data::ResultsFile results = data::read_results_path(files.results, files.results);
    s.state = fold_campaign(s.plan, read_journal(files.journal), results);
    s.simulated = count_simulated_boots(results);
    s.pid = running_resume_pid(dir);
    s.phase = campaign_phase(s.plan, s.state, s.pid != 0);
    // ETA: the mean run (with the cooldown) times the runs left, plus the
    // mean reboot (from the reboot command to the next resume) per reboot left.
    double total = 0;
    size_t n = 0;
    s.variant_boots.assign(s.plan.variants.size(), {});
    s.variant_done.assign(s.plan.variants.size(), 0);
    s.variant_total.assign(s.plan.variants.size(), 0);
    for (const auto& step : s.plan.steps) ++s.variant_total[step.variant];
    s.variant_measured = measured_by_variant(s.plan, s.state);
    for (const auto& t : s.variant_measured) s.measured += t;
    for (const auto& r : results.runs()) {
        if (!r.campaign_step || *r.campaign_step >= s.plan.steps.size()) continue;
        const size_t v = s.plan.steps[*r.campaign_step].variant;
        ++s.variant_done[v];
        if (r.exit_class == data::ExitClass::ok && !r.warmup && !r.boot.empty()) {
            auto& b = s.variant_boots[v];
            if (std::find(b.begin(), b.end(), r.boot) == b.end()) b.push_back(r.boot);
        }
        if (r.duration_s) {
            total += *r.duration_s + s.plan.cooldown_s;
            ++n;
        }
    }
    if (n) s.run_seconds = total / static_cast<double>(n);
    if (!s.state.reboot_seconds.empty()) {
        double t = 0;
        for (double x : s.state.reboot_seconds) t += x;
        s.reboot_seconds = t / static_cast<double>(s.state.reboot_seconds.size());
    }
    const size_t remaining = s.state.done.size() - s.state.done_count;
    if (const auto slot = s.state.current_slot(s.plan)) {
        s.reboots_left = s.plan.slots.size() - *slot - 1;
        const std::string boot = current_boot_id();
        const auto& bound = s.state.slot_boots[*slot];
        if (std::find(bound.begin(), bound.end(), boot) == bound.end()) ++s.reboots_left;
    }
    if (remaining == 0) s.eta_s = 0;
    else if (s.run_seconds && (s.reboots_left == 0 || s.reboot_seconds))
        s.eta_s = *s.run_seconds * static_cast<double>(remaining) +
                  (s.reboot_seconds ? *s.reboot_seconds : 0) * static_cast<double>(s.reboots_left);
    return s;
}

}  // namespace gfxstat::drivers
